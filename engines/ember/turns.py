"""The turn: collection, mode, draw, play and end phases, arcane cards, and the game's end."""

from __future__ import annotations

from engines.base import Event, Outcome, SeatResult, make_event
from engines.ember.cards import HEROES
from engines.ember.effects import collect_all, draw, shown, take_top
from engines.ember.stack import play_card
from engines.ember.state import (
    ARCANE_COUNT,
    HAND_LIMIT,
    OPENING_HAND,
    SCAPE_SIZE,
    EmberState,
    lasting_count,
    mode_of,
    stones,
)
from engines.ember.targeting import play_options, playable


def deal(state: EmberState, events: list[Event]) -> None:
    """Rulebook, Setup: shuffle each deck, 4 arcane cards face down from the top, draw 5.

    A stacked deck (``options["decks"]``) is used as given, top first. Card uids are given in
    deck order after shuffling, so a uid says nothing about which card it is.
    """
    unused = [hero for hero in HEROES if hero not in {p.hero for p in state.players}]
    for seat, player in enumerate(state.players):
        if player.hero is None:
            player.hero = unused.pop(0)
        if state.stacked is not None:
            cards = list(state.stacked[seat])
        else:
            cards = HEROES[player.hero].card_list()
            state.rng.shuffle(cards)
        uids = list(range(len(state.kinds), len(state.kinds) + len(cards)))
        state.kinds.extend(cards)
        state.owners.extend([seat] * len(cards))
        player.arcane = uids[:ARCANE_COUNT]
        player.hand = uids[ARCANE_COUNT : ARCANE_COUNT + OPENING_HAND]
        player.deck = uids[ARCANE_COUNT + OPENING_HAND :]
    events.append(
        make_event("dealt", heroes=[p.hero for p in state.players], first_seat=state.first_seat)
    )
    state.turn = state.first_seat
    if state.players[state.turn].resigned:
        state.turn = next_seat(state, state.turn)
    start_turn(state, events, 0)
    settle(state, events, 0)


def next_seat(state: EmberState, seat: int) -> int:
    """The next seat still in play to the left (Rulebook, Playing the game)."""
    for k in range(1, state.seats + 1):
        candidate = (seat + k) % state.seats
        if not state.players[candidate].resigned:
            return candidate
    return seat


def start_turn(state: EmberState, events: list[Event], at_ms: int) -> None:
    """Rulebook, Collection phase: a full emberscape (3+ cards in hasty mode) is collected,
    and collecting it earns the play of an arcane card."""
    state.turns += 1
    seat = state.turn
    events.append(make_event("turn_started", seat=seat, round=state.round))
    player = state.players[seat]
    threshold = 3 if mode_of(state, seat) == "hasty" else SCAPE_SIZE
    if len(player.scape) >= threshold:
        collect_all(state, seat, events)
        if player.arcane:
            begin_arcane(state, "collection", events, at_ms)
            return
    mode_phase(state, events, at_ms)


def mode_phase(state: EmberState, events: list[Event], at_ms: int) -> None:
    """Rulebook, Mode phase: wait for the seat's choice, unless its hand is empty, in which
    case an empty mode pile takes the top card of the deck."""
    state.phase = "mode"
    seat = state.turn
    player = state.players[seat]
    if player.hand:
        return
    if not player.mode_pile:
        uid = take_top(state, seat, events)
        if uid is not None:
            player.mode_pile.append(uid)
            events.append(make_event("mode_set", seat=seat, forced=True, **shown(state, uid)))
    draw_phase(state, events, at_ms)


def draw_phase(state: EmberState, events: list[Event], at_ms: int) -> None:
    """Rulebook, Draw phase: draw 1 card (2 in greedy mode; lasting cards may add more).

    House rule: the first player skips the draw of the game's first turn (bot games showed a
    60-65% first-player edge in duels without it).
    """
    seat = state.turn
    count = 1 + (mode_of(state, seat) == "greedy") + lasting_count(state, seat, "extra_draw")
    if state.turns == 1:
        count = 0
    draw(state, seat, count, events)
    play_phase(state, events, at_ms)


def play_phase(state: EmberState, events: list[Event], at_ms: int) -> None:
    """Rulebook, Play phase: skipped with an empty hand; with no playable card the hand is
    shown to the opponents and the phase ends."""
    state.phase = "play"
    seat = state.turn
    player = state.players[seat]
    if not player.hand:
        end_phase(state, events, at_ms)
    elif not playable(state, seat):
        events.append(
            make_event("hand_shown", seat=seat, cards=[shown(state, u) for u in player.hand])
        )
        end_phase(state, events, at_ms)


def end_phase(state: EmberState, events: list[Event], at_ms: int) -> None:
    """Rulebook, End phase: discard down to 9 (the seat chooses), then an empty hand draws 2."""
    state.phase = "discard"
    if len(state.players[state.turn].hand) > HAND_LIMIT:
        return
    finish_turn(state, events, at_ms)


def finish_turn(state: EmberState, events: list[Event], at_ms: int) -> None:
    seat = state.turn
    if not state.players[seat].hand:
        draw(state, seat, 2, events)
    next_turn(state, events, at_ms)


def next_turn(state: EmberState, events: list[Event], at_ms: int) -> None:
    """End the turn; ``settle`` starts the next one (a loop, not recursion, because a run of
    turns with nothing to decide can be long)."""
    state.phase = "turn_over"


def settle(state: EmberState, events: list[Event], at_ms: int) -> None:
    """Start turns until one needs a decision or the game ends."""
    while state.phase == "turn_over":
        _advance_turn(state, events, at_ms)


def _stuck(state: EmberState, seat: int) -> bool:
    """No card to play ever again, and no collection due: the seat can change nothing."""
    player = state.players[seat]
    threshold = 3 if mode_of(state, seat) == "hasty" else SCAPE_SIZE
    return not (player.hand or player.deck or player.discard) and len(player.scape) < threshold


def _advance_turn(state: EmberState, events: list[Event], at_ms: int) -> None:
    """Pass the turn to the left; a new round starts when it comes back to the first seat.

    House rules: the game ends (and is scored) after ``max_rounds`` rounds, or as soon as no
    player in play has a card left to play nor a collection due, since nothing can change.
    """
    active = state.active()
    if len(active) <= 1:
        end_game(state, "resign", events)
        return
    if all(_stuck(state, seat) for seat in active):
        end_game(state, "exhausted", events)
        return
    old = state.turn
    seat = next_seat(state, old)

    def position(s: int) -> int:
        return (s - state.first_seat) % state.seats

    if position(seat) <= position(old):
        state.round += 1
        if state.round > state.max_rounds:
            end_game(state, "round_limit", events)
            return
    state.turn = seat
    start_turn(state, events, at_ms)


def begin_arcane(state: EmberState, resume: str, events: list[Event], at_ms: int) -> None:
    """Flip the next arcane card; play it at once when it needs no declaration."""
    state.resume = resume
    seat = state.turn
    uid = state.players[seat].arcane[0]
    events.append(make_event("arcane_revealed", seat=seat, **shown(state, uid)))
    options = play_options(state, seat, uid, from_arcane=True)
    if len(options) == 1:
        if play_card(state, seat, uid, options[0], at_ms, events, from_arcane=True):
            after_stack(state, events, at_ms)
    else:
        state.phase = "arcane"


def after_stack(state: EmberState, events: list[Event], at_ms: int) -> None:
    """Carry the turn on once the stack is empty.

    Rulebook, Ending the game: once the last arcane card's effects (and responses) are done,
    the game is over. Rulebook, Attack mode: a full emberscape is collected at once, after the
    played card's effects; house reading: that collection earns an arcane card too.
    """
    seat = state.turn
    player = state.players[seat]
    resume, state.resume = state.resume, None
    if resume in ("collection", "attack") and not player.arcane:
        end_game(state, "last_arcane", events)
    elif player.resigned:
        next_turn(state, events, at_ms)
    elif resume == "collection":
        mode_phase(state, events, at_ms)
    elif resume == "attack":
        end_phase(state, events, at_ms)
    elif mode_of(state, seat) == "attack" and len(player.scape) >= SCAPE_SIZE:
        collect_all(state, seat, events)
        if player.arcane:
            begin_arcane(state, "attack", events, at_ms)
        else:
            end_phase(state, events, at_ms)
    else:
        end_phase(state, events, at_ms)


def score(state: EmberState, seat: int) -> int:
    """Rulebook, Ending the game: the ember stones in the seat's collection pile."""
    return stones(state, state.players[seat].collection)


def end_game(state: EmberState, reason: str, events: list[Event]) -> None:
    state.phase = "over"
    state.reason = reason
    state.window = None
    events.append(
        make_event(
            "game_over",
            reason=reason,
            scores=[score(state, seat) for seat in range(state.seats)],
        )
    )


def outcome(state: EmberState) -> Outcome | None:
    """Placings by stones (ties share a place), resigned seats last (latest resigner first).

    Damage: the stone gap to the winner over the winner's stones, 0 for a winner.
    """
    if state.phase != "over":
        return None
    scores = {seat: score(state, seat) for seat in range(state.seats)}
    in_play = sorted(state.active(), key=lambda s: -scores[s])
    placings: list[list[int]] = []
    for seat in in_play:
        if placings and scores[placings[-1][0]] == scores[seat]:
            placings[-1].append(seat)
        else:
            placings.append([seat])
    placings.extend([seat] for seat in reversed(state.resigned_order))
    best = max((scores[s] for s in in_play), default=0)
    winners = set(placings[0]) if placings else set()
    results: dict[int, SeatResult] = {}
    for seat in range(state.seats):
        if seat in winners:
            gap = 0.0
        elif best <= 0:
            # Nobody banked a stone: a resigned seat still lost everything.
            gap = 1.0 if state.players[seat].resigned else 0.0
        else:
            gap = (best - scores[seat]) / best
        results[seat] = SeatResult(
            destroyed=False,
            resigned=state.players[seat].resigned,
            damage=min(1.0, max(0.0, gap)),
        )
    return Outcome(placings, results, state.reason or "")
