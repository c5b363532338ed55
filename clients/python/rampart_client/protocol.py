"""The match socket's protocol without I/O: messages in, events and messages out.

``MatchProtocol`` holds what one connection to ``/ws/matches/{id}`` knows (the seat, the whole
view, the legal actions, the clocks) and what it owes the server (actions not yet answered).
Feed it every message the server sends (``receive``) and send whatever it asks you to (the
``outbox``): pongs, resyncs, and the actions it resends after a reconnect or a ``retry``
refusal. The asyncio transport in ``rampart_client.match`` drives it; a load generator or a
test can drive it with any other socket.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from rampart_client.views import HeldView, LegalAction, View

# A refusal without a ``retry_after_ms`` that says ``retry``: send it again after this long.
DEFAULT_RETRY_MS = 500


@dataclass
class Event:
    """Something a reader of the match may care about.

    ``kind`` is one of: ``welcome`` (connected: a whole view), ``state`` (a new version),
    ``history`` (a version missed while away, from a resumed welcome's ``missed``: its
    ``version``, ``at_ms`` and ``events``),
    ``ack`` (an action was played at ``version``), ``refused`` (an action or message was
    refused and will not be sent again: ``code``, ``message``, ``client_seq``),
    ``grab_result``, ``chat``, ``clock``, ``presence``, ``ended`` (the match is over: its
    ``outcome``, ``rated`` and ``ledger``), or any other message type the server sends, as
    received."""

    kind: str
    message: dict[str, Any]

    @property
    def code(self) -> str | None:
        value = self.message.get("code")
        return value if isinstance(value, str) else None


@dataclass
class Pending:
    """An action sent and not yet answered: resent as it was (same ``client_seq``: the
    server answers a repeat without playing it twice) after a reconnect, or, refused with
    ``retry``, sent again after ``not_before`` (monotonic seconds) under a new one."""

    message: dict[str, Any]
    not_before: float = 0.0
    renumber: bool = False  # refused and not played: goes again under a new client_seq


@dataclass
class MatchProtocol:
    """One connection's side of the match protocol (see the module docstring)."""

    token: str | None = None
    seat_wanted: int | None = None  # hot seat: which of your seats this connection plays
    held: HeldView = field(default_factory=HeldView)
    seat: int | None = None
    seats: list[int] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    status: str = "connecting"
    outcome: dict[str, Any] | None = None
    ended: dict[str, Any] | None = None  # the ``ended`` message: outcome, ledger, rated
    deadlines: dict[int, int] = field(default_factory=dict)  # seat -> match ms of its deadline
    pending: dict[int, Pending] = field(default_factory=dict)
    outbox: list[dict[str, Any]] = field(default_factory=list)
    _seq: int = 0
    _anchor: tuple[int, float, float] = (0, 0.0, 1.0)  # (match ms, monotonic s, clock rate)
    _drawn: tuple[int, float] = (0, 0.0)  # (version held, monotonic s it arrived)
    _resyncing: bool = False

    # ----- what to send ----------------------------------------------------------------

    def hello(self) -> dict[str, Any]:
        """The first message on every (re)connection: resumes from the version held."""
        self.status = "connecting"
        message: dict[str, Any] = {"type": "hello", "token": self.token}
        if self.held.version is not None:
            message["last_version"] = self.held.version
        if self.seat_wanted is not None:
            message["seat"] = self.seat_wanted
        return message

    def next_seq(self) -> int:
        """A ``client_seq`` newer than any this seat used: the server refuses an older one, so
        a new process (or device) starts from the wall clock in ms."""
        self._seq = max(self._seq + 1, int(time.time() * 1000))
        return self._seq

    def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """The message for an engine action (a grab goes as a ``grab`` message); it stays
        pending until answered."""
        if action.get("type") == "grab" and "cell" in action:
            return self.grab(action["cell"])
        message: dict[str, Any] = {
            "type": "action",
            "client_seq": self.next_seq(),
            "action": action,
        }
        if self.seat_wanted is not None:
            message["seat"] = self.seat_wanted
        self.pending[message["client_seq"]] = Pending(message)
        return message

    def grab(self, cell: Any) -> dict[str, Any]:
        """A grab in an Ambush! race: ``ref`` is the version this connection holds and ``dt``
        the milliseconds since it arrived, so the server can judge the grab by when you saw
        the state, not by when the grab arrived."""
        version, arrived = self._drawn
        message: dict[str, Any] = {
            "type": "grab",
            "client_seq": self.next_seq(),
            "cell": cell,
            "ref": version,
            "dt": round((time.monotonic() - arrived) * 1000, 1),
        }
        if self.seat_wanted is not None:
            message["seat"] = self.seat_wanted
        self.pending[message["client_seq"]] = Pending(message)
        return message

    def due_resends(self, now: float | None = None) -> list[dict[str, Any]]:
        """Pending actions whose retry time has come (all of them right after a welcome)."""
        now = time.monotonic() if now is None else now
        due = []
        for seq, pending in list(self.pending.items()):
            if pending.not_before > now:
                continue
            pending.not_before = float("inf")  # until answered or connected again
            if pending.renumber:
                del self.pending[seq]
                pending.renumber = False
                pending.message = {**pending.message, "client_seq": self.next_seq()}
                self.pending[pending.message["client_seq"]] = pending
            due.append(pending.message)
        return due

    def next_resend_at(self) -> float | None:
        """When the earliest waiting retry falls due (monotonic s), or None."""
        waits = [p.not_before for p in self.pending.values() if p.not_before != float("inf")]
        return min(waits, default=None)

    # ----- what the server says --------------------------------------------------------

    def receive(self, message: dict[str, Any]) -> list[Event]:
        """Take one server message; returns the events it makes (and may fill ``outbox``)."""
        kind = message.get("type")
        if kind == "ping":
            self.outbox.append({"type": "pong", "nonce": message.get("nonce")})
            return []
        if kind == "welcome":
            return self._welcome(message)
        if kind == "patch":
            return self._patch(message)
        if kind == "ack":
            self.pending.pop(message.get("client_seq", -1), None)
            return [Event("ack", message)]
        if kind == "grab_result":
            self.pending.pop(message.get("client_seq", -1), None)
            return [Event("grab_result", message)]
        if kind == "error":
            return self._error(message)
        if kind == "ended":
            return self._ended(message)
        if kind == "clock":
            self.deadlines = {int(k): v for k, v in (message.get("deadlines") or {}).items()}
            self._anchor = (int(message.get("now_ms", 0)), time.monotonic(), self._anchor[2])
            return [Event("clock", message)]
        return [Event(str(kind), message)]

    def _welcome(self, message: dict[str, Any]) -> list[Event]:
        self.held = HeldView()  # a welcome always carries the whole view
        self.held.read(message)
        self._resyncing = False
        self.seat = message.get("seat")
        self.seats = list(message.get("seats") or [])
        self.names = list(message.get("names") or [])
        self.status = str(message.get("status", "running"))
        self._anchor = (
            int(message.get("at_ms", 0)),
            time.monotonic(),
            message.get("clock_rate", 1.0),
        )
        self._drawn = (self.held.version or 0, time.monotonic())
        for pending in self.pending.values():
            pending.not_before = 0.0  # everything unanswered goes again on this connection
        missed = [Event("history", {"type": "history", **m}) for m in message.get("missed") or []]
        return [Event("welcome", message), *missed]

    def _patch(self, message: dict[str, Any]) -> list[Event]:
        verdict = self.held.read(message)
        if verdict == "history":
            return [Event("history", message)]
        if verdict == "resync":
            if not self._resyncing:
                self._resyncing = True
                self.outbox.append({"type": "resync", "last_version": self.held.version})
            return []
        self._anchor = (int(message.get("at_ms", 0)), time.monotonic(), self._anchor[2])
        self._drawn = (message["version"], time.monotonic())
        return [Event("state", message)]

    def _error(self, message: dict[str, Any]) -> list[Event]:
        seq = message.get("client_seq")
        pending = self.pending.get(seq) if isinstance(seq, int) else None
        if pending is None or not isinstance(seq, int):
            return [Event("refused", message)]
        if message.get("retry"):
            wait_ms = message.get("retry_after_ms", DEFAULT_RETRY_MS)
            pending.not_before = time.monotonic() + float(wait_ms) / 1000
            pending.renumber = True
            return [Event("retrying", message)]
        del self.pending[seq]
        return [Event("refused", message)]

    def _ended(self, message: dict[str, Any]) -> list[Event]:
        """The match is over: its outcome, and the ledger changes when rated."""
        self.ended = message
        self.outcome = message.get("outcome")
        self.status = "finished"
        return [Event("ended", message)]

    # ----- what a reader asks ----------------------------------------------------------

    @property
    def view(self) -> View | None:
        return self.held.view

    @property
    def legal(self) -> list[LegalAction]:
        return self.held.legal

    @property
    def version(self) -> int | None:
        return self.held.version

    def now_ms(self) -> int:
        """The match clock now (ms since the match started), from the last message's time."""
        at_ms, at, rate = self._anchor
        return at_ms + int((time.monotonic() - at) * 1000 * rate)

    def time_left_ms(self, seat: int) -> int | None:
        """How long ``seat`` has before its turn deadline, or None when it has none."""
        deadline = self.deadlines.get(seat)
        return None if deadline is None else max(0, deadline - self.now_ms())

    @property
    def my_turn(self) -> bool:
        """Whether this connection's seat may act now (it has legal actions)."""
        return self.seat is not None and bool(self.held.legal) and self.outcome is None
