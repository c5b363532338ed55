"""The operator's ``python -m app admin grant|revoke|list``: the admin role, by account name
(matched as logins match names: ``app.accounts.names.name_key``), audited as ``cli``."""

from __future__ import annotations

import asyncio

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.names import name_key
from app.db.engine import create_engine, create_sessionmaker
from app.db.models import Account, AuditRecord


class AdminRefused(Exception):
    """The command cannot be done (no such account); the message says why."""


async def _set_role(db: AsyncSession, name: str, grant: bool) -> Account:
    found = await db.execute(select(Account).where(Account.name_key == name_key(name)))
    account = found.scalars().first()
    if account is None:
        raise AdminRefused(f"no account named {name!r}")
    account.is_admin = grant
    db.add(
        AuditRecord(
            admin_id=None,
            actor="cli",
            action="grant_admin" if grant else "revoke_admin",
            account_id=account.id,
            reason="",
            detail={"name": account.name},
        )
    )
    await db.commit()
    return account


async def _admins(db: AsyncSession) -> list[Account]:
    found = await db.execute(select(Account).where(Account.is_admin.is_(True)).order_by(Account.id))
    return list(found.scalars())


def set_role(database_url: str, name: str, grant: bool) -> Account:
    """Grant (or revoke) the admin role of the account named ``name``."""

    async def run() -> Account:
        engine = create_engine(database_url)
        try:
            async with create_sessionmaker(engine)() as db:
                return await _set_role(db, name, grant)
        finally:
            await engine.dispose()

    return asyncio.run(run())


def admins(database_url: str) -> list[Account]:
    async def run() -> list[Account]:
        engine = create_engine(database_url)
        try:
            async with create_sessionmaker(engine)() as db:
                return await _admins(db)
        finally:
            await engine.dispose()

    return asyncio.run(run())
