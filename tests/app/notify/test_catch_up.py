"""The mails a hard crash left unqueued: a move (or a result) made durable, its "your move"
(or "match over") row never written. Start-up queues each one once, for a match awake or
asleep, and leaves older news alone."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.app.conftest import ServerFactory
from tests.app.notify.conftest import mailing_env
from tests.app.notify.mailbox import Mailbox, text
from tests.app.notify.support import awaited, correspondence_match, execute, rows, verified
from tests.app.support import Api, Client, Server

ADDRESSES = {"Lost Ivy": "ivy@example.com", "Lost Jon": "jon@example.com"}


async def move(server: Server, token: str, match_id: int, *, stay: bool = False) -> Client:
    client = await Client(server, match_id, token).connect()
    seq = await client.act({"type": "move", "cell": 0})
    await client.wait_for("ack", client_seq=seq)
    if not stay:
        await client.close()
    return client


def crash_leftovers(server: Server, match_ids: list[int], kinds: tuple[str, ...]) -> None:
    """What SIGKILL between the durable move and its outbox write leaves: no row of these
    kinds about these matches."""
    matches, kinds_in = ",".join("?" * len(match_ids)), ",".join("?" * len(kinds))
    query = f"DELETE FROM mail_outbox WHERE match_id IN ({matches}) AND kind IN ({kinds_in})"
    execute(server, query, *match_ids, *kinds)


def sent(server: Server, kind: str) -> set[tuple[int, int]]:
    query = "SELECT account_id, match_id FROM mail_outbox WHERE kind = ? AND sent_at IS NOT NULL"
    return {(row["account_id"], row["match_id"]) for row in rows(server, query, kind)}


def reminder_in(server: Server, match_id: int) -> timedelta:
    """How long from now the match's queued reminder falls due."""
    query = "SELECT due_at FROM mail_outbox WHERE kind = 'reminder' AND match_id = ?"
    (row,) = rows(server, query, match_id)
    due = datetime.fromisoformat(row["due_at"])
    return (due if due.tzinfo else due.replace(tzinfo=UTC)) - datetime.now(UTC)


async def restart(server: Server, tmp_path: Path, **env: str) -> None:
    server.stop()
    server.env.update(env)
    server.start(tmp_path)


async def test_start_up_queues_the_mails_a_crash_left_unqueued_once(
    make_server: ServerFactory, mailbox: Mailbox, tmp_path: Path
) -> None:
    # Matches idle for 0.5 s fall asleep on this first run.
    server = make_server(**mailing_env(mailbox, batch_s=3600), RAMPART_HIBERNATE_AFTER_S="0.5")
    api = Api(server)
    players = {name: await verified(api, mailbox, name, a) for name, a in ADDRESSES.items()}
    tokens = [token for _, token in players.values()]
    ids = {
        token: int(rows(server, "SELECT id FROM accounts WHERE name = ?", name)[0]["id"])
        for name, (_, token) in players.items()
    }
    owners = {ids[token]: ADDRESSES[name] for name, (_, token) in players.items()}
    asleep, awake, old, over = [await correspondence_match(api, tokens) for _ in range(4)]
    waiting: dict[int, int] = {}  # match -> the account its first move made it await
    kept: list[Client] = []
    for match_id in (asleep, awake, old):
        first = tokens[0] if await awaited(api, tokens[0], match_id) else tokens[1]
        second = tokens[1] if first == tokens[0] else tokens[0]
        kept.append(await move(server, first, match_id, stay=match_id == awake))
        waiting[match_id] = ids[second]
    resigner = await Client(server, over, tokens[0]).connect()
    await resigner.act({"type": "resign"})
    await resigner.wait_for("ended")
    await resigner.close()
    async with asyncio.timeout(10):
        while not rows(server, "SELECT 1 FROM match_wakeups WHERE match_id = ?", asleep):
            await asyncio.sleep(0.05)
        while len(rows(server, "SELECT 1 FROM mail_outbox WHERE kind = 'over'")) < 2:
            await asyncio.sleep(0.05)
    await api.close()
    server.stop()
    for client in kept:
        await client.close()
    assert not rows(server, "SELECT 1 FROM match_wakeups WHERE match_id = ?", awake)
    crash_leftovers(server, [asleep, awake, old], ("turn", "reminder"))
    crash_leftovers(server, [over], ("over",))
    # The old match's last move was two days ago: old news, not mailed.
    execute(
        server,
        "UPDATE match_actions SET created_at = datetime('now', '-2 days') WHERE match_id = ?",
        old,
    )
    # The sleeping match started 12 hours earlier: its kept clock has 2.5 days left, not 3.
    execute(
        server,
        "UPDATE matches SET started_wall_ms = started_wall_ms - ? WHERE id = ?",
        12 * 3600 * 1000,
        asleep,
    )
    before = {address: len(mailbox.to(address)) for address in ADDRESSES.values()}

    await restart(server, tmp_path, RAMPART_MAIL_BATCH_S="0.5", RAMPART_HIBERNATE_AFTER_S="300")
    turns = {(waiting[asleep], asleep), (waiting[awake], awake)}
    results = {(account_id, over) for account_id in owners}
    async with asyncio.timeout(15):
        while sent(server, "turn") != turns or sent(server, "over") != results:
            assert not sent(server, "turn") - turns
            await asyncio.sleep(0.05)
    # The reminders fall due 24 hours before each deadline, by the clocks of each match.
    assert abs(reminder_in(server, awake) - timedelta(hours=48)) < timedelta(minutes=5)
    assert abs(reminder_in(server, asleep) - timedelta(hours=36)) < timedelta(minutes=5)
    # One mail each (everything pending for a player goes in one), naming his matches only.
    for account_id, address in owners.items():
        (mail,) = mailbox.to(address)[before[address] :]
        body = text(mail)
        named = {m for m in (asleep, awake, old, over) if f"#{m} " in body}
        assert named == {over} | {m for a, m in turns if a == account_id}, body

    # A second start finds every player told: nothing more.
    told = {address: len(mailbox.to(address)) for address in ADDRESSES.values()}
    await restart(server, tmp_path)
    await asyncio.sleep(1.5)
    assert {address: len(mailbox.to(address)) for address in ADDRESSES.values()} == told
