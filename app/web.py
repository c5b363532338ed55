"""Serving the browser client: ``static/`` under ``/static``, index.html for client routes."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
# Routes the client draws itself (history API): a reload or a shared link must get the page.
CLIENT_ROUTES = (
    "/",
    "/lobby/{rest:path}",
    "/table/{rest:path}",
    "/watch/{rest:path}",
    "/join/{rest:path}",
    "/matches",
    "/matches/{rest:path}",
    "/tournaments",
    "/tournaments/{rest:path}",
    "/ladders",
    "/ladders/{rest:path}",
    "/players/{rest:path}",
    "/howto",
    "/howto/{rest:path}",
    "/practice/{rest:path}",
)


def mount_static(app: FastAPI) -> None:
    """Serve the ES modules under ``/static`` and ``index.html`` at every client route.
    Refuses nothing: a missing file under ``/static`` is the usual 404."""
    index = STATIC_DIR / "index.html"

    async def client_page() -> FileResponse:
        # no-cache: a deploy must reach players on their next load, not after an expiry.
        return FileResponse(index, media_type="text/html", headers={"cache-control": "no-cache"})

    for path in CLIENT_ROUTES:
        app.add_api_route(path, client_page, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
