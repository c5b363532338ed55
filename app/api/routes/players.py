"""Player REST: a profile with recent matches, ladder entries (ledger and ratings) and
tournaments, and the player's rating history."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter

from app.api.deps import SessionDep
from app.api.errors import declared
from app.api.filters import GameFilter
from app.api.params import IdPath
from app.api.responses.players import ProfileOut, RatingHistoryOut
from app.api.routes.matches import seat_json
from app.db.models import Account
from app.db.repositories import MatchFilter, MatchRepository
from app.errors import NotFound
from app.sessions.seat_names import account_names
from app.tournaments import ladders as ladder_store
from app.tournaments import store
from app.tournaments.ladders import entry_json, ladder_json
from app.tournaments.store import tournament_json

router = APIRouter(prefix="/api/players", tags=["players"])


@router.get(
    "/{account_id}",
    response_model=ProfileOut,
    response_model_exclude_unset=True,
    responses=declared(404, 422, 503),
)
async def profile(account_id: IdPath, db: SessionDep) -> dict[str, Any]:
    """A player's profile: recent matches, ladder entries (ledger and ratings), tournaments."""
    account = await db.get(Account, account_id)
    if account is None:
        raise NotFound("player/not_found", f"no player {account_id}")
    total, matches = await MatchRepository(db).search(MatchFilter(player=account_id, limit=20))
    seats = await MatchRepository(db).seats_of([m.id for m in matches])
    names = await account_names(db, [s for rows in seats.values() for s in rows])
    recent = []
    for match in matches:
        mine = [s for s in seats.get(match.id, []) if s.account_id == account_id]
        recent.append(
            {
                "id": match.id,
                "game": match.game,
                "status": match.status,
                "rated": match.rated,
                "started_at": match.started_at.isoformat(),
                "seat": mine[0].seat if mine else None,
                # Only rated play moves the ledger: a casual match shows no change.
                "ledger_delta": mine[0].ledger_delta if mine and match.rated else None,
                "opponents": [
                    s.name for s in seats.get(match.id, []) if s.account_id != account_id
                ],
                # The same seats with their players' names (a bot's kind and level).
                "against": [
                    seat_json(s, match.rated, names.get(s.account_id) if s.account_id else None)
                    for s in seats.get(match.id, [])
                    if s.account_id != account_id
                ],
            }
        )
    ladders = [
        {**entry_json(entry, bot_account=account.bot), "ladder": ladder_json(ladder)}
        for ladder, entry in await db.run_sync(
            partial(ladder_store.entries_of, account_id=account_id)
        )
    ]
    tournaments = [
        {**tournament_json(t), "entry_status": e.status}
        for t, e in await db.run_sync(partial(store.entries_of, account_id=account_id))
    ]
    return {
        "id": account.id,
        "name": account.name,
        "guest": account.is_guest,
        "bot": account.bot,
        "matches_total": total,
        "matches": recent,
        "ladders": ladders,
        "tournaments": tournaments,
    }


@router.get(
    "/{account_id}/ratings",
    response_model=list[RatingHistoryOut],
    response_model_exclude_unset=True,
    responses=declared(404, 422, 503),
)
async def rating_history(
    account_id: IdPath, db: SessionDep, game: GameFilter = None
) -> list[dict[str, Any]]:
    """Every rating event of the player, oldest first: ledger and skill before and after."""
    if await db.get(Account, account_id) is None:
        raise NotFound("player/not_found", f"no player {account_id}")
    return [
        {
            "ladder_id": ladder.id,
            "ladder": ladder.name,
            "game": ladder.game,
            "match_id": event.match_id,
            "tournament_id": event.tournament_id,
            "system": event.system,
            "points_before": event.points_before,
            "points_change": event.points_change,
            "points_after": event.points_before + event.points_change,
            "rating_before": event.rating_before,
            "rating_after": event.rating_after,
            "at": event.created_at.isoformat(),
        }
        for ladder, event in await db.run_sync(
            partial(ladder_store.history, account_id=account_id, game=game)
        )
    ]
