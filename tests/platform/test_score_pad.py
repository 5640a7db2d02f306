"""The score pad's files as the gateway serves them: each with its type and the pad's
strict Content-Security-Policy, all from this origin (no file names another host), and
nothing else served from its folder. The page itself is driven in a real browser by
tests/e2e/test_score_pad.py."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from api_gateway.pad import STATIC

POLICY = {
    "default-src": "'none'", "script-src": "'self'", "style-src": "'self'",
    "img-src": "'self' data:", "connect-src": "'self'", "manifest-src": "'self'", "worker-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'", "form-action": "'none'",
}
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".webmanifest": "application/manifest+json",
         ".svg": "image/svg+xml; charset=utf-8"}
FILES = sorted(path.name for path in STATIC.iterdir())
REFERENCE = re.compile(r"""(?:src|href)="([^"]+)"|from '([^']+)'|import\('([^']+)'\)""")
EXTERNAL = re.compile(r"""\b(?:https?|wss?|ftp):|["'(]\s*//""")
"""A URL of another host: with a scheme, or protocol-relative in a quote or url()."""
SVG_NAMESPACE = 'xmlns="http://www.w3.org/2000/svg"'
"""The icon's namespace: a name the SVG must declare, never fetched."""


def policy(answer) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return dict(part.strip().split(" ", 1)
                for part in answer.headers["Content-Security-Policy"].split(";"))


@pytest.mark.parametrize("path", ["/", "/pad", "/pad/"])
def test_the_page_is_served_with_the_pads_policy(gateway: FlaskClient, path: str) -> None:
    answer = gateway.get(path)
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "text/html; charset=utf-8"
    assert policy(answer) == POLICY
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert "Location" not in answer.headers
    assert answer.data == (STATIC / "index.html").read_bytes()


@pytest.mark.parametrize("name", FILES)
def test_every_file_is_served_with_its_type_and_policy(gateway: FlaskClient, name: str) -> None:
    answer = gateway.get(f"/pad/static/{name}")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == TYPES[name[name.rindex("."):]]
    assert policy(answer) == POLICY
    assert answer.data == (STATIC / name).read_bytes()


@pytest.mark.parametrize("name", FILES)
def test_no_file_names_another_host(name: str) -> None:
    text = (STATIC / name).read_text(encoding="utf-8").replace(SVG_NAMESPACE, "")
    assert not EXTERNAL.findall(text)
    for reference in filter(None, (part for match in REFERENCE.findall(text) for part in match)):
        assert reference.startswith(("/pad/static/", "./", "data:")), reference
        assert reference.rsplit("/", 1)[-1] in FILES or reference.startswith("data:"), reference


def test_the_page_loads_its_modules_and_styles(gateway: FlaskClient) -> None:
    """The page names its stylesheet and entry module, and every module another one
    imports is there: nothing the page needs is missing."""
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    assert 'href="/pad/static/pad.css"' in page
    assert '<script type="module" src="/pad/static/pad.js">' in page
    assert "<style" not in page and " style=" not in page and "<script>" not in page
    for name in FILES:
        for imported in re.findall(r"from '\./([^']+)'", (STATIC / name).read_text(encoding="utf-8")):
            assert gateway.get(f"/pad/static/{imported}").status_code == 200, (name, imported)


@pytest.mark.parametrize("path", ["/pad/static/missing.js", "/pad/static/__init__.py",
                                  "/pad/static/..%2f__init__.py", "/pad/static/../__init__.py",
                                  "/pad/static/", "/pad/other"])
def test_nothing_else_is_served(gateway: FlaskClient, path: str) -> None:
    answer = gateway.get(path)
    assert answer.status_code == 404
    assert answer.mimetype == "application/problem+json"
    assert answer.headers["Content-Security-Policy"] == "default-src 'none'; frame-ancestors 'none'"
