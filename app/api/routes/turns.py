"""``GET /api/accounts/me/matches``: the caller's running matches, whose turn it is in each.

The list and the time of each match's latest move come from the database, so every process
answers alike. Whether a match awaits the caller, and his deadline, come from the live
session when this process plays the match; a match another process of a cluster plays is
read at its latest logged version instead (awaited seats from the replayed state, bounded by
the snapshots of ``app.sessions.reads``; no deadline, the turn clocks live with the owner),
and so is a sleeping match, whose deadline comes from the turn clocks its wake-up row kept
(``app.sessions.sleep``): a correspondence player sees when his move is due however long the
match has slept.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter
from sqlalchemy import func, select

from app.api.deps import CurrentPlayer, HubDep, SessionDep
from app.api.errors import declared
from app.api.responses.turns import MyMatches
from app.api.routes.matches import seat_json
from app.db.models import Match, MatchAction, MatchSeat
from app.db.repositories import MatchRepository
from app.sessions.clock import MatchClock
from app.sessions.hub import Hub
from app.sessions.seat_names import account_names
from app.sessions.timecontrol import TimeControl, TurnClocks
from app.sessions.turns import wall_ms
from engines import registry
from engines.base import awaiting_seats

router = APIRouter(prefix="/api", tags=["accounts"])

LISTED = 200  # matches listed at most, the latest move first


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat()


def _ms(moment: datetime) -> int:
    if moment.tzinfo is None:  # SQLite hands back naive UTC
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


async def _awaited(
    hub: Hub, repo: MatchRepository, match: Match, mine: list[int]
) -> tuple[bool, int | None]:
    """Whether the match awaits one of ``mine`` and, if so, the earliest of their deadlines
    (epoch ms; None: no turn clock, or not known here)."""
    # Read only: a sleeping match is answered from its log and its wake-up row, not woken.
    session = hub.sessions.get(match.id)
    if session is not None:
        awaited = set(session.views.awaiting(session))
        ours = [seat for seat in mine if seat in awaited]
        ends = [
            session.turn_clocks.deadlines[s] for s in ours if s in session.turn_clocks.deadlines
        ]
        return bool(ours), wall_ms(session.clock, min(ends)) if ends else None
    seen = await hub.reads.seen(repo, match, None, None, whole=True)
    engine = registry.get(match.game)
    assert seen.state is not None
    state = engine.from_json(seen.state)
    over = engine.outcome(state) is not None
    awaited = set() if over else set(awaiting_seats(engine, state))
    ours = [seat for seat in mine if seat in awaited]
    return bool(ours), await _asleep_deadline(hub, match, ours) if ours else None


async def _asleep_deadline(hub: Hub, match: Match, seats: list[int]) -> int | None:
    """The earliest deadline of ``seats`` (epoch ms) if the match sleeps, from the clocks its
    wake-up row kept; None: it is not asleep here, or they have no running clock."""
    carry = await hub.sleeper.wakeups.carry(match.id)
    if carry is None:
        return None
    control = TimeControl.from_json(match.time_control, hub.settings.disconnect_grace_ms)
    running = {int(seat): int(at) for seat, at in carry.get("running_since", {}).items()}
    banks = {int(seat): int(left) for seat, left in carry.get("banks", {}).items()}
    clocks = TurnClocks.resumed(control, running, banks)
    ends = [clocks.deadlines[seat] for seat in seats if seat in clocks.deadlines]
    if not ends:
        return None
    # Match time follows the wall clock from the match's start (``MatchClock``).
    return wall_ms(MatchClock(match.started_wall_ms, 0, hub.settings.clock_rate), min(ends))


@router.get(
    "/accounts/me/matches",
    response_model=MyMatches,
    responses=declared(401, 503),
)
async def my_matches(player: CurrentPlayer, db: SessionDep, hub: HubDep) -> dict[str, Any]:
    """Your running matches, the latest move first: each with its seats, whether it awaits
    you now (``awaiting_you``) and your turn's deadline; ``awaiting_count`` counts those
    awaiting you. Your lobby socket hears ``your_turn`` whenever one starts or stops
    awaiting you."""
    # The latest row's write time, found through the log's (match, version) key.
    last_move = (
        select(MatchAction.created_at)
        .where(MatchAction.match_id == Match.id)
        .order_by(MatchAction.version.desc())
        .limit(1)
        .correlate(Match)
        .scalar_subquery()
    )
    mine = select(MatchSeat.match_id).where(MatchSeat.account_id == player.id)
    moved = func.coalesce(last_move, Match.started_at)
    query = (
        select(Match, moved)
        .where(Match.status == "running", Match.id.in_(mine))
        .order_by(moved.desc(), Match.id.desc())
        .limit(LISTED)
    )
    rows = (await db.execute(query)).all()
    repo = MatchRepository(db)
    seats = await repo.seats_of([match.id for match, _ in rows])
    names = await account_names(db, [s for found in seats.values() for s in found])
    out = []
    for match, at in rows:
        seated = seats.get(match.id, [])
        yours = [s.seat for s in seated if s.account_id == player.id]
        awaiting, deadline = await _awaited(hub, repo, match, yours)
        moved_ms = _ms(at)
        out.append(
            {
                "match_id": match.id,
                "game": match.game,
                "seats": [
                    seat_json(s, match.rated, names.get(s.account_id) if s.account_id else None)
                    for s in seated
                ],
                "your_seats": yours,
                "awaiting_you": awaiting,
                "deadline": _iso(deadline) if deadline is not None else None,
                "deadline_ms": deadline,
                "last_move_at": _iso(moved_ms),
                "last_move_ms": moved_ms,
            }
        )
    return {"awaiting_count": sum(1 for m in out if m["awaiting_you"]), "matches": out}
