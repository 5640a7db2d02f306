"""The header helpers the after-request hooks use give werkzeug's own results."""

from __future__ import annotations

import pytest
from flask import Flask, request
from werkzeug.wrappers import Response

from api_gateway import browser, i18n
from api_gateway.headers import vary

VARY_BEFORE = [None, "", "Origin", "origin", "Accept-Language", "accept-language",
               "Origin, Accept-Language", "Origin,Accept-Language", "Origin ,  Cookie",
               '"Origin"', "*", "Cookie, Cookie", "Accept-Language, Accept-Encoding",
               "Origin, ACCEPT-ENCODING"]


@pytest.mark.parametrize("before", VARY_BEFORE)
@pytest.mark.parametrize("name", ["Accept-Language", "Accept-Encoding", "Origin"])
def test_vary_adds_a_name_as_werkzeug_does(before: str | None, name: str) -> None:
    def answer() -> Response:
        response = Response("{}", headers={"X-Before": "1"})
        if before is not None:
            response.headers["Vary"] = before
        response.headers["X-After"] = "2"
        return response

    expected, ours = answer(), answer()
    expected.vary.add(name)
    vary(ours, name)
    assert list(ours.headers.items()) == list(expected.headers.items())


ACCEPTED = ["gzip", "GZIP", "gzip;q=0", "gzip; q=0.0", "gzip;q=0.001", "br", "*", "*;q=0",
            "gzip;q=0, *", "deflate, gzip;q=0.5", "gzip, deflate, br", "identity", ",",
            "gzip;q=bad", "x" * 300]
LANGUAGES = ["fr", "fr-CH, fr;q=0.9, en;q=0.8", "de", "*", "en;q=0, fr;q=0", "FR", "fr_FR",
             "de, fr;q=0.1", ",", "fr;q=bad"]


@pytest.mark.parametrize("accepted", ACCEPTED)
def test_gzip_is_taken_as_werkzeug_reads_accept_encoding(accepted: str) -> None:
    with Flask(__name__).test_request_context(headers={"Accept-Encoding": accepted}):
        assert browser._takes_gzip(accepted) == bool(request.accept_encodings["gzip"])


@pytest.mark.parametrize("accepted", [None, "", *LANGUAGES])
def test_the_language_is_werkzeugs_best_match(accepted: str | None) -> None:
    headers = {} if accepted is None else {"Accept-Language": accepted}
    with Flask(__name__).test_request_context(headers=headers):
        expected = request.accept_languages.best_match(i18n.LANGUAGES, i18n.LANGUAGES[0])
        assert i18n.negotiate() == expected
