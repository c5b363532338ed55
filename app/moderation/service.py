"""The admin's actions on live things: ban (tokens refused, seats resigned, sockets closed),
mute, void a rated match, abort a stuck one; each audited.

Every change is written first, then this process's ``ModerationState`` is reloaded and the
other processes are told on the cluster bus (``moderation``: reload, and for a ban resign the
account's seats in the matches *they* serve; ``abort``: to the process serving the match).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy.orm import Session

from app.cluster.locks import Locks
from app.db.models import Account, utcnow
from app.errors import AppError, NotFound
from app.lobby.feed import LobbyFeed
from app.moderation import audit
from app.moderation.state import ModerationState
from app.moderation.voiding import tournament_of, void_match
from app.sessions import wire
from app.sessions.commands import Submit
from app.sessions.hub import Hub, OwnedElsewhere
from app.tournaments.background import BackgroundTasks
from app.tournaments.writes import Writer

log = logging.getLogger(__name__)

# Higher than any client's sequence number, so the server's resign is never "stale".
SERVER_SEQ = 1 << 62
# An indefinite mute lasts until this instant.
FOREVER = datetime(9999, 12, 31, tzinfo=UTC)
BANNED_CLOSE = 1008  # policy violation


def target(session: Session, account_id: int) -> Account:
    account = session.get(Account, account_id)
    if account is None:
        raise NotFound("player/not_found", f"no player {account_id}")
    return account


def set_ban(session: Session, admin: Account, account_id: int, banned: bool, reason: str) -> None:
    account = target(session, account_id)
    if banned and account.is_admin:
        raise AppError("admin/target_admin", "revoke the account's admin role first", status=409)
    account.banned = banned
    action: audit.AuditAction = "ban" if banned else "unban"
    audit.record(session, admin, action, reason=reason, account_id=account_id)


def set_mute(
    session: Session, admin: Account, account_id: int, minutes: int | None, reason: str
) -> datetime | None:
    account = target(session, account_id)
    until = (
        None
        if minutes == 0
        else FOREVER
        if minutes is None
        else utcnow() + timedelta(minutes=minutes)
    )
    account.muted_until = until
    detail = {"until": until.isoformat() if until else None}
    action: audit.AuditAction = "unmute" if until is None else "mute"
    audit.record(session, admin, action, reason=reason, account_id=account_id, detail=detail)
    return until


class ModerationService:
    def __init__(
        self, hub: Hub, writer: Writer, locks: Locks | None = None, feed: LobbyFeed | None = None
    ) -> None:
        self.hub = hub
        self.writer = writer
        self.locks = locks or Locks()
        # This process's lobby sockets: a banned player's are told and closed too.
        self.feed = feed or LobbyFeed()
        self.state = ModerationState()
        # Set in a cluster (``connect``): sends a notice on the bus.
        self.send: Callable[..., None] | None = None
        self._tasks = BackgroundTasks()

    async def load(self) -> None:
        await self.writer.run(self.state.load)

    def connect(
        self, on: Callable[[str, Callable[[dict[str, Any]], None]], None], send: Callable[..., None]
    ) -> None:
        """Join the cluster bus: ``on(kind, handler)`` and ``send(kind, body, to=None)``."""
        self.send = send
        on("moderation", self._on_notice)
        on("moderation.abort", self._on_abort)

    # ----- bans and mutes ----------------------------------------------------------------

    async def ban(self, admin: Account, account_id: int, reason: str) -> list[int]:
        """Ban: tokens refused from now on, seats in live matches resigned, sockets closed.
        Returns the matches of this process where a seat was resigned."""
        await self.writer.run(
            partial(set_ban, admin=admin, account_id=account_id, banned=True, reason=reason)
        )
        return await self._changed({"ban": account_id})

    async def unban(self, admin: Account, account_id: int, reason: str) -> None:
        await self.writer.run(
            partial(set_ban, admin=admin, account_id=account_id, banned=False, reason=reason)
        )
        await self._changed({})

    async def mute(
        self, admin: Account, account_id: int, minutes: int | None, reason: str
    ) -> datetime | None:
        """Mute for ``minutes`` (None: until unmuted; 0: unmute); returns the end."""
        work = partial(set_mute, admin=admin, account_id=account_id, minutes=minutes, reason=reason)
        until = await self.writer.run(work)
        await self._changed({})
        return until

    async def _changed(self, body: dict[str, Any]) -> list[int]:
        await self.load()
        if self.send is not None:
            self.send("moderation", body)
        banned = body.get("ban")
        if not isinstance(banned, int):
            return []
        await self.hub.wake_seating(banned)  # a sleeping match resigns the seat too
        return self.remove_banned(banned)

    def _on_notice(self, body: dict[str, Any]) -> None:
        self._tasks.start(self._reload_then(body.get("ban")))

    async def _reload_then(self, banned: int | None) -> None:
        await self.load()
        if banned is not None:
            self.remove_banned(banned)

    def remove_banned(self, account_id: int) -> list[int]:
        """Forfeit the account's seats in the live matches of this process (a server-side
        resign, as a tournament withdrawal's, with the seat marked ``banned`` in the match's
        forfeits) and close its match and lobby sockets (``auth/banned``); returns the matches
        it had seats in.

        The resign is logged as the player's own, so a match rebuilt from its log before it
        ends (a restart in between) settles that seat as a resignation."""
        text = wire.dumps(wire.error("auth/banned", "this account is banned"))
        self.feed.drop(account_id, text, BANNED_CLOSE)
        resigned = []
        for session in list(self.hub.sessions.values()):
            for peer in [p for p in session.peers if p.account_id == account_id]:
                peer.send_text(text)
                peer.close(BANNED_CLOSE)
            if session.finished:
                continue
            seats = session.seats_of(account_id)
            for seat in seats:
                # A forfeit, not a plain resignation: the ledger settles it as one (100 minus
                # the winner's damage), whatever the banned player's damage was.
                session.forfeits.setdefault(str(seat), "banned")
                resign = {"type": "resign"}
                session.submit(Submit(wire.ServerSeat(account_id, seat), seat, SERVER_SEQ, resign))
            if seats:
                resigned.append(session.match_id)
        if resigned:
            log.info("banned account %s resigned in matches %s", account_id, resigned)
        return resigned

    # ----- matches -----------------------------------------------------------------------

    async def void(self, admin: Account, match_id: int, reason: str) -> dict[str, Any]:
        """Void a finished rated match (``voiding.void_match``), holding the ladders' lock
        (ratings are applied in order) and the tournament's if it belongs to one."""
        tid = await self.writer.run(partial(tournament_of, match_id=match_id))
        work = partial(void_match, admin=admin, match_id=match_id, reason=reason)
        async with self.locks.hold("ladders"):
            if tid is None:
                return await self.writer.run(work)
            async with self.locks.hold(f"tournament:{tid}"):
                return await self.writer.run(work)

    async def abort(self, admin: Account, match_id: int, reason: str) -> str:
        """Abort a live match, here or in the process serving it; audited. Returns
        ``aborted`` or ``forwarded``."""
        if await self.writer.run(partial(tournament_of, match_id=match_id)) is not None:
            raise AppError(
                "match/in_tournament",
                "a tournament match is not aborted (its round would never end); "
                "withdraw the player or ban the account instead",
                status=409,
            )
        try:
            await self.hub.abort(match_id, "match/aborted", abort_message(reason))
            outcome = "aborted"
        except OwnedElsewhere as moved:
            if self.send is None:
                raise
            self.send("moderation.abort", {"match_id": match_id, "reason": reason}, moved.node_id)
            outcome = "forwarded"
        work = partial(
            audit.record,
            admin=admin,
            action="abort",
            reason=reason,
            match_id=match_id,
            detail={"outcome": outcome},
        )
        await self.writer.run(work)
        return outcome

    def _on_abort(self, body: dict[str, Any]) -> None:
        self._tasks.start(self._abort_here(int(body["match_id"]), str(body["reason"])))

    async def _abort_here(self, match_id: int, reason: str) -> None:
        """Another process's admin aborted a match this process serves."""
        try:
            await self.hub.abort(match_id, "match/aborted", abort_message(reason))
        except Exception:
            log.exception("could not abort match %s for another process", match_id)

    async def stop(self) -> None:
        await self._tasks.cancel_all()


def abort_message(reason: str) -> str:
    return f"an admin aborted this match: {reason}" if reason else "an admin aborted this match"
