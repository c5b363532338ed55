"""Practice scenarios: a stacked deal per game and the guided steps, each with its hint.

A scenario is data the server owns: the options of the match (a stacked deck, gentle
timings) and the steps the client walks the newcomer through. The client decides which step
is current from what its own seat is sent (events and view), so a hint can never show more
than the seat may know; the server decides the deal, so the hints and the cards they talk
about are written, reviewed and tested together (tests/app/practice/test_practice.py plays every
script through its engine).

A step's ``done`` says what completes it:
  {"event": TYPES, "by": WHO}    an event of that type (or one of a list of types); ``by``
                                 "me" (its ``seat`` is this seat's or, for an event without a
                                 seat, it arrives while this seat has the turn), "other" (the
                                 opposite), absent (anyone);
  {"next": true}                 the player presses "Next" (a step that explains);
  {}                             the last step: it stays.
``act`` names the action types the step asks for: its ``hint`` shows while one of them is
legal for the seat. While none is, the coach says what is legal instead (the scenario's
``moves``: one short line per action type, e.g. a newcomer who passed where the script asked
for a play is told to expose first next turn), or the step's ``wait`` while the seat has
nothing to do. ``needs`` is a condition on what the seat knows: "owe" (it owes cards at the
hand limit) or "two_ambushes" (it saw two Ambush! cards go down that are still there); while
it does not hold, the ``otherwise`` text shows instead, with a Next button when ``skip``.
Hints may name facts in braces, filled in by the client: {limit} {owed} {hand} {check}
{known} (the Ambush! cards the seat saw go down and still there).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Step:
    id: str
    hint: str
    done: dict[str, Any]
    act: tuple[str, ...] = ()
    wait: str = ""
    needs: str | None = None
    otherwise: str = ""
    skip: bool = False

    def done_by(self, event_type: str) -> bool:
        """Whether an event of this type (by the right seat) completes the step."""
        wanted = self.done.get("event")
        return event_type == wanted or (isinstance(wanted, list) and event_type in wanted)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "hint": self.hint, "done": self.done}
        data["act"] = list(self.act)
        data["wait"] = self.wait
        if self.needs is not None:
            data["needs"] = self.needs
            data["otherwise"] = self.otherwise
            data["skip"] = self.skip
        return data


@dataclass(frozen=True)
class Scenario:
    """One game's practice: ``seats`` (the player in seat 0, bots after), engine options built
    per match by ``options(seed)`` (the stacked deal), the steps, and the bot's seat name."""

    game: str
    title: str
    intro: str
    seats: int
    build: Callable[[random.Random], dict[str, Any]]
    steps: tuple[Step, ...]
    moves: dict[str, str] = field(default_factory=dict)
    bot_name: str = "Practice bot"
    castle: str = "Sparring Keep"

    def options(self, seed: int, names: list[str]) -> dict[str, Any]:
        """The engine options of one practice match (stacked deck, first seat 0, names)."""
        options = self.build(random.Random(seed))
        options["first_seat"] = 0
        options["names"] = names
        return options

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "intro": self.intro,
            "seats": self.seats,
            "moves": self.moves,
            "steps": [step.to_json() for step in self.steps],
        }


def stacked(top: Sequence[str], full: Sequence[str], rng: random.Random) -> list[str]:
    """``top`` first, then the rest of ``full`` (less one copy of each card in ``top``),
    shuffled. Raises ``ValueError`` when ``top`` names a card ``full`` does not hold."""
    owed = Counter(top)
    below = []
    for card in full:
        if owed[card] > 0:
            owed[card] -= 1
        else:
            below.append(card)
    if any(count > 0 for count in owed.values()):
        raise ValueError("the stacked top names cards the deck does not hold")
    rng.shuffle(below)
    return list(top) + below
