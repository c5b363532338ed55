"""Bot games on a simulated clock: the engine-only host used by tests, bots and benchmarks.

No I/O and no real time: bots say when they would act (``Decision.at_ms``), engine deadlines
say when ``tick`` must run, and the earliest of the two happens next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.base import ActionError, Bot, Engine, Event, Outcome, State, events_for

LogEntry = tuple[int | None, dict[str, Any], int]
"""``(seat, action, at_ms)``; a tick that changed the state is ``(None, {"type": "tick"}, ms)``."""

TICK: dict[str, Any] = {"type": "tick"}


class StalledGame(RuntimeError):
    """No bot wants to act and the engine has no deadline: the match would hang."""


@dataclass
class Playout:
    """A finished (or cut-off) bot game with everything needed to replay it."""

    seats: int
    seed: int
    options: dict[str, Any]
    state: State
    log: list[LogEntry] = field(default_factory=list)
    rejected: list[tuple[int, dict[str, Any], str]] = field(default_factory=list)
    outcome: Outcome | None = None
    now_ms: int = 0
    steps: int = 0


Observer = Callable[[State, list[Event]], None]


def play(
    engine: Engine,
    bots: Sequence[Bot],
    seed: int,
    options: Mapping[str, Any] | None = None,
    *,
    max_steps: int = 20_000,
    on_change: Observer | None = None,
) -> Playout:
    """Play one match between ``bots`` (one per seat) and return its record.

    ``log`` holds every accepted ``(seat, action, at_ms)`` and every tick that produced events,
    in order, which is enough to replay the match (see ``replay``). ``on_change`` is called after
    every accepted action or tick with the state and the events it produced.
    """
    seats = len(bots)
    opts = dict(options or {})
    state = engine.setup(seats, seed, opts)
    record = Playout(seats, seed, opts, state)
    now = 0
    # One view per seat per change: the same object goes to observe and to the next decide.
    views = [engine.view(state, bot.seat) for bot in bots]
    for bot in bots:
        bot.observe([], views[bot.seat])
    while engine.outcome(state) is None and record.steps < max_steps:
        record.steps += 1
        best: tuple[int, int, dict[str, Any]] | None = None
        for seat in sorted(engine.to_act(state)):
            decision = bots[seat].decide(views[seat], engine.legal_actions(state, seat), now)
            if decision is not None:
                at = max(now, decision.at_ms)
                if best is None or at < best[0]:
                    best = (at, seat, decision.action)
        due = engine.deadline(state)
        if due is not None and (best is None or due <= best[0]):
            now = max(now, due)
            events = engine.tick(state, now)
            if events:
                record.log.append((None, TICK, now))
        elif best is not None:
            now, seat, action = best
            try:
                events = engine.apply(state, seat, action, now)
            except ActionError as error:
                record.rejected.append((seat, action, error.code))
                # A bot that keeps proposing a refused action must not freeze the clock.
                now += 1
                continue
            record.log.append((seat, action, now))
        else:
            raise StalledGame(f"seed {seed}: nobody acts and no deadline")
        if on_change is not None:
            on_change(state, events)
        views = [engine.view(state, bot.seat) for bot in bots]
        for bot in bots:
            bot.observe(events_for(events, bot.seat), views[bot.seat])
    record.now_ms = now
    record.outcome = engine.outcome(state)
    return record


def apply_entry(engine: Engine, state: State, entry: LogEntry) -> list[Event]:
    """Apply one log entry (an action or a tick) to ``state``."""
    seat, action, at_ms = entry
    if seat is None:
        return engine.tick(state, at_ms)
    return engine.apply(state, seat, action, at_ms)


def replay(
    engine: Engine,
    seats: int,
    seed: int,
    options: Mapping[str, Any] | None,
    log: Sequence[LogEntry],
) -> State:
    """Rebuild a state from its seed and its log of actions and ticks."""
    state = engine.setup(seats, seed, dict(options or {}))
    for entry in log:
        apply_entry(engine, state, entry)
    return state
