"""Lobby rules: create, join, leave, castle names, the name vote, bots, and starting a match."""

from __future__ import annotations

import contextlib
import secrets
import time
from collections import Counter
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.names import castle_name
from app.cluster.locks import Locks
from app.db.models import Account, Lobby
from app.db.repositories import LobbyRepository, MatchRepository, SeatSpec
from app.errors import AppError, Conflict, Forbidden, NotFound
from app.games import playable
from app.lobby.feed import LobbyFeed
from app.sessions.bots import BOT_KINDS, BOT_LEVELS, bot_spec, has_bots
from app.sessions.hub import Hub, OwnedElsewhere
from app.sessions.timecontrol import realtime_only_refusal
from engines import registry
from engines.base import ActionError, Rng

# Games whose rulebook lets the best castle name start (Ambush!); other tables may opt in
# with the option ``name_vote``.
NAME_VOTE_GAMES = frozenset({"ambush"})
BOT_CASTLES = ("Crag Keep", "Thornwall", "Mistmoor", "Ravenhold", "Stonebridge", "Gloomspire")
# Options the server consumes itself and never passes to the engine.
SERVER_OPTIONS = frozenset({"name_vote"})
# Options that decide who is dealt what, or who sits where and moves first (the engines'
# ``setup``: Castles ``deck``/``decks``/``first_seat``, Castle Rampage ``deck``/``first_seat``,
# Ambush! ``deck``/``first_seat``, Ember ``decks``/``first_seat``/``heroes``).
DEAL_OPTIONS = ("deck", "decks", "first_seat", "heroes")
# ``heroes: "random"`` is a seeded draw like the default choice in turn order: fair.
FAIR_VALUES = {"heroes": ("random",)}


def rated_refusal(options: dict[str, Any], area: str) -> AppError | None:
    """The refusal (``<area>/rated_options``, 422) of a rated table or tournament whose
    ``options`` stack the deal or the seating, else None.

    Refusal, not disclosure: a rated result moves ladders and is compared with every other
    rated result of the game, so each rated match must start from the same kind of deal, a
    shuffle nobody chose and a seating nobody picked. A stacked deck or a chosen first seat
    stays unfair however plainly it is shown (the joiner can only decline the table, and the
    ladder would still count the games of those who did not look), so such options belong to
    casual tables, where they serve practice and puzzles."""
    stacked = sorted(
        name
        for name in DEAL_OPTIONS
        if name in options and options[name] not in FAIR_VALUES.get(name, ())
    )
    if not stacked:
        return None
    text = f"a rated table deals and seats at random: remove {', '.join(stacked)}"
    return AppError(f"{area}/rated_options", text, status=422)


# Why a rated table seats no server bot: its host picks them (kind, level, how many, at any
# hour), so points against them would come from opponents chosen to be beaten. Bot accounts
# may sit (people see them labelled as bots before they sit down); server bots play rated only
# in tournaments, whose field the organiser fixes before the start and the server pairs.
RATED_BOTS = "a rated table seats no server bot: make the table casual to play against bots"


def empty_seat(seat: int) -> dict[str, Any]:
    return {
        "seat": seat,
        "account_id": None,
        "name": None,
        "bot": None,
        "bot_account": False,
        "castle": None,
        "vote": None,
    }


def is_free(member: dict[str, Any]) -> bool:
    return member["account_id"] is None and member["bot"] is None


def seat_bot(member: dict[str, Any]) -> str | None:
    """The match seat's bot (``app.sessions.bots.bot_spec``: kind and difficulty), or None."""
    if member["bot"] is None:
        return None
    return bot_spec(member["bot"], member.get("difficulty") or "normal")


def lobby_json(lobby: Lobby) -> dict[str, Any]:
    """The lobby as clients see it (the invite code is removed for non-members by callers)."""
    return {
        "id": lobby.id,
        "game": lobby.game,
        "seats": lobby.seat_count,
        "options": lobby.options,
        "public": lobby.public,
        "invite_code": lobby.invite_code,
        "rated": lobby.rated,
        "hot_seat": lobby.hot_seat,
        "time_control": lobby.time_control,
        "status": lobby.status,
        "host_id": lobby.host_id,
        "members": lobby.members,
        "match_id": lobby.match_id,
        "revision": lobby.revision,
    }


def member_ids(lobby: Lobby) -> set[int]:
    return {m["account_id"] for m in lobby.members if m["account_id"] is not None}


def engine_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in options.items() if k not in SERVER_OPTIONS}


@dataclass
class VoteResult:
    first_seat: int
    votes: dict[int, int]
    tally: dict[int, int]


def run_name_vote(members: list[dict[str, Any]], seed: int) -> VoteResult:
    """Each player votes for another seat's castle name; bots vote at random, players who did
    not vote abstain; most votes starts, a tie (or no votes at all) goes to a seeded draw."""
    rng = Rng(seed ^ 0x5EED_FACE)
    seats = [m["seat"] for m in members]
    votes: dict[int, int] = {}
    for member in members:
        others = [s for s in seats if s != member["seat"]]
        if member["bot"] is not None and others:
            votes[member["seat"]] = rng.choice(others)
        elif member["vote"] is not None:
            votes[member["seat"]] = member["vote"]
    tally = Counter(votes.values())
    best = max(tally.values(), default=0)
    leaders = sorted(s for s in seats if tally.get(s, 0) == best)
    first = leaders[0] if len(leaders) == 1 else leaders[rng.randbelow(len(leaders))]
    return VoteResult(first, votes, {s: tally.get(s, 0) for s in seats})


class LobbyService:
    """Every lobby change goes through here; one lock per lobby orders concurrent requests,
    across every process of a cluster (``app.cluster.locks``)."""

    def __init__(self, hub: Hub, feed: LobbyFeed, locks: Locks | None = None) -> None:
        self.hub = hub
        self.feed = feed
        self.locks = locks or Locks()

    def lock(self, lobby_id: int) -> AbstractAsyncContextManager[None]:
        return self.locks.hold(f"lobby:{lobby_id}")

    def publish(self, lobby: Lobby) -> None:
        self.feed.publish(lobby_json(lobby), public=lobby.public, members=member_ids(lobby))

    async def create(
        self,
        db: AsyncSession,
        host: Account,
        *,
        game: str,
        seats: int,
        options: dict[str, Any],
        public: bool,
        rated: bool,
        hot_seat: bool,
        time_control: dict[str, Any],
    ) -> Lobby:
        """A new table with the host in seat 0. Refuses ``lobby/unknown_game``,
        ``lobby/bad_seats``, ``lobby/bad_options`` (the engine's own code in the message),
        ``lobby/rated_options`` (``rated_refusal``) and ``lobby/realtime_only`` (days per move
        for a game with grab races)."""
        engine = playable().get(game)
        if engine is None:
            raise NotFound("lobby/unknown_game", f"no game {game!r}")
        realtime_only = realtime_only_refusal(game, time_control, "lobby")
        if realtime_only is not None:
            raise realtime_only
        stacked = rated_refusal(options, "lobby") if rated else None
        if stacked is not None:
            raise stacked
        if not engine.min_seats <= seats <= engine.max_seats:
            text = f"{game} takes {engine.min_seats}-{engine.max_seats} seats"
            raise AppError("lobby/bad_seats", text, status=422)
        try:
            engine.setup(seats, 0, engine_options(game, options))
        except ActionError as refusal:
            text = f"{refusal.code}: {refusal.message}"
            raise AppError("lobby/bad_options", text, status=422) from refusal
        members = [empty_seat(seat) for seat in range(seats)]
        members[0].update(account_id=host.id, name=host.name, bot_account=host.bot)
        lobby = Lobby(
            game=game,
            seat_count=seats,
            options=options,
            public=public,
            invite_code=None if public else secrets.token_urlsafe(6),
            rated=rated,
            hot_seat=hot_seat,
            time_control=time_control,
            status="open",
            host_id=host.id,
            members=members,
        )
        await LobbyRepository(db).add(lobby)
        self.publish(lobby)
        return lobby

    async def _open_lobby(self, db: AsyncSession, lobby_id: int) -> Lobby:
        lobby = await LobbyRepository(db).get(lobby_id)
        if lobby.status != "open":
            raise Conflict("lobby/not_open", f"lobby {lobby_id} is {lobby.status}")
        return lobby

    async def join(
        self,
        db: AsyncSession,
        player: Account,
        lobby_id: int,
        *,
        invite_code: str | None,
        seat: int | None,
    ) -> Lobby:
        """Take a seat (the lowest free one unless ``seat`` is named). Refuses
        ``lobby/bad_invite``, ``lobby/already_seated`` (unless the table allows hot-seat),
        ``lobby/bad_seat``, ``lobby/seat_taken`` and ``lobby/full``."""
        async with self.lock(lobby_id):
            lobby = await self._open_lobby(db, lobby_id)
            if not lobby.public and invite_code != lobby.invite_code:
                raise Forbidden("lobby/bad_invite", "this table needs its invite code")
            if player.id in member_ids(lobby) and not lobby.hot_seat:
                raise Conflict("lobby/already_seated", "you already hold a seat here")
            members = lobby.members
            if seat is not None:
                if not 0 <= seat < lobby.seat_count:
                    raise AppError("lobby/bad_seat", f"no seat {seat}", status=422)
                if not is_free(members[seat]):
                    raise Conflict("lobby/seat_taken", f"seat {seat} is taken")
                chosen = seat
            else:
                free = [m["seat"] for m in members if is_free(m)]
                if not free:
                    raise Conflict("lobby/full", "every seat is taken")
                chosen = free[0]
            members[chosen].update(account_id=player.id, name=player.name, bot_account=player.bot)
            await LobbyRepository(db).save(lobby)
        self.publish(lobby)
        return lobby

    async def leave(self, db: AsyncSession, player: Account, lobby_id: int) -> Lobby:
        """Give up every seat the player holds; the host role passes on, and a table with no
        player left closes. Refuses ``lobby/not_seated``."""
        async with self.lock(lobby_id):
            lobby = await self._open_lobby(db, lobby_id)
            if player.id not in member_ids(lobby):
                raise Conflict("lobby/not_seated", "you hold no seat here")
            for index, member in enumerate(lobby.members):
                if member["account_id"] == player.id:
                    lobby.members[index] = empty_seat(index)
            for member in lobby.members:
                # A vote for a castle that has left the table no longer counts.
                if member["vote"] is not None and is_free(lobby.members[member["vote"]]):
                    member["vote"] = None
            humans = sorted(member_ids(lobby))
            if not humans:
                lobby.status = "closed"
            elif lobby.host_id == player.id:
                lobby.host_id = next(m["account_id"] for m in lobby.members if m["account_id"])
            await LobbyRepository(db).save(lobby)
        self.publish(lobby)
        return lobby

    def _own_seat(self, lobby: Lobby, player: Account, seat: int | None) -> dict[str, Any]:
        mine: list[dict[str, Any]] = [m for m in lobby.members if m["account_id"] == player.id]
        if not mine:
            raise Conflict("lobby/not_seated", "you hold no seat here")
        if seat is None:
            return mine[0]
        for member in mine:
            if member["seat"] == seat:
                return member
        raise Forbidden("lobby/not_your_seat", f"you do not hold seat {seat}")

    async def name_castle(
        self, db: AsyncSession, player: Account, lobby_id: int, name: str, seat: int | None
    ) -> Lobby:
        """Name your castle. Refuses ``lobby/bad_castle_name`` (422, the visible-text rules
        of ``app.accounts.names``), ``lobby/not_seated`` and ``lobby/not_your_seat``."""
        name = castle_name(name)
        async with self.lock(lobby_id):
            lobby = await self._open_lobby(db, lobby_id)
            self._own_seat(lobby, player, seat)["castle"] = name
            await LobbyRepository(db).save(lobby)
        self.publish(lobby)
        return lobby

    async def vote(
        self, db: AsyncSession, player: Account, lobby_id: int, for_seat: int, seat: int | None
    ) -> Lobby:
        """Vote for the best castle name among the others. Refuses ``lobby/self_vote`` and
        ``lobby/bad_vote`` (no such seat or nobody in it)."""
        async with self.lock(lobby_id):
            lobby = await self._open_lobby(db, lobby_id)
            voter = self._own_seat(lobby, player, seat)
            if not 0 <= for_seat < lobby.seat_count or is_free(lobby.members[for_seat]):
                raise AppError("lobby/bad_vote", f"nobody sits at seat {for_seat}", status=422)
            if lobby.members[for_seat]["account_id"] == player.id:
                raise AppError("lobby/self_vote", "vote for someone else's castle", status=422)
            voter["vote"] = for_seat
            await LobbyRepository(db).save(lobby)
        self.publish(lobby)
        return lobby

    async def add_bots(
        self,
        db: AsyncSession,
        player: Account,
        lobby_id: int,
        kind: str,
        count: int | None,
        difficulty: str = "normal",
    ) -> Lobby:
        """Fill empty seats (all, or ``count``) with the engine's bots at ``difficulty`` (kept
        with the seat, and with the match's seat once it starts). Refuses ``lobby/not_host``,
        ``lobby/bad_bot``, ``lobby/bad_difficulty``, ``lobby/no_bots`` (the game has none)
        and ``lobby/rated_bots`` (``RATED_BOTS``)."""
        if kind not in BOT_KINDS:
            raise AppError("lobby/bad_bot", f"bot kind must be one of {BOT_KINDS}", status=422)
        if difficulty not in BOT_LEVELS:
            text = f"bot difficulty must be one of {', '.join(BOT_LEVELS)}"
            raise AppError("lobby/bad_difficulty", text, status=422)
        async with self.lock(lobby_id):
            lobby = await self._open_lobby(db, lobby_id)
            if lobby.host_id != player.id:
                raise Forbidden("lobby/not_host", "only the host adds bots")
            if lobby.rated:
                raise AppError("lobby/rated_bots", RATED_BOTS, status=422)
            if not has_bots(registry.get(lobby.game)):
                raise AppError("lobby/no_bots", f"{lobby.game} has no bots", status=422)
            free = [m for m in lobby.members if is_free(m)]
            for member in free[: len(free) if count is None else count]:
                castle = BOT_CASTLES[member["seat"] % len(BOT_CASTLES)]
                name = f"{kind.title()} bot {member['seat']}"
                member.update(bot=kind, difficulty=difficulty, name=name, castle=castle)
            await LobbyRepository(db).save(lobby)
        self.publish(lobby)
        return lobby

    async def start(
        self, db: AsyncSession, player: Account, lobby_id: int
    ) -> tuple[Lobby, int, VoteResult | None]:
        """Run the name vote where it applies, create the match and start its session.
        Refuses ``lobby/not_host``, ``lobby/not_full``, ``lobby/bad_options``,
        ``lobby/rated_options`` (checked again here, whatever changed the table since) and
        ``lobby/rated_bots`` (a rated table with a server bot seated)."""
        async with self.lock(lobby_id):
            lobby = await self._open_lobby(db, lobby_id)
            if lobby.host_id != player.id:
                raise Forbidden("lobby/not_host", "only the host starts the match")
            stacked = rated_refusal(lobby.options, "lobby") if lobby.rated else None
            if stacked is not None:
                raise stacked
            if any(is_free(m) for m in lobby.members):
                raise Conflict("lobby/not_full", "fill every seat (players or bots) first")
            if lobby.rated and any(m["bot"] is not None for m in lobby.members):
                raise AppError("lobby/rated_bots", RATED_BOTS, status=422)
            match_id, vote = await self._launch(db, lobby, None)
        self.publish(lobby)
        return lobby, match_id, vote

    async def seat_table(
        self,
        db: AsyncSession,
        *,
        game: str,
        members: list[dict[str, Any]],
        rated: bool,
        time_control: dict[str, Any],
        first_seat: int,
    ) -> int:
        """Seat a full table that nobody set up by hand (quick play, a rematch) and start its
        match at once: ``members`` as ``empty_seat`` entries filled with players or bots and
        their castle names; ``first_seat`` decided by the caller (no name vote). The table is
        private: it exists only to start this match. Returns the match id."""
        host = next(m["account_id"] for m in members if m["account_id"] is not None)
        lobby = Lobby(
            game=game,
            seat_count=len(members),
            options={},
            public=False,
            invite_code=secrets.token_urlsafe(6),
            rated=rated,
            hot_seat=False,
            time_control=time_control,
            status="open",
            host_id=host,
            members=members,
        )
        # Nobody else knows this table: no lock, and its row is written with the match's.
        db.add(lobby)
        await db.flush()
        match_id, _ = await self._launch(db, lobby, first_seat)
        self.publish(lobby)
        return match_id

    async def _launch(
        self, db: AsyncSession, lobby: Lobby, first_seat: int | None
    ) -> tuple[int, VoteResult | None]:
        """Create the match of a full table and start its session (under the lobby's lock):
        the name vote decides the first seat where it applies, unless ``first_seat`` is
        given."""
        seed = secrets.randbits(62)
        options = engine_options(lobby.game, dict(lobby.options))
        names = [m["castle"] or m["name"] or f"Seat {m['seat']}" for m in lobby.members]
        options["names"] = names
        vote = None
        if first_seat is not None:
            options["first_seat"] = first_seat
        elif lobby.game in NAME_VOTE_GAMES or lobby.options.get("name_vote"):
            vote = run_name_vote(lobby.members, seed)
            options.setdefault("first_seat", vote.first_seat)
        try:
            registry.get(lobby.game).setup(lobby.seat_count, seed, options)
        except ActionError as refusal:
            text = f"{refusal.code}: {refusal.message}"
            raise AppError("lobby/bad_options", text, status=422) from refusal
        seats = [
            SeatSpec(m["account_id"], seat_bot(m), names[index])
            for index, m in enumerate(lobby.members)
        ]
        match = await MatchRepository(db).create(
            game=lobby.game,
            options=options,
            seed=seed,
            seats=seats,
            rated=lobby.rated,
            time_control=lobby.time_control,
            lobby_id=lobby.id,
            started_wall_ms=int(time.time() * 1000),
        )
        lobby.status = "started"
        lobby.match_id = match.id
        await LobbyRepository(db).save(lobby)
        with contextlib.suppress(OwnedElsewhere):  # a player's socket reached another first
            await self.hub.get(match.id)
        return match.id, vote
