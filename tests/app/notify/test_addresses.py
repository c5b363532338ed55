"""Players' addresses: registered players add one, verify it through the mailed link, see it
on their account and remove it; guests, malformed addresses and forged links are refused."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs, urlsplit

from tests.app.notify.mailbox import Mailbox, links, text
from tests.app.notify.support import PUBLIC_URL, execute, local, put_email, register, rows
from tests.app.support import Api


async def test_an_address_is_verified_through_the_mailed_link(
    mail_api: Api, mailbox: Mailbox
) -> None:
    name, token = await register(mail_api, "Verifier Vi")
    reply = await put_email(mail_api, token, "Vi@Example.COM")
    assert reply.status_code == 200, reply.text
    assert reply.json() == {"address": "Vi@example.com", "verified": False, "notifications": True}
    (mail,) = await mailbox.wait_for("Vi@example.com", 1)
    assert mail["Subject"] == "Confirm your e-mail address for Rampart"
    assert name in text(mail)
    (link,) = links(mail)
    assert link.startswith(f"{PUBLIC_URL}/api/accounts/email/verify?token=")

    mine = await mail_api.get("/api/accounts/me/email", token)
    assert mine.json()["verified"] is False
    opened = await mail_api.client.get(local(link, mail_api.server))  # no login needed
    assert opened.status_code == 200 and "text/html" in opened.headers["content-type"]
    assert "Address verified" in opened.text
    mine = await mail_api.get("/api/accounts/me/email", token)
    assert mine.json() == {"address": "Vi@example.com", "verified": True, "notifications": True}
    account = (await mail_api.get("/api/accounts/me", token)).json()
    assert account["name"] == name and account["guest"] is False
    assert account["email"] == {
        "address": "Vi@example.com",
        "verified": True,
        "notifications": True,
    }
    again = await mail_api.client.get(local(link, mail_api.server))
    assert again.status_code == 200  # opening it twice does no harm

    # Another address at once: one verification mail a minute.
    soon = await put_email(mail_api, token, "vi2@example.com")
    assert soon.status_code == 429 and soon.json()["error"]["code"] == "email/too_soon"
    assert 1 <= int(soon.headers["retry-after"]) <= 60
    # A minute later: unverified again, and the old link no longer verifies anything.
    execute(mail_api.server, "UPDATE mail_outbox SET created_at = '2000-01-01 00:00:00'")
    assert (await put_email(mail_api, token, "vi2@example.com")).json()["verified"] is False
    stale = await mail_api.client.get(local(link, mail_api.server))
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "email/changed"

    removed = await mail_api.client.delete(
        "/api/accounts/me/email", headers={"authorization": f"Bearer {token}"}
    )
    assert removed.status_code == 204
    gone = await mail_api.get("/api/accounts/me/email", token)
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "email/none"
    assert (await mail_api.get("/api/accounts/me", token)).json()["email"] is None


async def test_guests_malformed_addresses_and_forged_links_are_refused(
    mail_api: Api, mailbox: Mailbox
) -> None:
    guest = await mail_api.guest("Guest Gil")
    refused = await put_email(mail_api, guest, "gil@example.com")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "email/guest"

    _, token = await register(mail_api, "Typo Ty")
    for bad in ("not an address", "ty@", "ty@@example.com", "ty@example..com"):
        reply = await put_email(mail_api, token, bad)
        assert reply.status_code == 422, (bad, reply.text)
        assert reply.json()["error"]["code"] == "email/invalid", bad
    anonymous = await mail_api.client.put("/api/accounts/me/email", json={"address": "t@x.org"})
    assert anonymous.status_code == 401

    assert (await put_email(mail_api, token, "ty@example.com")).status_code == 200
    (mail,) = await mailbox.wait_for("ty@example.com", 1)
    (link,) = links(mail)
    token_of_link = parse_qs(urlsplit(link).query)["token"][0]
    for forged in (token_of_link[:-2] + "xx", "nonsense", token_of_link + "."):
        reply = await mail_api.client.get("/api/accounts/email/verify", params={"token": forged})
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "email/bad_token"
    # A verification token is no unsubscribe token, nor the other way round.
    params = {"token": token_of_link}
    reply = await mail_api.client.get("/api/notify/unsubscribe", params=params)
    assert reply.status_code == 400 and reply.json()["error"]["code"] == "email/bad_token"
    missing = await mail_api.get("/api/accounts/email/verify")
    assert missing.status_code == 422
    # Nothing was verified by any of it.
    (row,) = rows(
        mail_api.server,
        "SELECT verified_at FROM account_emails WHERE address = ?",
        "ty@example.com",
    )
    assert row["verified_at"] is None


async def test_a_mailbox_that_does_not_exist_is_given_up_a_busy_one_tried_again(
    mail_api: Api, mailbox: Mailbox
) -> None:
    server = mail_api.server
    _, lost = await register(mail_api, "Refused Ray")
    _, busy = await register(mail_api, "Busy Bea")
    assert (await put_email(mail_api, lost, "refused@example.com")).status_code == 200
    assert (await put_email(mail_api, busy, "busy@example.com")).status_code == 200
    query = (
        "SELECT o.* FROM mail_outbox o JOIN account_emails e USING (account_id) WHERE e.address = ?"
    )
    async with asyncio.timeout(10):
        # 550: the mail is dropped, never tried again; 451: it waits a minute for another go.
        while rows(server, query, "refused@example.com") or not [
            row
            for row in rows(server, query, "busy@example.com")
            if row["due_at"] > row["created_at"]
        ]:
            await asyncio.sleep(0.05)
    (waiting,) = rows(server, query, "busy@example.com")
    assert waiting["sent_at"] is None and waiting["claimed_at"] is None
    assert mailbox.to("refused@example.com") == mailbox.to("busy@example.com") == []
    assert "refused" in server.log_text() and "Traceback" not in server.log_text()
