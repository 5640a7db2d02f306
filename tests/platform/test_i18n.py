"""Answers in the caller's language: every code has its English and its French, a score
and a 422 answer in French when asked (Content-Language, Vary), and the OpenAPI document
lists every code with its sentence and params."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

import engine_service.server  # noqa: F401  (declares every template the engine words)
from api_gateway import create_app
from api_gateway.i18n import TERM, TERMS, translation
from tabletop_rules.downtown_farmers_market.legality import Reason as DfmReason
from tabletop_rules.foxglove_farm.reasons import Reason as FfReason
from tabletop_rules.messages import ENGLISH, TEMPLATES, find

REPO = Path(__file__).resolve().parents[2]
RULEBOOK = json.loads((REPO / "tests" / "data" / "downtown_farmers_market" /
                       "rulebook_standard_example.json").read_text())["board"]
SCORE = "/v1/downtown-farmers-market/score"

create_app()  # the gateway's own templates, declared as the app is built


def test_every_code_has_its_english_and_its_french() -> None:
    french = translation("fr")
    assert TEMPLATES
    for key, made in TEMPLATES.items():
        text = french.translated(made.english, key)  # type: ignore[attr-defined]
        assert text, f"{key} has no French"
        assert made.fields(french) <= made.fields(ENGLISH) | {"wording"}, key
    for word in TERMS:
        assert french.translated(word, TERM), f"the word {word!r} has no French"  # type: ignore[attr-defined]


def test_every_violation_reason_is_a_code() -> None:
    for namespace, reasons in (("DFM", DfmReason), ("FF", FfReason)):
        for reason in reasons:
            made = find(reason.value, namespace)
            assert made is not None and made.code == reason.value, (namespace, reason)


def test_a_score_in_french(gateway: FlaskClient) -> None:
    english = gateway.post(SCORE, json=RULEBOOK)
    answer = gateway.post(SCORE, json=RULEBOOK, headers={"Accept-Language": "fr-CH, fr;q=0.9"})
    assert answer.headers["Content-Language"] == "fr"
    assert "Accept-Language" in answer.headers["Vary"]
    assert english.headers["Content-Language"] == "en"
    en, fr = english.get_json(), answer.get_json()
    assert fr["total"] == en["total"] == 43
    for mine, theirs in zip(fr["rows"] + fr["columns"], en["rows"] + en["columns"]):
        assert {k: v for k, v in mine.items() if k != "explanation"} == {
            k: v for k, v in theirs.items() if k != "explanation"}
    line3 = fr["rows"][2]
    assert line3["explanation"] == "1 point par pain ; 5 séries formées : défi réussi, 5 points"
    assert line3["code"] == "DFM_PER_SET_MET" and len(line3["sets_formed"]) == 5
    assert fr["columns"][0]["explanation"].startswith("Majorité de carotte : la carotte apparaît")


def test_a_422_in_french(gateway: FlaskClient) -> None:
    board = {**RULEBOOK, "grid": [[["brad"], *RULEBOOK["grid"][0][1:]], *RULEBOOK["grid"][1:]],
             "colour": "red"}
    answer = gateway.post(SCORE, json=board, headers={"Accept-Language": "fr"})
    assert answer.status_code == 422 and answer.headers["Content-Language"] == "fr"
    body = answer.get_json()
    assert (body["title"], body["detail"]) == ("Requête invalide",
                                               "2 problèmes dans le corps de la requête")
    by_code = {e["code"]: e for e in body["errors"]}
    misspelt = by_code["NOT_AN_INGREDIENT_LIKE"]
    assert misspelt["pointer"] == "/grid/0/0/0"
    assert misspelt["params"]["value"] == "'brad'" and misspelt["params"]["like"] == ["bread"]
    assert misspelt["detail"].startswith("'brad' n'est pas un ingrédient ; vouliez-vous dire "
                                         "pain ?")
    assert by_code["UNKNOWN_FIELD"]["detail"].startswith("ce champ n'existe pas ici")


def test_the_engines_problems_carry_their_codes_in_french(gateway: FlaskClient) -> None:
    board = {**RULEBOOK, "row_challenges": RULEBOOK["row_challenges"][:3]}
    body = gateway.post(SCORE, json=board, headers={"Accept-Language": "fr"}).get_json()
    assert body["errors"] and all(e["code"] for e in body["errors"])


@pytest.mark.parametrize("component, kind", [
    ("DowntownLineExplanationCode", "DFM_"), ("FoxgloveEndGameExplanationCode", "FF_"),
    ("ViolationCode", ""), ("ProblemCode", "")])
def test_the_openapi_document_lists_every_code_with_its_sentence(
        gateway: FlaskClient, component: str, kind: str) -> None:
    document: dict[str, Any] = gateway.get("/v1/openapi.json").get_json()
    schema = document["components"]["schemas"][component]
    assert schema["enum"] and all(code.startswith(kind) for code in schema["enum"])
    for code in schema["enum"]:
        assert f"| `{code}` |" in schema["description"], code
    if component == "DowntownLineExplanationCode":
        assert "{ingredient:term} appears {count:times}, more than any other" in (
            schema["description"])
    params = document["components"]["schemas"]["DowntownLineScore"]["properties"]["params"]
    assert params["type"] == "object" and "snake_case" in params["description"]


def test_the_gateways_own_problems_in_french() -> None:
    """The engine's 503, 504 and 429 and the API keys' 401 and 429 are worded from their
    codes too (their English unchanged)."""
    from api_gateway import access, engine
    app = create_app()
    with app.test_request_context(headers={"Accept-Language": "fr"}):
        unavailable = json.loads(engine.engine_unavailable().response().get_data())
        busy = engine.TOO_MANY_REQUESTS(), engine.ENGINE_BUSY(seconds=3)
        key = json.loads(access.key_needed(access.NO_KEY(header=access.HEADER))
                         .response().get_data())
    assert (unavailable["title"], unavailable["detail"]) == (
        "Moteur indisponible", "Le moteur de règles est injoignable ; réessayez dans un instant.")
    assert (key["title"], key["detail"]) == (
        "Clé d'API requise",
        "Cet arbitre demande une clé d'API : envoyez la vôtre dans l'en-tête X-API-Key.")
    assert busy == ("Too many requests", "The referee is already working on as many requests "
                    "of this kind as it takes at once; try again in 3 s.")
    assert [made.code for made in busy] == ["TITLE_TOO_MANY_REQUESTS", "ENGINE_BUSY"]


def test_the_violation_codes_listed_are_every_reason_of_both_games(
        gateway: FlaskClient) -> None:
    """The gateway lists every game's violation sentences, whichever of the rules' modules
    it imported first (a Foxglove Farm game's turn-order violations included)."""
    document: dict[str, Any] = gateway.get("/v1/openapi.json").get_json()
    listed = set(document["components"]["schemas"]["ViolationCode"]["enum"])
    assert listed == {r.value for r in DfmReason} | {r.value for r in FfReason}
