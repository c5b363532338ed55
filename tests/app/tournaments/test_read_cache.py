"""Standings and rounds are computed once per change of the tournament, however often read."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy import insert, update

from app.__main__ import migrate
from app.config import Settings
from app.db.models import Account, Match, Pairing, Tournament, TournamentEntry, TournamentRound
from app.main import create_app
from app.realtime.services import provided
from app.tournaments import store

PLAYERS = 8


@asynccontextmanager
async def rampart(folder: Path) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """The application in this process, started, with a Swiss tournament of 8 players whose
    two rounds are played (round 2's tables with a match each, round 1's without)."""
    url = f"sqlite+aiosqlite:///{folder}/rampart.db"
    await asyncio.to_thread(migrate, url)
    app = create_app(Settings(database_url=url))
    async with app.router.lifespan_context(app):
        async with provided(app).sessionmaker() as db:
            await db.execute(insert(Account), [{"name": "Org", "key": "org"}])
            tournament = dict(id=1, name="Open", game="ambush", format="swiss", organiser_id=1)
            await db.execute(insert(Tournament), [{**tournament, "status": "running"}])
            await db.execute(
                insert(TournamentEntry),
                [
                    dict(id=e, tournament_id=1, name=f"P{e}", bot="random", seed=e - 1)
                    for e in range(1, PLAYERS + 1)
                ],
            )
            await db.execute(
                insert(TournamentRound),
                [dict(id=r, tournament_id=1, number=r, status="finished") for r in (1, 2)],
            )
            match = dict(game="ambush", seat_count=2, seed=1, status="finished", rated=True)
            await db.execute(
                insert(Match), [{**match, "id": m, "started_wall_ms": 0} for m in range(1, 5)]
            )
            tables = []
            for r in (1, 2):
                for t in range(PLAYERS // 2):
                    a, b = (2 * t + 1, 2 * t + 2) if r == 1 else (t + 1, PLAYERS - t)
                    tables.append(
                        dict(
                            round_id=r,
                            tournament_id=1,
                            table_no=t,
                            entries=[a, b],
                            match_id=t + 1 if r == 2 else None,
                            status="finished",
                            placings=[[a], [b]],
                            changes={str(a): 40 + t, str(b): -40 - t},
                            forfeited=[],
                        )
                    )
            await db.execute(insert(Pairing), tables)
            await db.commit()
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://rampart") as client:
            yield app, client


@pytest.fixture
def computed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every standings and rounds computation (its kind)."""
    made: list[str] = []
    real_standings, real_rounds = store.standings, store.rounds_json

    def standings(session: Any, tournament_id: int) -> Any:
        made.append("standings")
        return real_standings(session, tournament_id)

    def rounds(session: Any, tournament_id: int) -> Any:
        made.append("rounds")
        return real_rounds(session, tournament_id)

    monkeypatch.setattr(store, "standings", standings)
    monkeypatch.setattr(store, "rounds_json", rounds)
    yield made


async def changed(app: FastAPI, *statements: Any) -> None:
    async with provided(app).sessionmaker() as db:
        for statement in statements:
            await db.execute(statement)
        await db.commit()


async def test_standings_are_computed_once_per_change(tmp_path: Path, computed: list[str]) -> None:
    async with rampart(tmp_path) as (app, client):
        path = "/api/tournaments/1/standings"
        first = (await client.get(path)).json()
        assert len(first) == PLAYERS and first[0]["points"] > first[-1]["points"]
        replies = await asyncio.gather(*(client.get(path) for _ in range(5)))
        assert all(reply.json() == first for reply in replies)
        assert computed == ["standings"]
        # A withdrawal, then a voided match (its table no longer moves the ledger): each is
        # seen at the next read, computed once.
        await changed(
            app, update(TournamentEntry).where(TournamentEntry.id == 8).values(status="withdrawn")
        )
        withdrawn = (await client.get(path)).json()
        assert [row["entry_id"] for row in withdrawn if row["withdrawn"]] == [8]
        assert (await client.get(path)).json() == withdrawn
        assert computed == ["standings"] * 2
        await changed(
            app,
            update(Pairing).where(Pairing.match_id == 1).values(changes={"1": 0, "8": 0}),
            update(Match).where(Match.id == 1).values(status="voided"),
        )
        voided = (await client.get(path)).json()
        assert computed == ["standings"] * 3
        before = {r["entry_id"]: r["points"] for r in withdrawn}
        after = {r["entry_id"]: r["points"] for r in voided}
        assert (after[1], after[8]) == (before[1] - 40, before[8] + 40)
        assert (await client.get("/api/tournaments/9/standings")).status_code == 404


async def test_rounds_and_pairings_are_computed_once_per_change(
    tmp_path: Path, computed: list[str]
) -> None:
    async with rampart(tmp_path) as (app, client):
        rounds = (await client.get("/api/tournaments/1/rounds")).json()
        assert [r["number"] for r in rounds] == [1, 2]
        second = (await client.get("/api/tournaments/1/rounds/2/pairings")).json()
        assert second == rounds[1]["pairings"] and len(second) == PLAYERS // 2
        assert computed == ["rounds"]
        await changed(
            app,
            insert(TournamentRound).values(id=3, tournament_id=1, number=3, status="running"),
        )
        assert len((await client.get("/api/tournaments/1/rounds")).json()) == 3
        assert computed == ["rounds"] * 2
