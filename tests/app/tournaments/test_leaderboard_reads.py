"""A leaderboard page is read off the board's index, never by sorting the whole ladder, and
pages go no deeper than 10,000 entries."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
from sqlalchemy import Engine, create_engine, insert, text

from app.__main__ import migrate
from app.config import Settings
from app.db.models import Ladder, LadderEntry
from app.main import create_app
from app.tournaments import ladders


def plan(engine: Engine, offset: int) -> str:
    """SQLite's plan for the leaderboard's query, one step a line."""
    query = ladders.leaderboard_query(ladder_id=1, limit=100, offset=offset)
    compiled = query.compile(engine, compile_kwargs={"literal_binds": True})
    with engine.connect() as connection:
        rows = connection.execute(text(f"EXPLAIN QUERY PLAN {compiled}")).all()
    return "\n".join(str(row[-1]) for row in rows)


async def test_a_page_is_read_off_the_index_not_sorted(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/rampart.db"
    await asyncio.to_thread(migrate, url)
    engine = create_engine(f"sqlite:///{tmp_path}/rampart.db")
    with engine.begin() as connection:
        connection.execute(insert(Ladder), [dict(id=1, game="ambush", name="A", kind="game")])
        rows = [
            dict(ladder_id=1, name=f"P{i}", bot="random", points=random.randint(1400, 1600))
            for i in range(300)
        ]
        connection.execute(
            insert(LadderEntry), [{**r, "played": i % 7} for i, r in enumerate(rows)]
        )
    for offset in (0, 200):
        steps = plan(engine, offset)
        assert "ix_ladder_entries_board" in steps and "TEMP B-TREE" not in steps, steps
    engine.dispose()
    app = create_app(Settings(database_url=url))
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://rampart") as client:
            board = (await client.get("/api/ladders/1/entries", params={"limit": 500})).json()
            order = [(-e["points"], -e["played"], e["id"]) for e in board]
            assert len(board) == 300 and order == sorted(order)
            assert [e["rank"] for e in board] == list(range(1, 301))
            page = await client.get("/api/ladders/1/entries", params={"offset": 290})
            assert page.json() == board[290:]
            deep = await client.get("/api/ladders/1/entries", params={"offset": 10_001})
            assert deep.status_code == 422 and deep.json()["error"]["code"] == "request/invalid"
