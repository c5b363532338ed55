"""The mails of a correspondence match, read off a real SMTP server: "your move" batched per
player (a quick exchange of moves sends one mail; several matches go in one), the reminder 24
hours before a deadline, the result, and the unsubscribe link of each mail."""

from __future__ import annotations

import asyncio

from tests.app.notify.conftest import BATCH_S
from tests.app.notify.mailbox import Mailbox, links, text
from tests.app.notify.support import (
    PUBLIC_URL,
    awaited,
    correspondence_match,
    execute,
    local,
    queued,
    rows,
    verified,
)
from tests.app.support import Api, Client


async def move(client: Client) -> None:
    seq = await client.act({"type": "move", "cell": 0})
    await client.wait_for("ack", client_seq=seq)


async def test_a_quick_exchange_of_moves_sends_one_mail(mail_api: Api, mailbox: Mailbox) -> None:
    ann, ann_token = await verified(mail_api, mailbox, "Quick Ann", "ann@example.com")
    bob, bob_token = await verified(mail_api, mailbox, "Quick Bob", "bob@example.com")
    match_id = await correspondence_match(mail_api, [ann_token, bob_token])
    first = ann_token if await awaited(mail_api, ann_token, match_id) else bob_token
    second = bob_token if first == ann_token else ann_token
    tables = {
        token: await Client(mail_api.server, match_id, token).connect() for token in (first, second)
    }
    # Three moves well within the batching delay: each cancels the mail of its mover.
    await move(tables[first])
    await move(tables[second])
    await move(tables[first])
    last = "bob@example.com" if second == bob_token else "ann@example.com"
    other = "ann@example.com" if last == "bob@example.com" else "bob@example.com"
    (mail,) = (await mailbox.wait_for(last, 2))[1:]  # after the verification mail
    await asyncio.sleep(BATCH_S + 1)  # anything else would have gone by now
    assert len(mailbox.to(last)) == 2 and len(mailbox.to(other)) == 1
    assert mail["Subject"] == "Your move"
    body = text(mail)
    opponent = ann if last == "bob@example.com" else bob
    assert f"Tally (benchmark) #{match_id} against {opponent}: your opponent moved" in body
    assert f"{PUBLIC_URL}/table/{match_id}" in links(mail)
    unsubscribe = mail["List-Unsubscribe"].strip("<>")
    assert unsubscribe.startswith(f"{PUBLIC_URL}/api/notify/unsubscribe?token=")
    assert unsubscribe in links(mail)
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    for table in tables.values():
        await table.close()


async def test_several_matches_awaiting_a_player_make_one_mail(
    mail_api: Api, mailbox: Mailbox
) -> None:
    _, cy = await verified(mail_api, mailbox, "Many Cy", "cy@example.com")
    dee, dee_token = await verified(mail_api, mailbox, "Many Dee", "dee@example.com")
    started = []
    while len(started) < 2:  # matches where Cy moves first (the first seat is drawn)
        match_id = await correspondence_match(mail_api, [cy, dee_token])
        if await awaited(mail_api, cy, match_id):
            started.append(match_id)
        else:  # Dee moves at once: that match awaits Cy too
            table = await Client(mail_api.server, match_id, dee_token).connect()
            await move(table)
            await table.close()
            started.append(match_id)
    (mail,) = (await mailbox.wait_for("cy@example.com", 2))[1:]
    await asyncio.sleep(0.5)
    assert len(mailbox.to("cy@example.com")) == 2
    assert mail["Subject"] == "Your move in 2 matches"
    for match_id in started:
        assert f"{PUBLIC_URL}/table/{match_id}" in links(mail)
        assert f"Tally (benchmark) #{match_id} against {dee}" in text(mail)


async def test_the_reminder_the_result_and_the_unsubscribe_link(
    mail_api: Api, mailbox: Mailbox
) -> None:
    server = mail_api.server
    _, eve_token = await verified(mail_api, mailbox, "Late Eve", "eve@example.com")
    _, fay_token = await verified(mail_api, mailbox, "Late Fay", "fay@example.com")
    match_id = await correspondence_match(mail_api, [eve_token, fay_token])
    waiting, address = (
        (eve_token, "eve@example.com")
        if await awaited(mail_api, eve_token, match_id)
        else (fay_token, "fay@example.com")
    )
    await mailbox.wait_for(address, 2)  # the match started: "your move"
    # The reminder is queued for 24 hours before the deadline (three days a move, match time
    # running as fast as wall time on this server); drive the clock by making it due now.
    await queued(server, "reminder")
    (reminder,) = rows(
        server, "SELECT * FROM mail_outbox WHERE kind = 'reminder' AND match_id = ?", match_id
    )
    assert reminder["sent_at"] is None
    execute(
        server, "UPDATE mail_outbox SET due_at = '2000-01-01 00:00:00' WHERE id = ?", reminder["id"]
    )
    mail = (await mailbox.wait_for(address, 3))[2]
    assert mail["Subject"] == "24 hours left to move"
    assert f"{PUBLIC_URL}/table/{match_id}" in links(mail)

    # The awaited player resigns: both hear the result in one mail each.
    table = await Client(server, match_id, waiting).connect()
    seq = await table.act({"type": "resign"})
    await table.wait_for("ack", client_seq=seq)
    await table.close()
    loser = (await mailbox.wait_for(address, 4))[3]
    winner_address = "fay@example.com" if address == "eve@example.com" else "eve@example.com"
    winner = (await mailbox.wait_for(winner_address, 2))[1]
    assert loser["Subject"].startswith("Match over: You lost")
    assert winner["Subject"].startswith("Match over: You won")
    assert f"{PUBLIC_URL}/matches/{match_id}" in links(winner)
    assert not rows(
        server, "SELECT id FROM mail_outbox WHERE match_id = ? AND sent_at IS NULL", match_id
    )

    # The unsubscribe link works without logging in; no more mails after it.
    link = winner["List-Unsubscribe"].strip("<>")
    page = await mail_api.client.get(local(link, server))
    assert page.status_code == 200 and "Unsubscribed" in page.text
    mine = await mail_api.get(
        "/api/accounts/me/email", eve_token if winner_address.startswith("eve") else fay_token
    )
    assert mine.json()["notifications"] is False
    count = len(mailbox.to(winner_address))
    again = await correspondence_match(mail_api, [eve_token, fay_token])
    await asyncio.sleep(BATCH_S + 1)
    assert len(mailbox.to(winner_address)) == count
    assert again and not rows(
        server,
        "SELECT o.id FROM mail_outbox o JOIN account_emails e USING (account_id) "
        "WHERE e.address = ? AND o.sent_at IS NULL",
        winner_address,
    )


async def test_a_real_time_match_sends_nothing(mail_api: Api, mailbox: Mailbox) -> None:
    _, ivy = await verified(mail_api, mailbox, "Fast Ivy", "ivy@example.com")
    _, jon = await verified(mail_api, mailbox, "Fast Jon", "jon@example.com")
    control = {"turn_ms": 3_600_000, "on_timeout": "pass", "grace_ms": 0}
    match_id = await mail_api.table(
        "tally", [ivy, jon], options={"target": 50}, time_control=control
    )
    first, second = (ivy, jon) if await awaited(mail_api, ivy, match_id) else (jon, ivy)
    await move(await Client(mail_api.server, match_id, first).connect())
    table = await Client(mail_api.server, match_id, second).connect()
    seq = await table.act({"type": "resign"})
    await table.wait_for("ack", client_seq=seq)
    await asyncio.sleep(BATCH_S + 1)
    assert len(mailbox.to("ivy@example.com")) == len(mailbox.to("jon@example.com")) == 1
    assert not rows(mail_api.server, "SELECT id FROM mail_outbox WHERE match_id = ?", match_id)
