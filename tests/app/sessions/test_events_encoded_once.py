"""A move's events are encoded once: the action log's row and the session's history hold the
same JSON text, and every connection's patch carries exactly what its seat may see of it."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
from hypothesis import example, given
from hypothesis import strategies as st

from app.db.action_log import Written
from app.jsonenc import encode_text
from app.sessions import commands
from app.sessions.announce import public_events
from app.sessions.listener import Unmeasured
from bench.tally.engine import TallyEngine
from engines import registry
from engines.base import ALL, events_for, make_event
from tests.app.support import match_in_process

# JSON values an event's fields may hold, with the keys and texts that could confuse a
# reading of the log's JSON: ``visible_to`` nested at the end of an object, the text of the
# mark itself inside a string.
TRICKY = ["visible_to", "redacted", "all", ',"visible_to":"all"}', 'a"b\\', "é"]
KEYS = st.sampled_from(["type", "seat", "cell", *TRICKY])
NESTED_MARK = {"k": 1, "visible_to": "all"}  # ends as a public event does
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**40), 2**40)
    | st.sampled_from([*TRICKY, NESTED_MARK])
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=8,
)
FIELDS = st.dictionaries(
    st.sampled_from(["seat", "cell", "n", "card", "to"]), VALUES, min_size=0, max_size=3
)


class Recorder(Unmeasured):
    """A connection that keeps what the session sends it."""

    def __init__(self, seat: int | None, account_id: int | None) -> None:
        self.seat = seat
        self.account_id = account_id
        self.sent: list[str] = []

    def send_text(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int = 1000) -> None:
        return None


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0.01)


async def play_one_move(folder: Path, options: dict[str, Any]) -> None:
    """Seat 0 moves once in a tally match with ``options``; checks the row, the history and
    each connection's patch against one another."""
    registry.register(TallyEngine())
    try:
        async with match_in_process(folder, "tally", options, seed=9) as world:
            hub, writer, players = world["hub"], world["writer"], world["players"]
            session = await hub.get(world["match_id"])
            peers = [Recorder(0, players[0].id), Recorder(1, players[1].id), Recorder(None, None)]
            for peer in peers:
                session.submit(commands.Attach(peer, None))
            await settle()
            staged: list[dict[str, Any]] = []
            stage = writer.stage

            def recording(row: dict[str, Any], written: Written) -> None:
                staged.append(row)
                stage(row, written)

            writer.stage = recording
            session.submit(commands.Submit(peers[0], 0, 1, {"type": "move", "cell": 0}))
            await settle()

            [row] = staged
            version, kept, _ = session.history.entries[-1]
            assert version == row["version"] == 1
            # One encoding: the history keeps the very text the row was written with.
            assert kept is row["events_json"]
            assert kept == encode_text(row["events"])
            async with writer.engine.connect() as connection:
                stored = (
                    await connection.exec_driver_sql(
                        "SELECT events FROM match_actions WHERE match_id = ? AND version = 1",
                        (world["match_id"],),
                    )
                ).scalar_one()
            assert stored == kept
            logged = orjson.loads(stored)
            for peer in peers:
                [patch] = [text for text in peer.sent if text.startswith('{"type":"patch"')]
                shown = encode_text(events_for(logged, peer.seat))
                assert f'"events":{shown},' in patch
                assert orjson.loads(patch)["events"] == events_for(logged, peer.seat)
    finally:
        registry.unregister("tally")


async def test_public_events_reach_the_log_the_history_and_every_patch_alike(
    tmp_path: Path,
) -> None:
    await play_one_move(tmp_path, {"target": 3})


async def test_hidden_events_reach_each_seat_filtered_and_the_log_whole(tmp_path: Path) -> None:
    # ``secrets``: each move also deals the mover a card only its seat sees.
    await play_one_move(tmp_path, {"target": 3, "secrets": True})


async def test_connections_with_the_same_part_share_one_patch_text(tmp_path: Path) -> None:
    """Seats waiting for their turn and the spectators see the same view and have no legal
    action: one patch text goes to all of them; the seat to act gets its own."""
    registry.register(TallyEngine())
    try:
        async with match_in_process(tmp_path, "tally", {"target": 3}, seed=9) as world:
            players = world["players"]
            session = await world["hub"].get(world["match_id"])
            mover, waiter = Recorder(0, players[0].id), Recorder(1, players[1].id)
            spectators = [Recorder(None, None), Recorder(None, None)]
            for peer in (mover, waiter, *spectators):
                session.submit(commands.Attach(peer, None))
            await settle()
            session.submit(commands.Submit(mover, 0, 1, {"type": "move", "cell": 0}))
            await settle()
            mover_patch, waiter_patch, *seen = (
                peer.sent[-1] for peer in (mover, waiter, *spectators)
            )
            # After seat 0's move seat 1 is to act: the mover now waits, like the spectators.
            assert orjson.loads(waiter_patch)["legal"]
            assert all(text is mover_patch for text in seen)
            assert waiter_patch != mover_patch
    finally:
        registry.unregister("tally")


@example([({"to": NESTED_MARK}, "all")])
@example([({"to": NESTED_MARK}, "extra_last")])
@example([({}, "redacted_first")])
@given(
    st.lists(
        st.tuples(
            FIELDS,
            st.sampled_from(["all", "some", "redacted", "redacted_first", "bare", "extra_last"]),
        ),
        max_size=4,
    )
)
def test_the_public_events_text_is_what_encoding_the_filtered_events_gives(
    made: list[tuple[dict[str, object], str]],
) -> None:
    """``public_events`` takes the patch's events from the log's text of them when it can: it
    must give the very bytes ``events_for(events, None)`` encodes, or None when some event is
    not shown whole to everyone."""
    events = []
    for fields, kind in made:
        if kind == "all":
            events.append(make_event("moved", **fields))
        elif kind == "some":
            events.append(make_event("drew", [1], {"seat": 1}, **fields))
        elif kind == "redacted":
            events.append({"type": "x", **fields, "visible_to": ALL, "redacted": {"type": "x"}})
        elif kind == "redacted_first":
            events.append({"type": "x", **fields, "redacted": {"type": "x"}, "visible_to": ALL})
        elif kind == "bare":
            events.append({"type": "bare", **fields})
        else:
            events.append({"type": "x", "visible_to": ALL, **fields, "z": 1})
    shown = public_events(events, encode_text(events))
    if any(event.get("visible_to", ALL) != ALL for event in events):
        assert shown is None
    else:
        assert shown == encode_text(events_for(events, None))


async def test_with_hidden_events_a_seats_connections_share_its_patch_text(
    tmp_path: Path,
) -> None:
    """When some event is hidden each seat gets its own events, so its own text: built once
    per seat, whatever the number of its connections (a player's two tabs, the spectators)."""
    registry.register(TallyEngine())
    try:
        options = {"target": 3, "secrets": True}
        async with match_in_process(tmp_path, "tally", options, seed=9) as world:
            players = world["players"]
            session = await world["hub"].get(world["match_id"])
            tabs = [Recorder(0, players[0].id), Recorder(0, players[0].id)]
            spectators = [Recorder(None, None), Recorder(None, None)]
            for peer in (*tabs, *spectators):
                session.submit(commands.Attach(peer, None))
            await settle()
            session.submit(commands.Submit(tabs[0], 0, 1, {"type": "move", "cell": 0}))
            await settle()
            first_tab, second_tab, watcher, other_watcher = (
                peer.sent[-1] for peer in (*tabs, *spectators)
            )
            assert '"secret":' in first_tab and '"secret":' not in watcher
            assert second_tab is first_tab
            assert other_watcher is watcher
    finally:
        registry.unregister("tally")
