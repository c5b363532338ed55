"""What a match's session and its collaborators may do with a connection (``MatchPeer``).

Every connection attached to a session implements ``MatchPeer``: the websocket peer
(``app/realtime/peer.py``), the server's own seat that resigns for a withdrawal or a ban
(``wire.ServerSeat``), and the test and benchmark connections. The session never asks a
connection what it can do: a listener that measures no link says so with ``meter`` and
``sends`` at None, and its ``send_numbered`` and ``race_pings`` are plain (``Unmeasured``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Protocol

from app.races.links import LinkStats


class LinkReading(Protocol):
    """A connection's link measurement as the race desk reads it (``LinkMeter``)."""

    def stats(self) -> LinkStats: ...


class SendTimes(Protocol):
    """When each numbered broadcast left for a connection (``SendLog``)."""

    def at(self, version: int | None) -> float | None: ...


class MatchPeer(Protocol):
    """A connection attached to a match: its seat (None: spectator), its account (None: a
    guest), non-blocking sends, and what the grab races read of its link."""

    @property
    def seat(self) -> int | None:
        """The seat it plays; None: a spectator."""

    @property
    def account_id(self) -> int | None:
        """The account signed in on it; None: a guest."""

    @property
    def meter(self) -> LinkReading | None:
        """Its link measurement (``rtt_min``, jitter); None: the link is not measured."""

    @property
    def sends(self) -> SendTimes | None:
        """When each numbered broadcast left (a grab's ``S_ref``); None: not recorded."""

    def send_text(self, text: str) -> None:
        """Queue a message; never waits on the network."""

    def send_numbered(self, text: str, version: int) -> None:
        """Queue the broadcast of ``version`` (its leaving time goes to ``sends``)."""

    def race_pings(self, on: bool) -> None:
        """Ping every 250 ms while ``on`` (a grab race is possible), at the idle cadence
        otherwise."""

    def close(self, code: int = 1000) -> None:
        """Close the connection with ``code``, after what is already queued."""


class Unmeasured(ABC):
    """The plain half of ``MatchPeer`` for a listener whose link is not measured (a server
    seat, a test's or a benchmark's connection): numbered broadcasts are plain sends and race
    pings are nothing. A subclass sets ``seat`` and ``account_id`` and gives ``send_text``
    and ``close``."""

    seat: int | None
    account_id: int | None
    meter: LinkReading | None = None
    sends: SendTimes | None = None

    @abstractmethod
    def send_text(self, text: str) -> None: ...

    @abstractmethod
    def close(self, code: int = 1000) -> None: ...

    def send_numbered(self, text: str, version: int) -> None:
        self.send_text(text)

    def race_pings(self, on: bool) -> None:
        return None
