"""A human's share of the cards grabbed in Ambush! races against server bots, per level.

Each race is played by the server's own code on a driven clock: the Ambush! engine, the
session's bots (``app.sessions.bots``: the engine's ``HeuristicBot`` at a level, planned and
replanned as a live session does), the session's due work (``app.sessions.deadlines``: bot
grabs handed to the arbiter, windows settled, the race's end ticked) and the grab-race arbiter
(``app.races``) behind the session's race desk. One seat is a scripted human: its first grab
``--first`` ms after the call, then one every ``--every`` ms, each on a face-down card picked
at random among those it has not seen taken, sent over a link of ``--rtt`` ms (its ``dt`` is
its reaction, so its arbitrated time is the call plus that reaction).

Before each race the turn seat exposes a card and plays one for 4 to 8 turns (the bots see the
cards exposed, as at a table), then a seat drawn at random calls Ambush!. The figure is the
human's share of the cards grabbed, against a fair share of one card in ``seats``.

    .venv/bin/python bench/race_share.py                 # 400 races per row
    .venv/bin/python bench/race_share.py --races 100
"""

from __future__ import annotations

import sys
from pathlib import Path

# Run as a file, this folder would be first on sys.path, where bench/queue.py shadows the
# standard library's queue: put the repository there instead (``import bench...`` works too).
if Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path[0] = str(Path(__file__).resolve().parent.parent)

import argparse
import math
import statistics
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from app.races.links import LinkStats
from app.sessions.bots import BotSeat, make_bot, replan_all
from app.sessions.commands import Change, GrabInput, History, SeatInfo
from app.sessions.connections import Connections
from app.sessions.deadlines import Deadlines
from app.sessions.intents import BotMove, Due, SettleRace, Tick
from app.sessions.races import RaceDesk
from app.sessions.replies import Replies
from app.sessions.timecontrol import TimeControl, TurnClocks
from engines import registry
from engines.ambush.state import AmbushState
from engines.base import ActionError, Event, Rng
from engines.botkit import LEVEL_NAMES
from engines.playout import TICK

HUMAN_FIRST_MS = 650
HUMAN_EVERY_MS = 450
HUMAN_RTT_MS = 60.0
TURN_MS = 3000  # match time between two turns before the call
MIN_TURNS, MAX_TURNS = 4, 8
PLACING = ("expose", "place", "play")


class DrivenClock:
    """The match clock of ``app.sessions.clock.MatchClock``, moved by hand."""

    rate = 1.0

    def __init__(self) -> None:
        self.at = 0.0

    def now(self) -> int:
        return math.floor(self.at)

    def precise(self) -> float:
        return self.at

    def observe(self, at_ms: int) -> None:
        self.at = max(self.at, float(at_ms))


class _Sends:
    """When each version left for the human: every version it refers to left at the call."""

    def __init__(self, called_at: float) -> None:
        self.called_at = called_at

    def at(self, version: int | None) -> float:
        return self.called_at


class _Meter:
    def __init__(self, rtt_ms: float) -> None:
        self.link = LinkStats(rtt_ms, 5.0, 16)

    def stats(self) -> LinkStats:
        return self.link


@dataclass(eq=False)  # a connection: hashed by identity
class HumanSeat:
    """The scripted human: a connection as the race desk sees one, and its grab times."""

    seat: int
    rtt_ms: float
    first_ms: int
    every_ms: int
    account_id: int | None = None
    meter: _Meter = field(init=False)
    sends: _Sends | None = None
    clicks: int = 0
    sent: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.meter = _Meter(self.rtt_ms)

    def send_text(self, text: str) -> None:
        self.sent.append(text)

    def send_numbered(self, text: str, version: int) -> None:
        self.sent.append(text)

    def race_pings(self, on: bool) -> None:
        return None

    def close(self, code: int = 1000) -> None:
        return None

    def reaction(self) -> int:
        """This click's reaction, measured from the call."""
        return self.first_ms + self.clicks * self.every_ms

    def arrival(self, called_at: float) -> float:
        return called_at + self.reaction() + self.rtt_ms


@dataclass
class RaceResult:
    seats: int
    human: int
    grabs: list[int]
    length_ms: int
    # Each seat's won grabs, in match ms after the call.
    times: list[list[int]] = field(default_factory=list)


def _build(
    seats: int, level: str, seed: int, human: int
) -> tuple[AmbushState, dict[int, BotSeat], int, int, list[Event]]:
    """A match up to a call: turns of expose-and-pass, then the call. Returns the state, the
    bots, the version and time of the call, and the call's events."""
    engine = registry.get("ambush")
    rng = Rng(seed)
    state = engine.setup(seats, seed, {})
    assert isinstance(state, AmbushState)
    bots = {
        seat: BotSeat(seat, make_bot(engine, f"heuristic:{level}", seat, seed * 8 + seat))
        for seat in range(seats)
        if seat != human
    }
    now, version = 0, 0
    replan_all(bots, engine, state, now, None)
    turns = MIN_TURNS + rng.randbelow(MAX_TURNS - MIN_TURNS + 1)
    while state.turn_number <= turns or state.phase != "turn" or state.step != "expose":
        # The turn seat exposes, then plays its first listed card (two rounds of passes
        # would end the game), placing what the card places.
        seat = state.turn
        legal = engine.legal_actions(state, seat)
        action = next((a for a in legal if a["type"] in PLACING), legal[0])
        now += TURN_MS // 2
        events = engine.apply(state, seat, action, now)
        version += 1
        replan_all(bots, engine, state, now, events)
    now += TURN_MS // 2
    caller = rng.randbelow(seats)
    events = engine.apply(state, caller, {"type": "call_ambush"}, now)
    return state, bots, version + 1, now, events


def apply_due(
    intent: Due,
    state: AmbushState,
    desk: RaceDesk,
    deadlines: Deadlines,
    replies: Replies,
    clock: DrivenClock,
) -> Change | None:
    """What the session does with what a race makes due (``GameSession._apply_due``): a
    window settled with the engine's apply, the race's end ticked, a bot's move played."""
    engine = registry.get("ambush")
    if isinstance(intent, SettleRace):

        def apply(seat: int, action: dict[str, Any], at_ms: int) -> list[Event]:
            return engine.apply(state, seat, action, at_ms)

        settled = desk.settle(intent.now, apply)
        if settled is None:
            return None
        return settled.change(lambda decision: replies.grab_decided(decision, clock.now()))
    if isinstance(intent, Tick):
        events = engine.tick(state, intent.at_ms)
        if events:
            return Change(None, TICK, intent.at_ms, events, "tick")
        deadlines.tick_changed_nothing(intent.deadline)
        return None
    if isinstance(intent, BotMove):
        try:
            events = engine.apply(state, intent.seat, intent.action, intent.at_ms)
        except ActionError:
            deadlines.bot_refused(intent.seat, clock.now())
            return None
        return Change(intent.seat, intent.action, intent.at_ms, events, "bot")
    raise AssertionError(f"a race without clocks or accounts has no {intent}")


def play_race(seats: int, level: str, seed: int, human: int | None = None) -> RaceResult:
    """One race: the human at ``human`` (drawn from the seed when None) against bots."""
    engine = registry.get("ambush")
    if human is None:
        human = Rng(seed ^ 0x5EA7).randbelow(seats)
    state, bots, version, called_at, events = _build(seats, level, seed, human)
    clock = DrivenClock()
    clock.at = float(called_at)
    desk = RaceDesk(seed, cooldown_ms=state.rules.grab_cooldown_ms, rate=1.0)
    history = History(limit=64)
    connections = Connections([SeatInfo(None, None, f"seat {s}") for s in range(seats)], 0)
    person = HumanSeat(human, HUMAN_RTT_MS, HUMAN_FIRST_MS, HUMAN_EVERY_MS)
    person.sends = _Sends(float(called_at))
    connections.peers.add(person)
    deadlines = Deadlines(
        engine,
        state,
        clock=clock,  # type: ignore[arg-type]  # the clock's interface, driven by hand
        turn_clocks=TurnClocks(TimeControl()),
        time_control=TimeControl(),
        connections=connections,
        bots=bots,
        races=desk,
        history=history,
    )
    replies = Replies({})
    grabs = [0] * seats
    times: list[list[int]] = [[] for _ in range(seats)]
    over = False

    def commit(change: Change) -> None:
        """What the session does with a logged change: the race desk sees it, then the
        bots (``_log``, ``_advance``, ``_announce``)."""
        nonlocal version, over
        version += 1
        living = sorted(engine.to_act(state))
        desk.observe(version, change.events, clock.precise(), living)
        desk.attach(change.arbitration)
        clock.observe(change.at_ms)
        history.append(version, change.events, change.at_ms)
        deadlines.moved()
        if change.before_broadcast is not None:
            change.before_broadcast(version)
        for event in change.events:
            if event["type"] == "grabbed":
                grabs[event["seat"]] += 1
                times[event["seat"]].append(event["at_ms"] - called_at)
            elif event["type"] == "race_ended":
                over = True
        replan_all(bots, engine, state, clock.now(), change.events)

    commit(Change(None, {"type": "call_ambush"}, called_at, events, "bot"))
    claimed: set[tuple[int, int]] = set()
    rng = Rng(seed ^ 0x4C1C)
    while not over:
        due = deadlines.next_due()
        arrive = person.arrival(called_at) if state.grid else math.inf
        if due is None and arrive == math.inf:
            break
        if arrive <= (due if due is not None else math.inf):
            clock.at = max(clock.at, arrive)
            down = sorted(cell for cell in state.grid if cell not in claimed)
            if down:
                cell = down[rng.randbelow(len(down))]
                claimed.add(cell)
                measured = GrabInput(version, float(person.reaction()), clock.precise())
                key = (None, human)
                desk.grab(person, human, key, person.clicks + 1, list(cell), measured)
            person.clicks += 1
            continue
        assert due is not None
        clock.at = max(clock.at, float(due))
        progressed = False
        while not over:
            intent = deadlines.due(clock.now())
            if intent is None:
                break
            progressed = True
            change = apply_due(intent, state, desk, deadlines, replies, clock)
            if change is not None:
                commit(change)
        if not progressed:
            clock.at += 1.0  # what is due waits on time still to come (a window's hold)
    return RaceResult(seats, human, grabs, math.ceil(clock.at) - called_at, times)


@dataclass
class Figures:
    """The human's grabs against the fair share, over ``races`` races."""

    races: int
    share: float  # the human's cards over all cards grabbed
    fair: float
    cards: float  # cards grabbed per race
    length_ms: float  # median race length
    bot_first_ms: float  # median of the bots' first won grab after the call
    bot_gap_ms: float  # median time between one bot's won grabs in a race

    @property
    def ratio(self) -> float:
        return self.share / self.fair


def measure(seats: int, level: str, races: int, first_seed: int = 1) -> Figures:
    mine = total = 0
    lengths: list[int] = []
    firsts: list[int] = []
    gaps: list[int] = []
    for seed in range(first_seed, first_seed + races):
        result = play_race(seats, level, seed)
        mine += result.grabs[result.human]
        total += sum(result.grabs)
        lengths.append(result.length_ms)
        for seat, won in enumerate(result.times):
            if seat != result.human and won:
                firsts.append(won[0])
                gaps += [b - a for a, b in pairwise(won)]
    share = mine / total if total else 0.0
    return Figures(
        races,
        share,
        1 / seats,
        total / races,
        statistics.median(lengths),
        statistics.median(firsts) if firsts else math.nan,
        statistics.median(gaps) if gaps else math.nan,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--races", type=int, default=400, help="races per row")
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 3, 4])
    args = parser.parse_args(argv)
    print(
        f"Ambush! races, a human grabbing {HUMAN_FIRST_MS} ms after the call then every "
        f"{HUMAN_EVERY_MS} ms ({HUMAN_RTT_MS:.0f} ms link) against heuristic bots,"
    )
    print(f"{args.races} races per row: the human's share of the cards grabbed (ratio: to the")
    print("fair share), cards grabbed per race, the race's length, and the bots' won grabs:")
    print("the first after the call and the time between one bot's grabs (medians, ms)")
    print(
        f"{'seats':>5} {'level':>7} {'share':>6} {'fair':>6} {'ratio':>6} {'cards':>6} {'ms':>6}"
        f" {'first':>6} {'gap':>6}"
    )
    for seats in args.seats:
        for level in LEVEL_NAMES:
            got = measure(seats, level, args.races)
            print(
                f"{seats:>5} {level:>7} {got.share:>6.3f} {got.fair:>6.3f} {got.ratio:>6.2f} "
                f"{got.cards:>6.1f} {got.length_ms:>6.0f} {got.bot_first_ms:>6.0f}"
                f" {got.bot_gap_ms:>6.0f}"
            )


if __name__ == "__main__":
    main()
