"""A visitor who has not signed in keeps the live lobby and tournament lists: the page's lobby
socket says ``hello{}`` without a token, so the server, which closes a lobby socket that has
not said hello within ``RAMPART_HELLO_TIMEOUT_S`` (4408), keeps it open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import running_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def quick_hello_server(
    tmp_path_factory: pytest.TempPathFactory, chromium_path: str
) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("hello"), RAMPART_HELLO_TIMEOUT_S="1") as url:
        yield url


@pytest.mark.parametrize("path", ["/", "/tournaments"])
def test_a_signed_out_page_keeps_its_lobby_socket(
    browser: Any, quick_hello_server: str, path: str
) -> None:
    context = browser.new_context()
    page = context.new_page()
    opened: list[Any] = []
    closed: list[str] = []

    def watch(ws: Any) -> None:
        if ws.url.endswith("/ws/lobby"):
            opened.append(ws)
            ws.on("close", lambda socket: closed.append(socket.url))

    page.on("websocket", watch)
    try:
        page.goto(quick_hello_server + path)
        page.wait_for_timeout(2500)  # past the server's 1 s hello deadline
        assert opened, "the page opened no lobby socket"
        assert closed == [], f"{len(closed)} lobby sockets closed (and reopened)"
        assert all(not ws.is_closed() for ws in opened)
    finally:
        context.close()
