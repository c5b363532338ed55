"""Server-side bots: the engine's own bots, fed only their seat's events and view."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.base import Bot, Decision, Engine, Event, State, events_for
from engines.botkit import DEFAULT_LEVEL, LEVEL_NAMES

BOT_KINDS = ("heuristic", "random")
# After a refusal a bot is asked again only after this pause (or once the match moves).
BOT_RETRY_MS = 200
BOT_LEVELS = LEVEL_NAMES
# Kinds that matches seat without a lobby offering them (the practice bot of app/practice,
# installed by create_app): kind -> factory(engine, seat, seed).
EXTRA_BOT_KINDS: dict[str, Callable[[Engine, int, int], Bot]] = {}


def bot_module_name(engine: Engine) -> str:
    """``engines.ambush.engine`` -> ``engines.ambush.bots`` (the same for extra engines)."""
    return type(engine).__module__.rsplit(".", 1)[0] + ".bots"


def has_bots(engine: Engine) -> bool:
    try:
        module = importlib.import_module(bot_module_name(engine))
    except ImportError:
        return False
    return hasattr(module, "RandomBot") and hasattr(module, "HeuristicBot")


def bot_spec(kind: str, level: str = DEFAULT_LEVEL) -> str:
    """What a bot seat stores (``match_seats.bot``): the kind, with ``:level`` unless normal,
    so seats stored before there were levels read as normal bots."""
    return kind if level == DEFAULT_LEVEL else f"{kind}:{level}"


def parse_bot_spec(spec: str) -> tuple[str, str]:
    """``"heuristic:hard"`` -> ``("heuristic", "hard")``; a bare kind is a normal bot. Raises
    ``ValueError`` for an unknown level (the kind is checked by ``make_bot``)."""
    kind, _, level = spec.partition(":")
    level = level or DEFAULT_LEVEL
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}")
    return kind, level


def bot_identity(spec: str) -> str:
    """Who a bot seat is on a ladder: its kind and level (``heuristic:normal``; a stored bare
    kind is a normal bot), or the kind alone for a kind without levels (the practice bot). Each
    identity is rated as a player of its own."""
    if spec in EXTRA_BOT_KINDS:
        return spec
    kind, _, level = spec.partition(":")
    return f"{kind}:{level or DEFAULT_LEVEL}"


def bot_label(spec: str) -> str:
    """How a bot is named where it has no name of its own (a ladder): ``Heuristic bot
    (hard)``, ``Practice bot`` for a kind without levels."""
    kind, _, level = bot_identity(spec).partition(":")
    return f"{kind.title()} bot ({level})" if level else f"{kind.title()} bot"


def make_bot(engine: Engine, spec: str, seat: int, seed: int) -> Bot:
    """A ``RandomBot`` or ``HeuristicBot`` at the spec's level (``bot_spec``), or an
    ``EXTRA_BOT_KINDS`` bot; raises ``ValueError`` for another kind or level. A normal bot is
    built as ``cls(seat, seed)``, so an engine whose bots know no levels (the bench ``tally``
    game) still gets its bots."""
    extra = EXTRA_BOT_KINDS.get(spec)
    if extra is not None:
        return extra(engine, seat, seed)
    kind, level = parse_bot_spec(spec)
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown bot kind {kind!r}")
    module = importlib.import_module(bot_module_name(engine))
    cls = module.HeuristicBot if kind == "heuristic" else module.RandomBot
    bot: Bot = cls(seat, seed) if level == DEFAULT_LEVEL else cls(seat, seed, level=level)
    return bot


@dataclass
class BotSeat:
    """One bot and the decision it currently plans (``at_ms`` on the match clock)."""

    seat: int
    bot: Bot
    plan: Decision | None = None
    # After a refusal the bot is asked again only once something changes, or after a pause,
    # so a bot repeating a refused action cannot spin the session.
    retry_at: int | None = None

    def observe(self, events: list[dict[str, Any]], view: dict[str, Any]) -> None:
        self.bot.observe(events, view)

    def replan(self, view: dict[str, Any], legal: list[dict[str, Any]], now_ms: int) -> None:
        self.plan = self.bot.decide(view, legal, now_ms) if legal else None

    def due_at(self) -> int | None:
        if self.plan is None:
            return None
        if self.retry_at is not None:
            return max(self.plan.at_ms, self.retry_at)
        return self.plan.at_ms


def replan_all(
    bots: dict[int, BotSeat], engine: Engine, state: State, now: int, events: list[Event] | None
) -> None:
    """The match moved (``events``: what the change did; None: it was just loaded): every bot
    sees its seat's share of the events and its view, and plans its next action."""
    to_act = engine.to_act(state)
    for seat, bot in bots.items():
        view = engine.view(state, seat)
        if events is not None:
            bot.observe(events_for(events, seat), view)
            bot.retry_at = None
        legal = engine.legal_actions(state, seat) if seat in to_act else []
        bot.replan(view, legal, now)
