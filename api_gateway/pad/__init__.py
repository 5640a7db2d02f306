"""The score pad: a web page for players at the table, served at ``/`` and ``/pad``.

Plain HTML, CSS and ES modules kept in ``static/`` as source (no build step, no CDN): the
page calls the same JSON endpoints as any app, so this blueprint only serves files. Each
answer carries the pad's own Content-Security-Policy, which the app's ``secure_answers``
keeps: scripts, styles and requests from this origin only.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort, send_from_directory

STATIC = Path(__file__).parent / "static"
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
          "connect-src 'self'; manifest-src 'self'; worker-src 'self'; frame-ancestors 'none'; "
          "base-uri 'none'; form-action 'none'")
"""The page runs its own modules and styles, fetches only this gateway, installs from its
own manifest and service worker, and is framed nowhere; no inline script or style may run."""
TYPES = {".html": "text/html", ".css": "text/css", ".js": "text/javascript",
         ".webmanifest": "application/manifest+json", ".svg": "image/svg+xml"}
"""The types the pad's files are served as, whatever the host's mime.types says (a module
script served with another type does not run, under nosniff); any other file is a 404."""

blueprint = Blueprint("pad", __name__)


def _send(name: str) -> Response:
    mimetype = TYPES.get(Path(name).suffix)
    if mimetype is None:
        abort(404)
    response = send_from_directory(STATIC, name, mimetype=mimetype)
    response.headers["Content-Security-Policy"] = POLICY
    return response


@blueprint.get("/")
@blueprint.get("/pad")
def page() -> Response:
    """The pad itself (served at ``/`` too, not redirected: a redirect would be built
    from the Host header)."""
    return _send("index.html")


@blueprint.get("/pad/static/<name>")
def asset(name: str) -> Response:
    """One of the page's styles, modules, icon, manifest or its service worker (which
    may control the whole origin: the page is served at ``/``)."""
    response = _send(name)
    if name == "sw.js":
        response.headers["Service-Worker-Allowed"] = "/"
    return response
