"""The outbox in SQL: two senders claiming at once never take the same row (PostgreSQL: FOR
UPDATE SKIP LOCKED), a pending "your move" goes with a due one of the same player, a claim
left by a dead sender is taken again after the lease, a sent row never again."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.__main__ import migrate
from app.db.engine import create_engine, create_sessionmaker
from app.db.mail import OutboxMail
from app.db.models import Account
from app.notify import outbox
from tests.app.conftest import BACKENDS
from tests.app.support import new_pg_database

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize("backend", BACKENDS)
async def test_two_senders_never_claim_the_same_row(backend: str, tmp_path: Path) -> None:
    url = new_pg_database() if backend == "postgres" else f"sqlite+aiosqlite:///{tmp_path}/o.db"
    await asyncio.to_thread(migrate, url)
    engine = create_engine(url)
    sessions = create_sessionmaker(engine)
    try:
        async with sessions() as db:
            accounts = [Account(name=f"Outbox {i}") for i in range(40)]
            db.add_all(accounts)
            await db.flush()
            for account in accounts:
                db.add(
                    OutboxMail(
                        account_id=account.id, kind="over", match_id=1, detail={}, due_at=NOW
                    )
                )
            await db.commit()

        async def sender() -> list[int]:
            taken: list[int] = []
            while True:
                async with sessions() as db:
                    rows = await outbox.claim(db, NOW)
                if not rows:
                    return taken
                taken += [row.id for row in rows]
                await asyncio.sleep(0)

        first, second = await asyncio.gather(sender(), sender())
        assert not set(first) & set(second)
        assert len(first) + len(second) == 40
        async with sessions() as db:
            assert await outbox.claim(db, NOW) == []  # claimed, within the lease
            assert len(await outbox.claim(db, NOW + outbox.LEASE + timedelta(seconds=1))) == 40
            await outbox.mark_sent(db, first + second, NOW)
            assert await outbox.claim(db, NOW + 2 * outbox.LEASE + timedelta(seconds=2)) == []
    finally:
        await engine.dispose()


async def test_a_pending_turn_goes_with_a_due_one_but_a_reminder_waits(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path}/p.db"
    await asyncio.to_thread(migrate, url)
    engine = create_engine(url)
    sessions = create_sessionmaker(engine)
    try:
        async with sessions() as db:
            ann, bob = Account(name="Pending Ann"), Account(name="Pending Bob")
            db.add_all([ann, bob])
            await db.flush()
            later = NOW + timedelta(minutes=4)
            await outbox.queue(db, ann.id, "turn", NOW, match_id=1)
            await outbox.queue(db, ann.id, "turn", later, match_id=2)
            await outbox.queue(db, ann.id, "reminder", later, match_id=3)
            await outbox.queue(db, bob.id, "turn", later, match_id=1)
            await db.commit()
            claimed = await outbox.claim(db, NOW)
        assert sorted((row.kind, row.match_id) for row in claimed) == [("turn", 1), ("turn", 2)]
        assert {row.account_id for row in claimed} == {ann.id}
        async with sessions() as db:
            assert await outbox.next_due(db) is not None
            # A second "your move" for the same match replaces the first; the move cancels it.
            await outbox.queue(db, bob.id, "turn", later, match_id=1)
            await outbox.queue(db, bob.id, "turn", later, match_id=1)
            await db.commit()
            assert len(await outbox.claim(db, later)) == 2  # Bob's one turn, Ann's reminder
    finally:
        await engine.dispose()
