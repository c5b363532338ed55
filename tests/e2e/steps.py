"""Browser steps the game-table e2e tests share: sign in, raise a private table, read the
model, record what a page receives."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Mapping
from typing import Any

from rampart_client import HeldView

LOBBY_URL = re.compile(r"/lobby/\d+$")
TABLE_URL = re.compile(r"/table/\d+$")
GUEST_NUMBERS = itertools.count(1)


def model(page: Any) -> dict[str, Any]:
    """The client's table model: seat, view and legal actions."""
    result: dict[str, Any] = page.evaluate(
        "() => ({seat: window.__rampart.seat, view: window.__rampart.view,"
        " legal: window.__rampart.legal})"
    )
    return result


def wait_model(page: Any, condition: str, timeout: int) -> None:
    """Wait until the JS ``condition`` holds on the client's table model."""
    page.wait_for_function(
        f"() => window.__rampart && window.__rampart.view && ({condition})", timeout=timeout
    )


def sign_in_as_guest(page: Any, name: str, timeout: int) -> None:
    """Play as a guest named ``name`` and a number: names are unique on a server (guests
    too), and one e2e server serves many tests; ``has-text('Alice')`` still finds "Alice 3"."""
    name = f"{name} {next(GUEST_NUMBERS)}"
    page.fill("#guest-name", name)
    page.click("#guest-button")
    page.wait_for_selector(f"#account-badge:has-text('{name}')", timeout=timeout)


def guest(page: Any, base: str, name: str, timeout: int = 10_000) -> str:
    """Open the start page of the server at ``base`` and play as a guest named exactly
    ``name`` (on a server of the test's own, where the name is free); the session's token."""
    page.goto(base + "/")
    page.fill("#guest-name", name)
    page.click("#guest-button")
    page.wait_for_selector(f"#account-badge:has-text('{name}')", timeout=timeout)
    token: str = page.evaluate("() => localStorage.getItem('rampart.token')")
    return token


def open_private_duel(
    host: Any,
    guest: Any,
    server_url: str,
    game: str,
    options: Mapping[str, Any],
    timeout: int,
    *,
    names: tuple[str, str] = ("Alice", "Bram"),
    turn_seconds: int | None = None,
    guest_url: str | None = None,
) -> int:
    """``host`` raises a private two-seat table of ``game`` with ``options``, ``guest``
    follows the invite link (on ``guest_url``, another server process, if given), the host
    starts; returns the match id once both sit at it."""
    host.goto(server_url + "/")
    sign_in_as_guest(host, names[0], timeout)
    host.select_option("#new-game", game)
    host.select_option("#new-privacy", "private")
    host.fill("#new-seats", "2")
    if turn_seconds is not None:
        host.fill("#new-turn", str(turn_seconds))
    host.click("details summary")
    host.fill("#opt-json", json.dumps(options))
    host.click("#create-button")
    host.wait_for_url(LOBBY_URL, timeout=timeout)
    invite = host.input_value("#invite-link")
    guest.goto(invite.replace(server_url, guest_url) if guest_url else invite)
    sign_in_as_guest(guest, names[1], timeout)
    guest.wait_for_url(LOBBY_URL, timeout=timeout)
    host.wait_for_selector(f".seat[data-seat='1']:has-text('{names[1]}')", timeout=timeout)
    host.wait_for_selector("#start-button:not([disabled])", timeout=timeout)
    host.click("#start-button")
    host.wait_for_url(TABLE_URL, timeout=timeout)
    guest.wait_for_url(TABLE_URL, timeout=timeout)
    match_id = int(host.url.rsplit("/", 1)[1])
    wait_model(host, "window.__rampart.seat === 0", timeout)
    wait_model(guest, "window.__rampart.seat === 1", timeout)
    return match_id


def record_frames(page: Any) -> list[dict[str, Any]]:
    """Every JSON text frame ``page``'s websockets receive from now on, in order (to check that
    no message carries what its receiver may not know)."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        # A diff patch is recorded filled in to the whole view the page now holds.
        patches = HeldView()

        def received(payload: Any) -> None:
            if isinstance(payload, str):
                frame = json.loads(payload)
                if frame.get("type") in ("welcome", "patch"):
                    patches.read(frame, fill_in=True)
                frames.append(frame)

        ws.on("framereceived", received)

    page.on("websocket", on_socket)
    return frames
