"""How an accepted change reaches the action log, then every connection (persist, then tell)."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from typing import TYPE_CHECKING, Any

from app.db.engine import database_unavailable
from app.ops.metrics import METRICS
from app.sessions import races as race_steps
from app.sessions import wire
from app.sessions.commands import Change, Submit
from engines.base import ALL, events_for

log = logging.getLogger(__name__)

UNAVAILABLE = "server/unavailable"
# Between tries of a result write while the database cannot be written.
RESULT_RETRY_S = 0.5

if TYPE_CHECKING:
    from app.sessions.session import GameSession


async def commit(session: GameSession, change: Change) -> None:
    """Persist the new version, then tell everyone. While the database cannot be written the
    row is held (and nobody told) until it can; a write refused for the row itself raises:
    the hub then rebuilds the match from the log, where the unacknowledged action is absent."""
    row, ended = log_row(session, change)
    accepted = time.perf_counter()
    await session.action_log.append(row)
    METRICS.commit_seconds.observe(time.perf_counter() - accepted)
    if advance(session, change, row["version"]):
        await finish(session, change, row["version"], ended)
    else:
        announce(session, change, row["version"], ended)


def commit_soon(session: GameSession, change: Change) -> None:
    """The fast lane's ``commit``: the row is staged with the action log, and the broadcast
    goes from its callback, in the same turn of the loop as the commit. The session stays
    busy (``submit`` queues everything else) until then."""
    row, ended = log_row(session, change)
    version = row["version"]
    accepted = time.perf_counter()

    def written(error: BaseException | None) -> None:
        if error is not None:
            session._fail(error)
            return
        METRICS.commit_seconds.observe(time.perf_counter() - accepted)
        try:
            if advance(session, change, version):
                # The match is over: its result is recorded (awaited, so by the session's
                # task) before anyone hears of the last move.
                session._ending = functools.partial(finish, session, change, version, ended)
                session._wake.set()
                return
            announce(session, change, version, ended)
        except Exception as failure:
            session._fail(failure)
            return
        session._release()

    session.action_log.stage(row, written)


def log_row(session: GameSession, change: Change) -> tuple[dict[str, Any], list[Any]]:
    """The log row of the next version, and the grab races this change decides."""
    version = session.version + 1
    ended = []
    arbitration = change.arbitration
    if session.races is not None:
        ended = session.races.observe(
            version, change.events, session.clock.precise(), race_steps.living(session)
        )
        arbitration = session.races.attach(arbitration)
    row = {
        "match_id": session.match_id,
        "version": version,
        "seat": change.seat,
        "account_id": change.account_id,
        "client_seq": change.client_seq,
        "action": change.action,
        "at_ms": change.at_ms,
        "cause": change.cause,
        "events": change.events,
        "arbitration": arbitration,
    }
    return row, ended


def advance(session: GameSession, change: Change, version: int) -> bool:
    """The change is logged: it is now the match's current version. True when it ended the
    match (its result must be recorded before anyone hears)."""
    session.version = version
    METRICS.count_action(session.engine.id)
    session.clock.observe(change.at_ms)
    session.history.append(version, change.events, change.at_ms)
    session.views.clear()
    session._stale_deadline = None
    return session.engine.outcome(session.state) is not None


async def finish(session: GameSession, change: Change, version: int, ended: list[Any]) -> None:
    """The last move is logged: record the result, then tell. While the database cannot be
    written the result waits (and so does the news), tried again until it is written."""
    while True:
        try:
            await session.record_result()
            break
        except Exception as error:
            if not database_unavailable(error):
                raise
            log.warning("match %s: result not written (%r); retrying", session.match_id, error)
            await asyncio.sleep(RESULT_RETRY_S)
    announce(session, change, version, ended)


def refused_while_down(session: GameSession, command: Submit) -> bool:
    """While the action log holds rows for a database that cannot be written, a new action
    is not applied: the sender hears ``server/unavailable`` with ``retry: true`` at once (a
    repeat of an action already answered still gets its answer, a repeat of the one held
    waits for it). The refusal is not
    remembered as the answer to its ``client_seq``: the same action sent again once the
    database is back is played. True when the command was answered here."""
    if session.action_log.unavailable is None or session.finished:
        return False
    peer, seq = command.peer, command.client_seq
    previous = session.replies.get((peer.account_id, command.seat))
    if previous is not None and previous[0] == seq:
        peer.send_text(wire.dumps({**previous[1], "duplicate": True}))
        return True
    if session.action_log.holds(session.match_id, peer.account_id, command.seat, seq):
        return True  # sent again while held: its ack comes once it is written
    message = "the database is unavailable; your action was not played, send it again"
    if command.grab:
        cell = command.action.get("cell")
        reply = wire.grab_result(seq, cell, False, session.clock.now(), UNAVAILABLE)
    else:
        reply = wire.error(UNAVAILABLE, message, seq)
    peer.send_text(wire.dumps({**reply, "retry": True}))
    return True


def announce(session: GameSession, change: Change, version: int, ended: list[Any]) -> None:
    """Tell everyone about a logged change: the mover's reply first, then race results, then
    every connection's own patch."""
    if change.before_broadcast is not None:
        change.before_broadcast(version)
    for decision in ended:
        race_steps.grab_reply(session, decision)
    started = time.perf_counter()
    events, at_ms = change.events, change.at_ms
    public = None
    if all(event.get("visible_to", ALL) == ALL for event in events):
        public = wire.dumps(events_for(events, None))
    for peer in list(session.peers):
        text = session.views.patch_text(peer.seat, version, events, at_ms, public)
        race_steps.broadcast(peer, text, version)
    METRICS.broadcast_seconds.observe(time.perf_counter() - started)
    if not session.finished:
        session._after_change(events, acted=change.seat)
