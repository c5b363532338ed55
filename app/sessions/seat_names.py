"""Who sits at each seat, by name: the player's account name or the bot and its level, and
the seat's castle name beside it (for the welcome; everyone at a table may know it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, MatchSeat
from app.protocol.match import Bot, Player
from app.sessions.bots import EXTRA_BOT_KINDS, parse_bot_spec
from app.sessions.commands import SeatInfo


class AccountName(NamedTuple):
    """A seated account's name, and whether it is a bot account."""

    name: str
    bot: bool


async def account_names(db: AsyncSession, rows: Iterable[MatchSeat]) -> dict[int, AccountName]:
    """The name of each account seated in ``rows`` (one query), by account id."""
    ids = {row.account_id for row in rows if row.account_id is not None}
    if not ids:
        return {}
    query = select(Account.id, Account.name, Account.bot).where(Account.id.in_(ids))
    result = await db.execute(query)
    return {account_id: AccountName(name, bot) for account_id, name, bot in result.all()}


async def seat_infos(db: AsyncSession, rows: Sequence[MatchSeat]) -> list[SeatInfo]:
    """The match's seats with each seated account's name."""
    names = await account_names(db, rows)
    infos = []
    for row in rows:
        account = names.get(row.account_id) if row.account_id is not None else None
        player, bot_account = (account.name, account.bot) if account else (None, False)
        infos.append(SeatInfo(row.account_id, row.bot, row.name, player, bot_account))
    return infos


def bot_json(spec: str | None) -> Bot | None:
    """A bot seat's kind and level (``{"kind": "heuristic", "level": "hard"}``); None for a
    player's seat. A bot kind without levels (the practice bot) has the level ``normal``."""
    if spec is None:
        return None
    if spec in EXTRA_BOT_KINDS:
        return {"kind": spec, "level": "normal"}
    try:
        kind, level = parse_bot_spec(spec)
    except ValueError:
        kind, level = spec.partition(":")[0], "normal"
    return {"kind": kind, "level": level}


def players_json(seats: Sequence[SeatInfo]) -> list[Player]:
    """Each seat as the welcome tells it: ``{"name", "castle", "bot", "bot_account"}``;
    ``name`` is the player's (None for a server bot or an account whose name is unknown),
    ``bot_account`` true for a bot account (a program playing through the API)."""
    return [
        {
            "name": info.player,
            "castle": info.name,
            "bot": bot_json(info.bot),
            "bot_account": info.bot_account,
        }
        for info in seats
    ]
