"""Without ``RAMPART_SMTP_URL`` nothing is queued or sent, and nothing fails: addresses are
refused with a clear code, and correspondence matches play as ever."""

from __future__ import annotations

from tests.app.notify.support import (
    awaited,
    correspondence_match,
    execute,
    put_email,
    register,
    rows,
)
from tests.app.support import Api, Client, Server


async def test_no_smtp_server_no_mail_and_no_error(api: Api, shared_server: Server) -> None:
    name, ann = await register(api, "Quiet Ann")
    refused = await put_email(api, ann, "quiet@example.com")
    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "email/unavailable"
    _, bob = await register(api, "Quiet Bob")
    # Addresses kept from a time the server had an SMTP server: verified, notifications on.
    for token in (ann, bob):
        me = (await api.get("/api/accounts/me", token)).json()
        execute(
            shared_server,
            "INSERT INTO account_emails (account_id, address, verified_at, notifications, "
            "created_at) VALUES (?, ?, '2026-01-01 00:00:00', 1, '2026-01-01 00:00:00')",
            me["id"],
            f"quiet{me['id']}@example.com",
        )
    match_id = await correspondence_match(api, [ann, bob])
    first, second = (ann, bob) if await awaited(api, ann, match_id) else (bob, ann)
    table = await Client(shared_server, match_id, first).connect()
    seq = await table.act({"type": "move", "cell": 0})
    await table.wait_for("ack", client_seq=seq)
    other = await Client(shared_server, match_id, second).connect()
    seq = await other.act({"type": "resign"})
    await other.wait_for("ack", client_seq=seq)
    await table.wait_for("ended")
    ended = await api.get(f"/api/matches/{match_id}")
    assert ended.json()["status"] == "finished", ended.text
    assert rows(shared_server, "SELECT * FROM mail_outbox") == []
    assert name and "Traceback" not in shared_server.log_text()
