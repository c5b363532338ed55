"""The Ember engine: setup options, who acts, legal actions, validation and dispatch."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engines.base import (
    Event,
    InvalidAction,
    Outcome,
    Rng,
    make_event,
    option_int,
    require,
)
from engines.ember import stack, turns
from engines.ember.cards import CARDS, HERO_IDS
from engines.ember.effects import shown
from engines.ember.state import HAND_LIMIT, EmberState, Player
from engines.ember.targeting import has_room, play_options, playable, response_options
from engines.ember.view import refresh as refresh_views
from engines.ember.view import view as build_view

GAME = "ember"
RESIGN: dict[str, Any] = {"type": "resign"}
# Per action type, every field it may carry: anything else is refused (ember/bad_field), so
# nothing unknown is ever logged or shown in the event log.
_DECLARING = frozenset({"type", "target_seat", "target_card", "choice"})
ACTION_FIELDS: dict[str, frozenset[str]] = {
    "hero": frozenset({"type", "hero"}),
    "pass": frozenset({"type"}),
    "mode": frozenset({"type", "card"}),
    "play": _DECLARING | {"card"},
    "arcane": _DECLARING,
    "respond": frozenset({"type", "card"}),
    "discard": frozenset({"type", "card"}),
    "resign": frozenset({"type"}),
}
MAX_SEATS = 4
# ``to_act`` is asked several times per change (host, listing, apply, views): one set per
# seat, built once.
ALONE = tuple(frozenset({seat}) for seat in range(MAX_SEATS))


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


def _int_field(action: Mapping[str, Any], name: str, *, optional: bool = False) -> int | None:
    value = action.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAction(f"{GAME}/bad_field", f"{name} must be an integer")
    return value


class EmberEngine:
    """Ember: Shroud of the Shadow Demon for 2-4 seats, each with its own hero deck."""

    id: ClassVar[str] = GAME
    title: ClassVar[str] = "Ember: Shroud of the Shadow Demon"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = MAX_SEATS

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

    def to_act(self, state: EmberState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "hero":
            return frozenset(state.choosing[:1])
        if state.window is not None:
            return ALONE[state.window["seat"]]
        return ALONE[state.turn]

    def awaiting(self, state: EmberState) -> frozenset[int]:
        """Every seat in ``to_act`` must act (a response window needs its pass)."""
        return self.to_act(state)

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
        """Validate ``action`` completely, then carry it out.

        Raises ``InvalidAction``: ``ember/bad_seat``, ``ember/bad_action``,
        ``ember/unknown_action``, ``ember/bad_field``. Raises ``IllegalAction``:
        ``ember/game_over``, ``ember/resigned``, ``ember/not_your_turn``, ``ember/wrong_phase``,
        ``ember/hero_taken``, ``ember/must_choose_mode``, ``ember/not_in_hand``,
        ``ember/no_room``, ``ember/bad_target``, ``ember/not_a_response``.
        """
        require(
            not isinstance(seat, bool) and isinstance(seat, int) and 0 <= seat < state.seats,
            f"{GAME}/bad_seat",
            "no such seat",
            illegal=False,
        )
        require(
            isinstance(action, dict) and isinstance(action.get("type"), str),
            f"{GAME}/bad_action",
            "an action is an object with a type",
            illegal=False,
        )
        kind = action["type"]
        fields = ACTION_FIELDS.get(kind)
        if fields is None:
            raise InvalidAction(f"{GAME}/unknown_action", f"unknown action type {kind!r}")
        if not action.keys() <= fields:
            extra = sorted(str(name) for name in action.keys() - fields)
            raise InvalidAction(f"{GAME}/bad_field", f"unexpected fields {extra}")
        handler = getattr(self, f"_do_{kind}")
        require(state.phase != "over", f"{GAME}/game_over", "the game is over")
        require(not state.players[seat].resigned, f"{GAME}/resigned", "you have resigned")
        events: list[Event] = []
        if kind != "resign":
            require(seat in self.to_act(state), f"{GAME}/not_your_turn", "not your move")
        # Views check the players' facts again (after a refusal, they find them unchanged).
        state.version += 1
        handler(state, seat, action, at_ms, events)
        turns.settle(state, events, at_ms)
        return events

    def _phase(self, state: EmberState, *phases: str) -> None:
        require(state.phase in phases, f"{GAME}/wrong_phase", f"not now ({state.phase})")

    def _do_hero(
        self, state: EmberState, seat: int, action: dict[str, Any], at: int, events: list[Event]
    ) -> None:
        self._phase(state, "hero")
        hero = action.get("hero")
        if hero not in HERO_IDS:
            raise InvalidAction(f"{GAME}/unknown_hero", f"heroes: {', '.join(HERO_IDS)}")
        require(all(p.hero != hero for p in state.players), f"{GAME}/hero_taken", "taken")
        state.players[seat].hero = hero
        state.choosing.pop(0)
        events.append(make_event("hero_chosen", seat=seat, hero=hero))
        if not state.choosing:
            turns.deal(state, events)

    def _do_pass(
        self, state: EmberState, seat: int, action: dict[str, Any], at: int, events: list[Event]
    ) -> None:
        if state.window is not None:
            stack.close_window(state, "pass", events)
            turns.after_stack(state, events, at)
            return
        self._phase(state, "mode")
        require(
            bool(state.players[seat].mode_pile),
            f"{GAME}/must_choose_mode",
            "an empty mode pile needs a mode card",
        )
        events.append(make_event("mode_kept", seat=seat))
        turns.draw_phase(state, events, at)

    def _do_mode(
        self, state: EmberState, seat: int, action: dict[str, Any], at: int, events: list[Event]
    ) -> None:
        uid = _int_field(action, "card")
        self._phase(state, "mode")
        player = state.players[seat]
        require(uid in player.hand, f"{GAME}/not_in_hand", "that card is not in your hand")
        assert uid is not None
        player.hand.remove(uid)
        player.mode_pile.append(uid)
        events.append(make_event("mode_set", seat=seat, forced=False, **shown(state, uid)))
        turns.draw_phase(state, events, at)

    def _declared(self, action: Mapping[str, Any]) -> dict[str, Any]:
        declared: dict[str, Any] = {}
        for name in ("target_seat", "target_card", "choice"):
            value = _int_field(action, name, optional=True)
            if value is not None:
                declared[name] = value
        return declared

    def _do_play(
        self, state: EmberState, seat: int, action: dict[str, Any], at: int, events: list[Event]
    ) -> None:
        uid = _int_field(action, "card")
        declared = self._declared(action)
        self._phase(state, "play")
        require(uid in state.players[seat].hand, f"{GAME}/not_in_hand", "not in your hand")
        assert uid is not None
        require(has_room(state, seat, uid), f"{GAME}/no_room", "your emberscape is full")
        require(
            declared in play_options(state, seat, uid),
            f"{GAME}/bad_target",
            "declare one legal target (and choice) for this card",
        )
        state.resume = "play"
        if stack.play_card(state, seat, uid, declared, at, events):
            turns.after_stack(state, events, at)

    def _do_arcane(
        self, state: EmberState, seat: int, action: dict[str, Any], at: int, events: list[Event]
    ) -> None:
        declared = self._declared(action)
        self._phase(state, "arcane")
        uid = state.players[seat].arcane[0]
        require(
            declared in play_options(state, seat, uid, from_arcane=True),
            f"{GAME}/bad_target",
            "declare one legal target (and choice) for this card",
        )
        if stack.play_card(state, seat, uid, declared, at, events, from_arcane=True):
            turns.after_stack(state, events, at)

    def _do_respond(
        self, state: EmberState, seat: int, action: dict[str, Any], at: int, events: list[Event]
    ) -> None:
        uid = _int_field(action, "card")
        self._phase(state, "respond")
        require(
            uid in response_options(state, seat),
            f"{GAME}/not_a_response",
            "that card cannot answer this",
        )
        assert uid is not None
        if stack.respond(state, seat, uid, at, events):
            turns.after_stack(state, events, at)

    def _do_discard(
        self, state: EmberState, seat: int, action: dict[str, Any], at: int, events: list[Event]
    ) -> None:
        uid = _int_field(action, "card")
        self._phase(state, "discard")
        player = state.players[seat]
        require(uid in player.hand, f"{GAME}/not_in_hand", "not in your hand")
        assert uid is not None
        player.hand.remove(uid)
        player.discard.append(uid)
        events.append(make_event("discarded", seat=seat, **shown(state, uid)))
        if len(player.hand) <= HAND_LIMIT:
            turns.finish_turn(state, events, at)

    def _do_resign(
        self, state: EmberState, seat: int, action: dict[str, Any], at: int, events: list[Event]
    ) -> None:
        """Resign: the seat leaves play; its cards stay where they are, untouchable."""
        state.players[seat].resigned = True
        state.resigned_order.append(seat)
        events.append(make_event("resigned", seat=seat))
        if len(state.active()) <= 1:
            turns.end_game(state, "resign", events)
        elif state.phase == "hero":
            state.choosing.remove(seat)
            if not state.choosing:
                turns.deal(state, events)
        elif state.window is not None:
            if state.window["seat"] == seat:
                stack.close_window(state, "resigned", events)
                turns.after_stack(state, events, at)
        elif seat == state.turn:
            state.resume = None
            turns.next_turn(state, events, at)

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
