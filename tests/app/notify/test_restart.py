"""The outbox outlives the process: a mail due while the server was down is sent, once, after
it starts again."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.app.conftest import ServerFactory
from tests.app.notify.conftest import mailing_env
from tests.app.notify.mailbox import Mailbox
from tests.app.notify.support import correspondence_match, execute, rows, verified
from tests.app.support import Api


async def test_a_mail_due_before_a_restart_is_sent_after_it(
    make_server: ServerFactory, mailbox: Mailbox, tmp_path: Path
) -> None:
    server = make_server(**mailing_env(mailbox, batch_s=3600))  # "your move" waits an hour
    api = Api(server)
    _, gus = await verified(api, mailbox, "Restart Gus", "gus@example.com")
    _, hal = await verified(api, mailbox, "Restart Hal", "hal@example.com")
    match_id = await correspondence_match(api, [gus, hal])
    async with asyncio.timeout(10):
        while not rows(server, "SELECT id FROM mail_outbox WHERE kind = 'turn'"):
            await asyncio.sleep(0.05)
    await api.close()
    server.stop()
    (turn,) = rows(server, "SELECT * FROM mail_outbox WHERE kind = 'turn'")
    assert turn["sent_at"] is None and turn["match_id"] == match_id
    # The hour passed while the server was down.
    execute(
        server, "UPDATE mail_outbox SET due_at = '2000-01-01 00:00:00' WHERE id = ?", turn["id"]
    )
    (owner,) = rows(
        server, "SELECT address FROM account_emails WHERE account_id = ?", turn["account_id"]
    )
    address = owner["address"]
    server.start(tmp_path)
    (mail,) = (await mailbox.wait_for(address, 2))[1:]
    assert mail["Subject"] == "Your move"
    await asyncio.sleep(1)  # several passes of the sender: still one mail
    assert len(mailbox.to(address)) == 2
    (sent,) = rows(server, "SELECT sent_at FROM mail_outbox WHERE id = ?", turn["id"])
    assert sent["sent_at"] is not None
