"""Serving the browser client: ``static/`` under ``/static``, index.html for client routes, and
the client's own not-found page for other browser paths (API paths keep their JSON 404)."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
    "/admin",
)


# Paths whose 404 stays the API's JSON error: everything else is a page a browser asked for.
API_PREFIXES = ("/api", "/ws/", "/static/")


class NotFoundPage:
    """ASGI middleware: a GET for a path no route serves, outside the API, gets the client's
    page with status 404 (its router draws "Nothing here") instead of the raw JSON error."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.index = (STATIC_DIR / "index.html").read_bytes()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or scope["path"].startswith(API_PREFIXES)
        ):
            await self.app(scope, receive, send)
            return
        replaced = False

        async def send_page(message: Message) -> None:
            nonlocal replaced
            if message["type"] == "http.response.start" and message["status"] == 404:
                replaced = True
                await send(
                    {
                        "type": "http.response.start",
                        "status": 404,
                        "headers": [
                            (b"content-type", b"text/html; charset=utf-8"),
                            (b"content-length", str(len(self.index)).encode()),
                            (b"cache-control", b"no-cache"),
                        ],
                    }
                )
                body = b"" if scope["method"] == "HEAD" else self.index
                await send({"type": "http.response.body", "body": body})
                return
            if replaced:
                return  # the JSON error's body: already answered with the page
            await send(message)

        await self.app(scope, receive, send_page)


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
    app.add_middleware(NotFoundPage)
