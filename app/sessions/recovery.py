"""Defence in depth for a match's session: a failure while handling one message is answered
and contained, and the state it may have half-changed is restored from the action log.

Whatever one client's message does, the session survives it. A failure while handling a
message (an engine bug on a strange action, a reply that cannot be encoded, a view that
cannot be built) answers that client ``server/internal``, is logged once, and the match plays
on for every other seat, their sockets untouched (``answer_failure``).

The engine's state may be half-changed by a failed ``apply``, so it is not trusted: the
session restores the match in place from its action log (``restore``, with the hub's
``rebuild``) before it handles anything else. Why the log and not a snapshot taken before
each apply: a snapshot (``engine.to_json``) would cost every move; the log is what a restart
replays anyway, and it holds every acknowledged action (an action is acknowledged only once
logged, and a session handles nothing while a commit is in flight), so nothing acknowledged
is lost. Connections, the match clock, turn clocks, presence and the replies to each client's
last ``client_seq`` are kept; the state, history, bots and grab races are the log's (a grab
held in a race when the failure came is dropped, never having been acknowledged). Only a
failure of the log itself (a row that cannot be written, a log that cannot be read or that
does not reach the session's version) still ends the session: the hub rebuilds it from the
log and its clients reconnect.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from app.sessions import wire
from app.sessions.commands import Detach, FromPeer, Submit
from app.sessions.rebuilt import Rebuilt

log = logging.getLogger("app.sessions.session")

INTERNAL = "server/internal"


class Restorable(Protocol):
    """What of a ``GameSession`` a restore reads (a protocol, so this module does not import
    the session's)."""

    match_id: int
    version: int

    @property
    def rebuild(self) -> Callable[[int], Awaitable[Rebuilt]] | None: ...


def answer_failure(session: Restorable, command: FromPeer, *, restoring: bool) -> None:
    """Handling ``command`` raised (called from its ``except``): log it once, with its
    traceback, and tell its sender ``server/internal``."""
    log.exception(
        "match %s: handling %s from seat %s failed%s",
        session.match_id,
        type(command).__name__,
        command.peer.seat,
        "; restoring the match from its log" if restoring else "",
    )
    if isinstance(command, Detach):
        return
    seq = command.client_seq if isinstance(command, Submit) else None
    reply = wire.error(INTERNAL, "the server failed on this message", seq)
    try:
        command.peer.send_text(wire.dumps(reply))
    except Exception:
        log.exception("match %s: could not answer a failed message", session.match_id)


async def rebuilt(session: Restorable) -> Rebuilt:
    """The match rebuilt from its action log, checked to be at the session's version, for the
    session to take its state from. Raises when it cannot be (no rebuild, the log unreadable,
    or not at the session's version): the session then ends and the hub rebuilds the match,
    as after a failed log write."""
    if session.rebuild is None:
        raise RuntimeError(f"match {session.match_id}: its state failed and has no rebuild")
    fresh = await session.rebuild(session.match_id)
    if fresh.version != session.version:
        raise RuntimeError(
            f"match {session.match_id}: the log is at version {fresh.version}, "
            f"the session at {session.version}"
        )
    log.warning("match %s: restored from its log at version %s", session.match_id, fresh.version)
    return fresh
