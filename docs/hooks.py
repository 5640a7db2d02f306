"""The documentation site's build-time files (mkdocs hooks; ``mkdocs.yml`` names this).

The configuration page's tables are written from the settings' declarations
(:class:`tabletop_rules.settings.Setting`), read from the modules that read them, so a
setting declared there is documented and one documented is declared.

The API reference shows what the gateway itself serves: its OpenAPI document, taken
from the app as it is built, and the Swagger UI build it serves at ``/v1/docs/assets/``
(``api_gateway/openapi.py``), so the page asks no other host for anything.
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

REPO = Path(__file__).resolve().parents[1]

API_REFERENCE_PAGE = "api-reference.md"
SWAGGER_UI_MARKER = "<!-- swagger-ui -->"
CONFIGURATION_PAGE = "configuration.md"
SETTINGS_MARKER = "<!-- settings -->"
SETTINGS_SOURCES = (
    ("The engine", ("engine_service.__main__", "engine_service.tracing")),
    ("The gateway: the Flask app and gunicorn", ("api_gateway.config", "api_gateway.tracing")),
    ("nginx in front of the gateway", ("deploy.proxy",)),
    ("Installing, and which build runs", ("deploy.compiled",)),
)
"""Each process's settings: the modules whose ``SETTINGS`` it reads."""
OPENAPI_DOCUMENT = "openapi.json"
SWAGGER_UI_DIRECTORY = "swagger-ui"


def on_files(files: Files, config: MkDocsConfig) -> Files:
    from api_gateway import create_app
    from api_gateway.openapi import SWAGGER_UI, SWAGGER_UI_ASSETS

    app = create_app()
    document = app.test_client().get(app.config["OPENAPI_URL_PREFIX"] + "/"
                                      + app.config["OPENAPI_JSON_PATH"])
    committed = files.get_file_from_path(OPENAPI_DOCUMENT)
    if committed is not None:
        files.remove(committed)
    files.append(File.generated(config, OPENAPI_DOCUMENT, content=document.get_data()))
    for name in sorted(SWAGGER_UI_ASSETS):
        files.append(File.generated(config, f"{SWAGGER_UI_DIRECTORY}/{name}",
                                    abs_src_path=str(SWAGGER_UI / name)))
    return files


def settings_tables() -> str:
    """A table per process of every setting its modules declare."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))  # deploy/ is no installed package
    sections = []
    for title, modules in SETTINGS_SOURCES:
        rows = ["| variable | flag | default | meaning |", "|---|---|---|---|"]
        for module in modules:
            for setting in importlib.import_module(module).SETTINGS:
                default = "unset" if setting.default in (None, "") else f"`{setting.default}`"
                flag = f"`{setting.flag}`" if setting.flag else ""
                rows.append(f"| `{setting.name}` | {flag} | {default} | {setting.meaning} |")
        sections.append(f"## {title}\n\n" + "\n".join(rows))
    return "\n\n".join(sections)


def swagger_ui() -> str:
    """Swagger UI on the site's copy of the document, set up as the gateway sets it."""
    from api_gateway.config import DefaultConfig

    options = {**DefaultConfig.OPENAPI_SWAGGER_UI_CONFIG, "url": f"../{OPENAPI_DOCUMENT}",
               "dom_id": "#swagger-ui"}
    return (f'<div id="swagger-ui"></div>\n'
            f'<link rel="stylesheet" href="../{SWAGGER_UI_DIRECTORY}/swagger-ui.css">\n'
            f'<script src="../{SWAGGER_UI_DIRECTORY}/swagger-ui-bundle.js"></script>\n'
            f"<script>SwaggerUIBundle({json.dumps(options)});</script>\n")


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    if page.file.src_uri == CONFIGURATION_PAGE:
        return markdown.replace(SETTINGS_MARKER, settings_tables())
    if page.file.src_uri == API_REFERENCE_PAGE:
        return markdown.replace(SWAGGER_UI_MARKER, swagger_ui())
    return markdown
