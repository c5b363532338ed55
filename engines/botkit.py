"""What every engine's bots share: a seat, a seeded ``Rng``, a difficulty level with human-like
reaction times, and the actions worth weighing."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from engines.base import Rng

Action = dict[str, Any]

LEVEL_NAMES = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


@dataclass(frozen=True)
class Reaction:
    """A human reaction time: log-normal around ``median_ms`` (``median * exp(sigma * z)``,
    ``z`` a standard normal), kept within ``floor_ms..cap_ms``. Reaction times of people are
    skewed this way: a hard floor, most near the median, a long tail of slow ones."""

    median_ms: int
    sigma: float
    floor_ms: int
    cap_ms: int

    def draw(self, rng: Rng) -> int:
        """One delay in ms from the bot's own ``rng`` (two draws: Box-Muller)."""
        u1 = 1.0 - rng.random()  # in (0, 1]: the log stays finite
        u2 = rng.random()
        z = math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)
        delay = round(self.median_ms * math.exp(self.sigma * z))
        return min(max(delay, self.floor_ms), self.cap_ms)


@dataclass(frozen=True)
class Level:
    """How well and how fast a bot plays.

    ``first_grab``: from a call to the bot's first grab; ``next_grab``: from one of its grabs
    to the next; ``reaim``: from its target going to a new aim; ``call``: from seeing a call
    is true to calling. ``think_scale`` stretches a turn's think time; ``slip`` is the chance a
    decision is a random legal one instead of the best; ``noise`` how much chance weighs in a
    bot's choice of target (each engine's scores are on its own scale)."""

    name: str
    first_grab: Reaction
    next_grab: Reaction
    reaim: Reaction
    call: Reaction
    think_scale: float
    slip: float
    noise: float


# Hard is never faster than 250 ms for anything (the grab cooldown of Ambush! is 250 ms too);
# every level's first grab has a median of 400 ms or more, and its later grabs 300 ms or more.
# The race timings are set against a person who grabs 650 ms after the call, then every
# 450 ms: against normal bots such a seat gets about its fair share of the cards grabbed,
# more against easy ones, less against hard ones (bench/race_share.py, at 2, 3 and 4 seats).
LEVELS: dict[str, Level] = {
    "easy": Level(
        "easy",
        first_grab=Reaction(780, 0.30, 450, 2500),
        next_grab=Reaction(580, 0.30, 400, 2000),
        reaim=Reaction(420, 0.30, 300, 1500),
        call=Reaction(1700, 0.40, 700, 5000),
        think_scale=1.3,
        slip=0.25,
        noise=4.0,
    ),
    "normal": Level(
        "normal",
        first_grab=Reaction(540, 0.28, 330, 2000),
        next_grab=Reaction(400, 0.28, 300, 1500),
        reaim=Reaction(270, 0.28, 250, 1200),
        call=Reaction(1100, 0.35, 500, 4000),
        think_scale=1.0,
        slip=0.0,
        noise=1.0,
    ),
    "hard": Level(
        "hard",
        first_grab=Reaction(420, 0.22, 300, 1500),
        next_grab=Reaction(330, 0.22, 270, 1200),
        reaim=Reaction(280, 0.20, 250, 900),
        call=Reaction(750, 0.30, 350, 3000),
        think_scale=0.8,
        slip=0.0,
        noise=0.5,
    ),
}


def level_of(name: str) -> Level:
    """The ``Level`` called ``name``; raises ``ValueError`` for another name."""
    level = LEVELS.get(name)
    if level is None:
        raise ValueError(f"unknown bot level {name!r} (one of {', '.join(LEVEL_NAMES)})")
    return level


@mypyc_attr(allow_interpreted_subclasses=True)  # bots of the interpreted engines, tests
class SeededBot:
    """A bot for one seat with its own ``Rng(seed)`` and a ``Level``; by default it learns
    nothing from events (its view holds all it uses). Subclasses add ``decide`` (see
    ``engines.base.Bot``)."""

    def __init__(self, seat: int, seed: int, level: str = DEFAULT_LEVEL) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.level = level_of(level)

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        return None

    def think(self, low_ms: int, high_ms: int) -> int:
        """A think time in ``low_ms..high_ms`` stretched by the level (the same single draw at
        every level, so the level changes no later draw)."""
        drawn = low_ms + self.rng.randbelow(high_ms - low_ms + 1)
        scale = self.level.think_scale
        return drawn if scale == 1.0 else round(drawn * scale)

    def slips(self) -> bool:
        """Whether this decision is a random one (easy bots); no draw at a level without slips,
        so the stronger levels' choices stay as they were."""
        slip = self.level.slip
        return slip > 0.0 and self.rng.random() < slip


def without_resign(legal: list[Action]) -> list[Action]:
    """The legal actions a bot weighs: everything but resigning."""
    return [action for action in legal if action["type"] != "resign"]
