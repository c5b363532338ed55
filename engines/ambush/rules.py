"""Turns and plays: expose, play a card and carry out its text, pass, damage, destruction, end."""

from __future__ import annotations

from collections.abc import Iterable

from engines.ambush.cards import CARDS
from engines.ambush.grid import Cell, cell_json, free_cells
from engines.ambush.state import AmbushState
from engines.base import ALL, Event, Outcome, SeatResult, make_event


class Ctx:
    """What one action or tick produces: its events and the castles it destroyed (a tie).
    A plain slotted class (not a dataclass): one is made for every action and tick."""

    __slots__ = ("destroyed", "events")

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.destroyed: list[int] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)


# --- the central deck and what players remember -------------------------------------------


def shuffle_into_deck(state: AmbushState, cards: Iterable[str]) -> None:
    """Cards go back into the central deck, which is then shuffled (rules 4, 5, elimination)."""
    state.deck.extend(cards)
    state.rng.shuffle(state.deck)


def forget_cell(state: AmbushState, cell: Cell) -> None:
    """A card left ``cell``: every Scout look at it is no longer valid."""
    for looks in state.looks:
        looks.pop(cell, None)


def clear_battlefield(state: AmbushState, ctx: Ctx, reason: str) -> None:
    """Rule 5 (and the exhaustion house rule): the battlefield is shuffled into the deck."""
    count = len(state.grid)
    shuffle_into_deck(state, state.grid.values())
    state.clear_grid()
    for looks in state.looks:
        looks.clear()
    state.exposed = None
    ctx.emit(make_event("shuffled_back", count=count, reason=reason, deck_count=len(state.deck)))


# --- castles --------------------------------------------------------------------------------


def deal_damage(state: AmbushState, ctx: Ctx, seat: int, amount: int) -> dict[str, int]:
    """``amount`` damage to ``seat``'s castle; the ward absorbs first; 0 HP destroys it."""
    absorbed = min(state.ward[seat], amount)
    state.ward[seat] -= absorbed
    lost = min(state.hp[seat], amount - absorbed)
    state.hp[seat] -= lost
    if state.hp[seat] <= 0 and state.alive[seat]:
        eliminate(state, ctx, seat, resigned=False)
    return {"seat": seat, "absorbed": absorbed, "hp_lost": lost, "hp": state.hp[seat]}


def heal(state: AmbushState, seat: int, amount: int) -> int:
    """Restore up to ``amount`` HP, never above ``castle_hp``; returns what was restored."""
    gained = max(0, min(amount, state.rules.castle_hp - state.hp[seat]))
    state.hp[seat] += gained
    return gained


def eliminate(state: AmbushState, ctx: Ctx, seat: int, *, resigned: bool) -> None:
    """The seat is out: its hand and captured pile are shuffled into the central deck."""
    shuffle_into_deck(state, state.hands[seat] + state.captured[seat])
    state.hands[seat] = []
    state.captured[seat] = []
    state.recent[seat] = []
    state.looks[seat].clear()
    state.alive[seat] = False
    state.resigned[seat] = resigned
    if state.returning is not None:
        state.returning.owed.pop(seat, None)
    ctx.destroyed.append(seat)
    kind = "resigned" if resigned else "destroyed"
    ctx.emit(make_event(kind, seat=seat, deck_count=len(state.deck)))


def finish(state: AmbushState, ctx: Ctx) -> None:
    """Close an action: castles destroyed together tie; the last castle standing wins."""
    if ctx.destroyed:
        state.out_order.append(sorted(set(ctx.destroyed)))
        ctx.destroyed = []
    # Runs after every action: a C-level count rather than the list of living seats.
    if state.phase != "over" and state.alive.count(True) <= 1:
        end_game(state, ctx, "last_castle" if True in state.alive else "all_destroyed")


def end_game(state: AmbushState, ctx: Ctx, reason: str) -> None:
    """Fix the placings: the living first (by HP when the game stalled), then the eliminated."""
    living = state.living()
    groups: list[list[int]] = []
    if reason == "stalled":
        for hp in sorted({state.hp[s] for s in living}, reverse=True):
            groups.append([s for s in living if state.hp[s] == hp])
    elif living:
        groups.append(living)
    groups.extend(list(g) for g in reversed(state.out_order))
    state.placings = groups
    state.end_reason = reason
    state.phase = "over"
    state.race = None
    state.returning = None
    ctx.emit(make_event("game_over", placings=groups, reason=reason))


def outcome(state: AmbushState) -> Outcome | None:
    """Placings once the game is over; damage per seat = HP lost / castle_hp (0..1)."""
    if state.placings is None or state.end_reason is None:
        return None
    cap = state.rules.castle_hp
    seats = {
        s: SeatResult(
            destroyed=not state.alive[s] and not state.resigned[s],
            resigned=state.resigned[s],
            damage=min(1.0, max(0.0, (cap - state.hp[s]) / cap)),
        )
        for s in range(state.seats)
    }
    return Outcome([list(g) for g in state.placings], seats, state.end_reason)


# --- turn order ------------------------------------------------------------------------------


def next_living(state: AmbushState, seat: int) -> int:
    for offset in range(1, state.seats + 1):
        candidate = (seat + offset) % state.seats
        if state.alive[candidate]:
            return candidate
    return seat


def start_turn(state: AmbushState, ctx: Ctx, seat: int) -> None:
    """A fresh turn: expose first (rule 1), skipped while the central deck is empty (1b)."""
    if state.alive.count(True) <= 1:
        return
    state.phase = "turn"
    state.turn = seat
    state.step = "expose" if state.deck else "play"
    state.began_dry = not state.deck
    state.turn_number += 1
    state.exposed = None
    ctx.events.append(
        {
            "type": "turn_started",
            "seat": seat,
            "step": state.step,
            "number": state.turn_number,
            "visible_to": ALL,
        }
    )  # once a turn: ``make_event`` inline


def end_turn(state: AmbushState, ctx: Ctx, *, played: bool) -> None:
    """The turn is over; apply the exhaustion and stalling house rules; the next seat starts.

    Exhaustion (house rule): "when the central deck is empty and a whole round (one turn for
    each living seat) passes in which no card is played", the battlefield is shuffled into
    the deck. A turn counts towards that round only if it began with the deck empty, ended
    with it still empty and played no card: the turn whose exposure empties the deck does not,
    so the battlefield never goes back the moment the deck runs out.
    """
    state.quiet_turns = 0 if played else state.quiet_turns + 1
    if played or state.deck or not state.began_dry:
        state.dry_turns = 0
    else:
        state.dry_turns += 1
    living = state.alive.count(True)
    if living <= 1:
        return
    if state.quiet_turns >= 2 * living:
        end_game(state, ctx, "stalled")
        return
    if state.dry_turns >= living and state.grid:
        state.dry_turns = 0
        clear_battlefield(state, ctx, "exhaustion")
    start_turn(state, ctx, next_living(state, state.turn))


# --- the two steps of a turn (validated by the engine before these run) ----------------------


def expose(state: AmbushState, ctx: Ctx, seat: int, cell: Cell) -> None:
    """Rule 1: the top card is shown to everyone, then goes face down at ``cell``."""
    card = state.deck.pop(0)
    state.put_card(cell, card)
    state.exposed = (cell, card, seat)
    state.step = "play"
    # Once a turn: built as ``make_event`` would build it, without the call.
    ctx.events.append(
        {
            "type": "exposed",
            "seat": seat,
            "card": card,
            "cell": [cell[0], cell[1]],
            "visible_to": ALL,
        }
    )


def play(
    state: AmbushState,
    ctx: Ctx,
    seat: int,
    card_id: str,
    cell: Cell,
    target: int | None,
    look: Cell | None,
    swap: tuple[Cell, Cell] | None,
) -> None:
    """Rule 2: damage (2a), the card's other text (2b), then face down at its cell (2c)."""
    card = CARDS[card_id]
    state.hands[seat].remove(card_id)
    state.reserved = (cell, card_id)
    hits = []
    # Destruction events come from inside deal_damage; the play itself is told first.
    played_at = len(ctx.events)
    if card.damage > 0 and target is not None:
        hits.append(deal_damage(state, ctx, target, card.damage))
    if card.effect == "splash":
        for other in state.living():
            if other not in (seat, target):
                hits.append(deal_damage(state, ctx, other, card.amount))
    played = {
        "type": "played",
        "seat": seat,
        "card": card_id,
        "target": target,
        "cell": [cell[0], cell[1]],
        "damage": card.damage,
        "hits": hits,
        "visible_to": ALL,
    }  # once a turn: ``make_event`` inline
    ctx.events.insert(played_at, played)
    if state.alive.count(True) > 1:  # the last castle standing has won: nothing more happens
        _carry_out(state, ctx, seat, card_id, target, look, swap)
    if state.placing and state.phase != "over":
        state.phase = "placing"
        return
    put_down_reserved(state)
    end_turn(state, ctx, played=True)


def _carry_out(
    state: AmbushState,
    ctx: Ctx,
    seat: int,
    card_id: str,
    target: int | None,
    look: Cell | None,
    swap: tuple[Cell, Cell] | None,
) -> None:
    """Rule 2b: the text beyond damage; a part with nothing to act on is skipped."""
    card = CARDS[card_id]
    if card.effect == "heal":
        gained = heal(state, seat, card.amount)
        ctx.emit(make_event("healed", seat=seat, amount=gained, hp=state.hp[seat]))
    elif card.effect == "ward":
        state.ward[seat] += card.amount
        ctx.emit(make_event("warded", seat=seat, ward=state.ward[seat]))
    elif card.effect == "look" and look is not None:
        seen = state.grid[look]
        state.looks[seat][look] = seen
        ctx.emit(
            make_event(
                "looked",
                [seat],
                {"seat": seat, "cell": cell_json(look)},
                seat=seat,
                cell=cell_json(look),
                card=seen,
            )
        )
    elif card.effect == "swap" and swap is not None:
        a, b = swap
        state.grid[a], state.grid[b] = state.grid[b], state.grid[a]
        for looks in state.looks:
            seen_a, seen_b = looks.pop(a, None), looks.pop(b, None)
            if seen_a is not None:
                looks[b] = seen_a
            if seen_b is not None:
                looks[a] = seen_b
        if state.exposed is not None and state.exposed[0] in (a, b):
            state.exposed = None
        ctx.emit(make_event("swapped", seat=seat, cells=[cell_json(a), cell_json(b)]))
    elif card.effect == "steal" and target is not None and state.hands[target]:
        victim = state.hands[target]
        stolen = victim.pop(state.rng.randbelow(len(victim)))
        state.hands[seat].append(stolen)
        ctx.emit(
            make_event(
                "stolen",
                [seat, target],
                {"thief": seat, "victim": target},
                thief=seat,
                victim=target,
                card=stolen,
            )
        )
    elif card.effect == "archer" and state.alive[seat] and state.alive.count(True) > 1:
        count = min(card.amount, len(state.deck))
        state.placing = state.deck[:count]
        del state.deck[:count]


def place(state: AmbushState, ctx: Ctx, seat: int, cell: Cell) -> None:
    """Elven Archer: the next card drawn for it goes face down, unseen, at ``cell``."""
    state.put_card(cell, state.placing.pop(0))
    ctx.emit(make_event("placed", seat=seat, cell=cell_json(cell), left=len(state.placing)))
    if not state.placing:
        put_down_reserved(state)
        end_turn(state, ctx, played=True)


def finish_placing(state: AmbushState, ctx: Ctx, seat: int) -> None:
    """The placing seat left mid-effect: its cards go to the first free cells in spiral order."""
    while state.placing:
        cell = free_cells(state.grid, placement_blocked(state))[0]
        state.put_card(cell, state.placing.pop(0))
        ctx.emit(make_event("placed", seat=seat, cell=cell_json(cell), left=len(state.placing)))
    put_down_reserved(state)


def placement_blocked(state: AmbushState) -> list[Cell]:
    return [] if state.reserved is None else [state.reserved[0]]


def put_down_reserved(state: AmbushState) -> None:
    """Rule 2c: the played card goes face down at its reserved cell, known to all who saw it."""
    if state.reserved is not None:
        cell, card = state.reserved
        state.put_card(cell, card)
        state.reserved = None
    if state.phase == "placing":
        state.phase = "turn"


def pass_turn(state: AmbushState, ctx: Ctx, seat: int) -> None:
    """Rule 2d: the play step is skipped and the turn ends."""
    ctx.emit(make_event("passed", seat=seat))
    end_turn(state, ctx, played=False)
