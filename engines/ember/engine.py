"""The Ember engine: setup options, legal actions, the clock, views; actions in ``actions``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engines.base import Engine, Event, InvalidAction, Outcome, Rng, option_int
from engines.ember import stack, turns
from engines.ember.actions import ACTIONS, GAME, MAX_SEATS, to_act
from engines.ember.cards import CARDS, HERO_IDS
from engines.ember.state import EmberState, Player
from engines.ember.targeting import play_options, playable, response_options
from engines.ember.view import refresh as refresh_views
from engines.ember.view import view as build_view
from engines.envelope import Actions

RESIGN: dict[str, Any] = {"type": "resign"}


def _bad(name: str, message: str) -> InvalidAction:
    return InvalidAction(f"{GAME}/bad_option", f"{name}: {message}")


def _heroes_option(value: Any, seats: int, rng: Rng) -> list[str | None]:
    if value is None:
        return [None] * seats
    if value == "random":
        heroes = list(HERO_IDS)
        rng.shuffle(heroes)
        return list(heroes[:seats])
    if not isinstance(value, list) or len(value) != seats:
        raise _bad("heroes", "one hero per seat, or 'random'")
    if any(h not in HERO_IDS for h in value) or len(set(value)) != seats:
        raise _bad("heroes", f"distinct heroes among {', '.join(HERO_IDS)}")
    return list(value)


def _decks_option(value: Any, seats: int) -> list[list[str]] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != seats:
        raise _bad("decks", "one list of card ids per seat, top first")
    for deck in value:
        if not isinstance(deck, list) or any(card not in CARDS for card in deck):
            raise InvalidAction(f"{GAME}/unknown_card", "decks name an unknown card")
    return [list(deck) for deck in value]


class EmberEngine(Engine):
    """Ember: Shroud of the Shadow Demon for 2-4 seats, each with its own hero deck."""

    id: ClassVar[str] = GAME
    title: ClassVar[str] = "Ember: Shroud of the Shadow Demon"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = MAX_SEATS
    actions: ClassVar[Actions] = ACTIONS

    def setup(self, seats: int, seed: int, options: Mapping[str, Any] | None = None) -> EmberState:
        """A new match. Options: ``heroes`` (list per seat or "random"; absent: each seat
        chooses), ``decks`` (per seat, top first), ``first_seat``, ``names``,
        ``response_ms`` (response window, default 10000), ``max_rounds`` (default 60).

        Raises ``InvalidAction`` ``ember/bad_seats``, ``ember/bad_option`` or
        ``ember/unknown_card``.
        """
        opts = dict(options or {})
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= 4:
            raise InvalidAction(f"{GAME}/bad_seats", "Ember is for 2 to 4 players")
        if "deck" in opts:
            raise _bad("deck", "each Ember seat has its own deck: use 'decks'")
        rng = Rng(seed)
        first = opts.get("first_seat")
        first_seat = (
            rng.randbelow(seats)
            if first is None
            else option_int(opts, "first_seat", 0, GAME, low=0, high=seats - 1)
        )
        names = opts.get("names") or [f"Seat {s + 1}" for s in range(seats)]
        if not isinstance(names, list) or len(names) != seats:
            raise _bad("names", "one name per seat")
        heroes = _heroes_option(opts.get("heroes"), seats, rng)
        state = EmberState(
            seats=seats,
            players=[Player(hero=heroes[s], name=str(names[s])) for s in range(seats)],
            rng=rng,
            first_seat=first_seat,
            response_ms=option_int(opts, "response_ms", 10_000, GAME, low=500, high=600_000),
            max_rounds=option_int(opts, "max_rounds", 60, GAME, low=1, high=1000),
            stacked=_decks_option(opts.get("decks"), seats),
        )
        if heroes[0] is None:
            # Rulebook, Getting started: each player selects a different hero, in turn order.
            state.choosing = [(first_seat + k) % seats for k in range(seats)]
        else:
            turns.deal(state, [])
        return state

    # -- who acts -----------------------------------------------------------------------

    # Asked before every step: the module function itself (``awaiting`` is the default:
    # every seat in ``to_act`` must act, a response window needs its pass).
    to_act = staticmethod(to_act)

    def legal_actions(self, state: EmberState, seat: int) -> list[dict[str, Any]]:
        """The seat's legal actions: pass first where passing is allowed, resign last."""
        if state.phase == "over" or not 0 <= seat < state.seats:
            return []
        if state.players[seat].resigned:
            return []
        if seat not in self.to_act(state):
            return [RESIGN]
        player = state.players[seat]
        actions: list[dict[str, Any]] = []
        if state.phase == "hero":
            taken = {p.hero for p in state.players}
            actions = [{"type": "hero", "hero": h} for h in HERO_IDS if h not in taken]
        elif state.window is not None:
            actions = [{"type": "pass"}]
            actions += [{"type": "respond", "card": u} for u in response_options(state, seat)]
        elif state.phase == "mode":
            if player.mode_pile:
                actions.append({"type": "pass"})
            actions += [{"type": "mode", "card": uid} for uid in player.hand]
        elif state.phase == "play":
            kinds = state.kinds
            for uid in playable(state, seat):
                card = CARDS[kinds[uid]]
                if card.attack is None and card.choice is None:
                    actions.append({"type": "play", "card": uid})  # nothing to declare
                    continue
                actions += [
                    {"type": "play", "card": uid, **option}
                    for option in play_options(state, seat, uid)
                ]
        elif state.phase == "arcane":
            options = play_options(state, seat, player.arcane[0], from_arcane=True)
            actions = [{"type": "arcane", **option} for option in options]
        elif state.phase == "discard":
            actions = [{"type": "discard", "card": uid} for uid in player.hand]
        return [*actions, RESIGN]

    # -- actions ------------------------------------------------------------------------

    def apply(
        self, state: EmberState, seat: int, action: dict[str, Any], at_ms: int
    ) -> list[Event]:
        """Validate ``action`` completely (the table ``actions.ACTIONS``), then carry it out.

        Raises ``InvalidAction`` with the envelope's codes (``engines.envelope``) and
        ``ember/unknown_hero``; ``IllegalAction``: ``ember/game_over``, ``ember/resigned``,
        ``ember/not_your_turn``, ``ember/wrong_phase``, ``ember/hero_taken``,
        ``ember/must_choose_mode``, ``ember/not_in_hand``, ``ember/no_room``,
        ``ember/bad_target``, ``ember/not_a_response``.
        """
        # Views check the players' facts again (after a refusal, they find them unchanged).
        state.version += 1
        events: list[Event] = ACTIONS.dispatch(state, seat, action, at_ms)
        turns.settle(state, events, at_ms)
        return events

    # -- clock, view, result ------------------------------------------------------------

    def tick(self, state: EmberState, now_ms: int) -> list[Event]:
        """Close a response window whose time has run out (an automatic pass)."""
        due = self.deadline(state)
        if due is None or now_ms < due:
            return []
        events: list[Event] = []
        state.version += 1
        stack.close_window(state, "timeout", events)
        turns.after_stack(state, events, now_ms)
        turns.settle(state, events, now_ms)
        return events

    def deadline(self, state: EmberState) -> int | None:
        if state.window is None or state.phase == "over":
            return None
        return state.window["opened_ms"] + state.response_ms

    def view(self, state: EmberState, seat: int | None) -> dict[str, Any]:
        if state.seen_version != state.version:
            # The first view since the last change: the parts every seat's view shares.
            result = turns.outcome(state) if state.phase == "over" else None
            shown: dict[str, Any] | None = None
            if result is not None:
                # Every player's stones: public once the game is over (``game_over`` tells them).
                scores = [turns.score(state, seat) for seat in range(state.seats)]
                shown = {**result.to_json(), "scores": scores}
            refresh_views(state, sorted(self.to_act(state)), shown)
        return build_view(state, seat)

    def outcome(self, state: EmberState) -> Outcome | None:
        return turns.outcome(state)

    def to_json(self, state: EmberState) -> dict[str, Any]:
        return state.to_json()

    def from_json(self, data: Mapping[str, Any]) -> EmberState:
        return EmberState.from_json(data)
