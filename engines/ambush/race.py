"""The Ambush! phase: the call, the grab race, the check, capture triggers and the hand limit."""

from __future__ import annotations

from engines.ambush.cards import AMBUSH, CARDS
from engines.ambush.grid import Cell
from engines.ambush.rules import (
    Ctx,
    clear_battlefield,
    deal_damage,
    forget_cell,
    heal,
    next_living,
    shuffle_into_deck,
    start_turn,
)
from engines.ambush.state import AmbushState, Race, Returning
from engines.base import ALL, make_event


def can_call(state: AmbushState, seat: int) -> bool:
    """Rule 2: any living seat, at any moment of a turn; never while an effect places cards
    (2b), nor while a race or the hand-limit step resolves."""
    return state.phase == "turn" and state.alive[seat]


def race_end_at(state: AmbushState) -> int:
    """When the race ends unless a grab comes first: idle end, capped by the maximum end."""
    race = state.race
    assert race is not None
    rules = state.rules
    return min(race.last_grab_at + rules.ambush_idle_ms, race.started_at + rules.ambush_max_ms)


def call(state: AmbushState, ctx: Ctx, seat: int, at_ms: int) -> None:
    """Rule 2: Ambush! is called; grabbing may begin (3). An empty battlefield ends it at once."""
    state.race = Race(
        caller=seat,
        started_at=at_ms,
        last_grab_at=at_ms,
        next_free=[at_ms] * state.seats,
        ambush_at_call=sum(1 for card in state.grid.values() if card == AMBUSH),
        resume_step=state.step,
    )
    state.phase = "ambush"
    state.exposed = None
    ctx.emit(
        make_event(
            "ambush_called",
            seat=seat,
            at_ms=at_ms,
            ends_at=race_end_at(state),
            max_end=at_ms + state.rules.ambush_max_ms,
        )
    )
    if not state.grid:
        end_race(state, ctx, at_ms, "empty")


def grab(state: AmbushState, ctx: Ctx, seat: int, cell: Cell, at_ms: int) -> None:
    """Rule 3a: the card goes face down to the seat's captured pile, unseen even by it."""
    race = state.race
    assert race is not None
    state.captured[seat].append(state.take_card(cell))
    forget_cell(state, cell)
    rules = state.rules
    free_at = race.next_free[seat] = at_ms + rules.grab_cooldown_ms
    last = race.last_grab_at = max(race.last_grab_at, at_ms)
    race.grabs += 1
    # The most frequent event: built as ``make_event`` would build it, without the call.
    ctx.events.append(
        {
            "type": "grabbed",
            "seat": seat,
            "cell": [cell[0], cell[1]],
            "at_ms": at_ms,
            "next_free": free_at,
            "ends_at": min(last + rules.ambush_idle_ms, race.started_at + rules.ambush_max_ms),
            "visible_to": ALL,
        }
    )
    if not state.grid:
        end_race(state, ctx, at_ms, "empty")


def end_race(state: AmbushState, ctx: Ctx, end_at: int, reason: str) -> None:
    """Rules 4 and 5: the check, the captured cards join the hands, triggers, the hand limit,
    the battlefield back into the deck, then the interrupted turn goes on (6)."""
    race = state.race
    assert race is not None
    ctx.emit(make_event("race_ended", reason=reason, at_ms=end_at, grabs=race.grabs))
    _check(state, ctx, race)
    order = [(race.caller + k) % state.seats for k in range(state.seats)]
    for seat in order:
        if not state.alive[seat]:
            continue
        kept = state.captured[seat]
        state.captured[seat] = []
        state.recent[seat] = kept
        state.hands[seat].extend(kept)
        ctx.emit(
            make_event(
                "captured", [seat], {"seat": seat, "count": len(kept)}, seat=seat, cards=kept
            )
        )
    for seat in order:
        if state.alive.count(True) <= 1:
            break  # the game is decided: no trigger resolves after the last castle stands
        _resolve_triggers(state, ctx, seat)
    if state.grid:
        clear_battlefield(state, ctx, "ambush")
    state.race = None
    if state.alive.count(True) <= 1:
        return
    limit = state.rules.hand_limit
    owed = {s: len(state.hands[s]) - limit for s in state.living() if len(state.hands[s]) > limit}
    if owed:
        state.phase = "returning"
        state.returning = Returning(end_at + state.rules.return_ms, owed, race.resume_step)
        ctx.emit(
            make_event(
                "hand_limit",
                owed=[[s, n] for s, n in sorted(owed.items())],
                deadline=state.returning.deadline,
            )
        )
    else:
        resume(state, ctx, race.resume_step)


def _check(state: AmbushState, ctx: Ctx, race: Race) -> None:
    """Rule 4: were two Ambush! cards down at the call? If not, the caller loses its pile."""
    counts = [sum(1 for c in state.captured[s] if c == AMBUSH) for s in range(state.seats)]
    left = sum(1 for c in state.grid.values() if c == AMBUSH)
    # Counted on what was down at the call: a pile shuffled away by a resignation mid-race
    # cannot turn a valid call false.
    valid = race.ambush_at_call >= 2
    penalty = 0
    if not valid and state.alive[race.caller]:
        penalty = len(state.captured[race.caller])
        shuffle_into_deck(state, state.captured[race.caller])
        state.captured[race.caller] = []
    state.last_check = {
        "caller": race.caller,
        "counts": counts,
        "left": left,
        "valid": valid,
        "penalty": penalty,
    }
    ctx.emit(make_event("check", **state.last_check))


def _resolve_triggers(state: AmbushState, ctx: Ctx, seat: int) -> None:
    """Rule 5: Booby Trap and Treasure Chest fire for the seat that captured and kept them,
    until the seat is destroyed. ``end_race`` calls no seat once the game is decided
    ("Winning the game": the last castle standing wins; a later trigger would change a
    finished game's result)."""
    for card_id in list(state.recent[seat]):
        if not state.alive[seat]:
            return
        card = CARDS[card_id]
        if card.trigger == "capture_damage":
            # A destruction is told after the trigger that caused it.
            told_at = len(ctx.events)
            hit = deal_damage(state, ctx, seat, card.amount)
            ctx.events.insert(
                told_at,
                make_event(
                    "trigger",
                    seat=seat,
                    card=card_id,
                    effect="damage",
                    absorbed=hit["absorbed"],
                    hp_lost=hit["hp_lost"],
                    hp=hit["hp"],
                ),
            )
        elif card.trigger == "capture_heal":
            gained = heal(state, seat, card.amount)
            ctx.emit(
                make_event(
                    "trigger",
                    seat=seat,
                    card=card_id,
                    effect="heal",
                    hp_gained=gained,
                    hp=state.hp[seat],
                )
            )


def return_cards(state: AmbushState, ctx: Ctx, seat: int, cards: list[str]) -> None:
    """Rule 5: the over-limit seat's chosen cards are shuffled into the central deck."""
    returning = state.returning
    assert returning is not None
    _take_back(state, ctx, seat, cards)
    del returning.owed[seat]
    if not returning.owed:
        resume(state, ctx, returning.resume_step)


def return_timed_out(state: AmbushState, ctx: Ctx) -> None:
    """The hand-limit step ran out: each late seat returns its most recently captured cards
    (then, should it owe more than it captured, the last cards of its hand)."""
    returning = state.returning
    assert returning is not None
    for seat, count in sorted(returning.owed.items()):
        chosen = state.recent[seat][-count:]
        rest = list(state.hands[seat])
        for card in chosen:
            rest.remove(card)
        missing = count - len(chosen)
        if missing:
            chosen = rest[len(rest) - missing :] + chosen
        _take_back(state, ctx, seat, chosen)
    returning.owed.clear()
    resume(state, ctx, returning.resume_step)


def _take_back(state: AmbushState, ctx: Ctx, seat: int, cards: list[str]) -> None:
    for card in cards:
        state.hands[seat].remove(card)
        if card in state.recent[seat]:
            state.recent[seat].remove(card)
    shuffle_into_deck(state, cards)
    ctx.emit(
        make_event(
            "returned",
            [seat],
            {"seat": seat, "count": len(cards)},
            seat=seat,
            count=len(cards),
            cards=list(cards),
        )
    )


def resume(state: AmbushState, ctx: Ctx, step: str) -> None:
    """Rule 6: the interrupted turn goes on; a destroyed turn seat hands over a fresh turn."""
    state.returning = None
    state.recent = [[] for _ in range(state.seats)]
    if not state.alive[state.turn]:
        start_turn(state, ctx, next_living(state, state.turn))
        return
    state.phase = "turn"
    state.step = "expose" if step == "expose" and state.deck else "play"
    ctx.emit(make_event("turn_resumed", seat=state.turn, step=state.step))
