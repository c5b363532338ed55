"""Pages the docs site generates at build time from the code, so they cannot drift from it.

``mkdocs build`` runs this through the ``gen-files`` plugin: the REST reference is rendered
from the OpenAPI document of the application itself (``create_app().openapi()``, the same one
the server serves at ``/openapi.json``), the socket reference from its AsyncAPI document
(``/asyncapi.json``), and each game's rules page is the README that sits
beside its engine; the Python client's page is its package's README.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import mkdocs_gen_files
from openapidocs.mk.v3 import OpenAPIV3DocumentationHandler

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("ambush", "rampage", "castles", "ember")


def openapi_document() -> dict[str, object]:
    """The OpenAPI document the server serves at ``/openapi.json``, built without starting it."""
    os.environ.setdefault("RAMPART_BENCH_GAMES", "0")
    from app.main import create_app

    return create_app().openapi()


def asyncapi_document() -> dict[str, object]:
    """The socket protocol's AsyncAPI document, as the server serves it at ``/asyncapi.json``."""
    from app.realtime.contract import asyncapi_document as built

    return built()


REST_INTRO = (ROOT / "docs" / "reference" / "rest-intro.md").read_text(encoding="utf-8")

document = openapi_document()
with mkdocs_gen_files.open("reference/openapi.json", "w") as out:
    json.dump(document, out, indent=1)
with mkdocs_gen_files.open("reference/asyncapi.json", "w") as out:
    json.dump(asyncapi_document(), out, indent=1)
with mkdocs_gen_files.open("reference/rest.md", "w") as out:
    out.write(REST_INTRO)
    out.write("\n")
    out.write(OpenAPIV3DocumentationHandler(document, style="MKDOCS").write())

with mkdocs_gen_files.open("reference/python-client.md", "w") as out:
    out.write((ROOT / "clients" / "python" / "README.md").read_text(encoding="utf-8"))
mkdocs_gen_files.set_edit_path("reference/python-client.md", "../clients/python/README.md")

for game in GAMES:
    source = ROOT / "engines" / game / "README.md"
    with mkdocs_gen_files.open(f"games/{game}.md", "w") as out:
        out.write(source.read_text(encoding="utf-8"))
    mkdocs_gen_files.set_edit_path(f"games/{game}.md", f"../engines/{game}/README.md")
