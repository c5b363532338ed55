"""``mount_static``: the client's files under /static and index.html at client routes."""

from __future__ import annotations

import asyncio
import concurrent.futures

import httpx
from fastapi import FastAPI

from app.web import STATIC_DIR, mount_static

CLIENT_PATHS = ("/", "/table/12", "/watch/3", "/lobby/4", "/join/4/abc", "/matches", "/matches/9")


def fetch(*paths: str) -> dict[str, httpx.Response]:
    """GET each path from an app with only the client mounted. Runs on a thread of its own:
    the e2e browser fixture keeps an event loop running on the main thread."""
    app = FastAPI()
    mount_static(app)

    async def run() -> dict[str, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as web:
            return {path: await web.get(path) for path in paths}

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def test_client_routes_answer_the_page() -> None:
    for path, reply in fetch(*CLIENT_PATHS).items():
        assert reply.status_code == 200, path
        assert reply.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/static/js/main.js">' in reply.text


def test_modules_are_served_as_javascript() -> None:
    replies = fetch("/static/js/main.js", "/static/js/missing.js")
    assert replies["/static/js/main.js"].status_code == 200
    assert "javascript" in replies["/static/js/main.js"].headers["content-type"]
    assert replies["/static/js/missing.js"].status_code == 404


def test_client_uses_no_external_assets() -> None:
    """No CDN, font or image from elsewhere: every file under static/ stands alone."""
    for path in STATIC_DIR.rglob("*"):
        if path.is_file():
            text = path.read_text().replace("http://www.w3.org/2000/svg", "")
            assert "http://" not in text and "https://" not in text, path
            assert "@import" not in text and "url(http" not in text, path


def test_each_game_has_its_folder_with_the_same_files() -> None:
    """static/js/games/<game>/: the renderer, its board pieces, card art and words, by the same
    names in every game, beside the modules the games share."""
    games = STATIC_DIR / "js" / "games"
    folders = {p.name: sorted(f.name for f in p.iterdir()) for p in games.iterdir() if p.is_dir()}
    assert set(folders) == {"ambush", "rampage", "castles", "ember"}
    for files in folders.values():
        assert files == ["board.js", "cards.js", "feed.js", "index.js"]
    shared = sorted(p.name for p in games.iterdir() if p.is_file())
    assert shared == ["cardback.js", "carddata.js", "generic.js", "index.js"]
