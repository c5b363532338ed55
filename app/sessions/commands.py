"""Commands a GameSession takes through its inbox, and its short history for resuming."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from app.jsonenc import encode_text
from app.sessions.listener import MatchPeer
from engines.base import Event

# The answer to a change's sender once it is logged as the version given.
Answer = Callable[[int], None]


@dataclass
class SeatInfo:
    """Who sits at a seat: an account (``player``: its name; ``bot_account``: a bot account)
    or a server bot (``bot``: its stored spec, ``heuristic:hard``); ``name`` is the seat's
    castle name."""

    account_id: int | None
    bot: str | None
    name: str
    player: str | None = None
    bot_account: bool = False


@dataclass(frozen=True)
class GrabInput:
    """What the gateway measured for one ``grab``: ``ref``, ``dt`` and its arrival on the
    match clock (the arbiter's inputs: ``app/races/arbiter.py``)."""

    ref: int | None
    dt: float | None
    arrival: float


# ``Submit`` and ``Change`` are plain classes, not dataclasses: compiled (the session path
# is), a dataclass is built through its generated ``__init__``, which stays Python and costs
# several times a compiled one, and one of each is built for every move.


class Submit:
    """An action a connection sent (``client_seq``: its number for that account and seat),
    based on ``version`` if given; a ``grab`` with its ``arbitration`` record and what the
    gateway ``measured``."""

    def __init__(
        self,
        peer: MatchPeer,
        seat: int,
        client_seq: int,
        action: dict[str, Any],
        version: int | None = None,
        grab: bool = False,
        arbitration: dict[str, Any] | None = None,
        measured: GrabInput | None = None,
    ) -> None:
        self.peer = peer
        self.seat = seat
        self.client_seq = client_seq
        self.action = action
        self.version = version
        self.grab = grab
        self.arbitration = arbitration
        self.measured = measured


class Change:
    """An accepted change on its way to the action log, then to every connection."""

    def __init__(
        self,
        seat: int | None,
        action: dict[str, Any],
        at_ms: int,
        events: list[Event],
        cause: str,
        account_id: int | None = None,
        client_seq: int | None = None,
        arbitration: dict[str, Any] | None = None,
        before_broadcast: Answer | None = None,
    ) -> None:
        self.seat = seat
        self.action = action
        self.at_ms = at_ms
        self.events = events
        self.cause = cause
        self.account_id = account_id
        self.client_seq = client_seq
        self.arbitration = arbitration
        # Runs once the change is logged, before any broadcast (the mover's ack).
        self.before_broadcast = before_broadcast
        # The events as JSON, encoded once (``log_row``) for the action log's row and the
        # history.
        self.events_json = ""

    @staticmethod
    def played(command: Submit, at_ms: int, events: list[Event], answer: Answer) -> Change:
        """A player's action the engine accepted at ``at_ms``; ``answer``: its ack, once
        logged (given the version)."""
        # Not a classmethod: compiled, ``Change(...)`` is a direct call to the constructor,
        # where ``cls(...)`` with keywords is a generic call at many times its cost.
        return Change(
            command.seat,
            command.action,
            at_ms,
            events,
            "player",
            account_id=command.peer.account_id,
            client_seq=command.client_seq,
            arbitration=command.arbitration,
            before_broadcast=answer,
        )

    def log_row(
        self, match_id: int, version: int, arbitration: dict[str, Any] | None
    ) -> dict[str, Any]:
        """The change as the ``match_actions`` row of ``version`` (``ActionLogWriter``). Its
        events are encoded here, once (``events_json``): the row is written with that text and
        the history keeps it. Connections get their seat's filter of the events, which drops
        ``visible_to``, so their JSON is not this text and is encoded apart."""
        self.events_json = encode_text(self.events)
        return {
            "match_id": match_id,
            "version": version,
            "seat": self.seat,
            "account_id": self.account_id,
            "client_seq": self.client_seq,
            "action": self.action,
            "at_ms": self.at_ms,
            "cause": self.cause,
            "events": self.events,
            "events_json": self.events_json,
            "arbitration": arbitration,
        }


@dataclass
class Attach:
    peer: MatchPeer
    last_version: int | None


@dataclass
class Detach:
    peer: MatchPeer


@dataclass
class Chat:
    peer: MatchPeer
    text: str


@dataclass
class Told:
    """The player ``account_id`` has been told where this table is (a tournament's call to
    his table, delivered to one of his pages): his abandonment grace starts now."""

    account_id: int


# What a socket sends a session (a failure answers that socket), and everything it takes.
FromPeer = Submit | Attach | Detach | Chat
Command = FromPeer | Told


@dataclass
class History:
    """The last versions' full events, for resuming clients without a database read.

    Events are kept serialised: a string of JSON per version instead of a tree of dicts keeps
    hundreds of live matches' histories out of the cyclic garbage collector's scans, whose
    pauses would otherwise land on every client's latency. A live match keeps the text its
    action log row was written with (``Change.log_row``), not an encoding of its own.
    """

    limit: int
    entries: deque[tuple[int, str, int]] = field(default_factory=deque)

    def append(self, version: int, events: list[Event], at_ms: int) -> None:
        self.append_json(version, encode_text(events), at_ms)

    def append_json(self, version: int, events_json: str, at_ms: int) -> None:
        """``append`` of events already encoded (``encode_text``: compact, its own size)."""
        self.entries.append((version, events_json, at_ms))
        while len(self.entries) > self.limit:
            self.entries.popleft()

    @property
    def last_at_ms(self) -> int:
        return self.entries[-1][2] if self.entries else 0

    def since(self, version: int) -> list[tuple[int, list[Event], int]] | None:
        """Entries after ``version``, or None when some of them are no longer kept."""
        missed = [entry for entry in self.entries if entry[0] > version]
        first_kept = self.entries[0][0] if self.entries else None
        if missed and missed[0][0] != version + 1:
            return None
        if not missed and first_kept is not None and version + 1 < first_kept:
            return None
        return [(v, orjson.loads(events), at_ms) for v, events, at_ms in missed]
