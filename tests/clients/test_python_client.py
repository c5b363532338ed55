"""The official Python client against a real server: whole matches, resume, retries."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from rampart_client import ApiError, HeldView, MatchClient, Rampart, apply_diff, play

from tests.app.support import Server


def no_resign(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    return random.choice([action for action in legal if action["type"] != "resign"] or legal)


def keen(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Plays a card when it can (in Castle Rampage a random player, ending his turn half the
    time, makes a match of hundreds of versions)."""
    plays = [action for action in legal if action["type"] == "play"]
    return random.choice(plays) if plays else no_resign(view, legal)


async def table_against_bots(api: Rampart, game: str, seats: int = 2) -> int:
    await api.guest(f"client-{game}-{random.randrange(10**9)}")
    table = await api.create_table(game, seats)
    await api.add_bots(table["id"], seats - 1, kind="random")
    return await api.start(table["id"])


@pytest.mark.parametrize("game", ["ambush", "rampage", "castles", "ember"])
async def test_the_readme_bot_plays_each_game_to_the_end(shared_server: Server, game: str) -> None:
    random.seed(game)
    async with Rampart(shared_server.http) as api:
        match_id = await table_against_bots(api, game)
        assert api.token is not None
        choose = keen if game == "rampage" else no_resign
        outcome = await play(api.base_url, match_id, api.token, choose, timeout_s=240)
        assert outcome["placings"]
        finished = await api.match(match_id)
        assert finished["status"] == "finished"


async def test_a_dropped_socket_resumes_without_losing_or_reordering_versions(
    shared_server: Server,
) -> None:
    async with Rampart(shared_server.http) as api:
        match_id = await table_against_bots(api, "ember")
        assert api.token is not None
        async with MatchClient(api.base_url, match_id, api.token) as client:
            versions: list[int] = []
            dropped = False
            async with asyncio.timeout(120):
                async for event in client.events():
                    if event.kind in ("welcome", "state"):
                        versions.append(event.message["version"])
                    if event.kind == "ended":
                        break
                    ready = event.kind in ("welcome", "state") and client.protocol.my_turn
                    if ready and not client.protocol.pending:
                        client.act(no_resign(client.view or {}, client.legal))
                        if not dropped and len(versions) > 10:
                            dropped = True  # cut the link with the action in flight
                            assert client.protocol.pending
                            client.drop_link()
            assert dropped and client.reconnects >= 1
            assert versions == sorted(versions)  # what the reader sees never goes back
            assert not client.protocol.pending  # the action in flight was answered


async def test_refusals_come_back_as_api_errors_with_stable_codes(shared_server: Server) -> None:
    async with Rampart(shared_server.http) as api:
        with pytest.raises(ApiError) as refused:
            await api.me()
        assert refused.value.status == 401 and refused.value.code.startswith("auth/")
        await api.guest(f"dup-{random.randrange(10**9)}")
        assert api.account is not None
        async with Rampart(shared_server.http) as other:
            with pytest.raises(ApiError) as taken:
                await other.guest(api.account["name"])
        assert taken.value.code == "account/name_taken"


def test_a_diff_patch_fills_in_the_whole_view() -> None:
    view = {"castles": [{"hp": 30}, {"hp": 30}], "turn": 0, "gone": 1}
    after = apply_diff(
        view, {"set": {"turn": 1}, "sub": {"castles": {"1": {"hp": 28}}}, "del": ["gone"]}
    )
    assert after == {"castles": [{"hp": 30}, {"hp": 28}], "turn": 1}
    assert view["turn"] == 0  # the view held is not changed in place
    held = HeldView()
    assert (
        held.read({"type": "welcome", "version": 5, "view": view, "legal": [{"type": "pass"}]})
        == "applied"
    )
    assert held.read({"type": "patch", "version": 4, "view": {"old": True}}) == "history"
    assert held.view == view
    assert held.read({"type": "patch", "version": 7, "base": 6, "diff": {}}) == "resync"
    assert (
        held.read({"type": "patch", "version": 6, "base": 5, "diff": {"set": {"turn": 1}}})
        == "applied"
    )
    assert held.version == 6 and held.view is not None and held.view["turn"] == 1
