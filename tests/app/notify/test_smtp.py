"""``RAMPART_SMTP_URL`` read into where and how to send, and sending through a real server."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from app.notify.smtp import SmtpServer
from tests.app.notify.mailbox import Mailbox, text


def test_the_url_forms() -> None:
    assert SmtpServer.parse("smtp://mail.example") == SmtpServer("mail.example", 25)
    assert SmtpServer.parse("smtps://mail.example") == SmtpServer("mail.example", 465, tls=True)
    upgraded = SmtpServer.parse("smtp://bot%40example.org:p%3Ass@mail.example:587?starttls=1")
    assert upgraded == SmtpServer(
        "mail.example", 587, username="bot@example.org", password="p:ss", starttls=True
    )
    assert SmtpServer.parse("smtp://h:25?timeout=5").timeout_s == 5.0


@pytest.mark.parametrize(
    "url",
    [
        "http://mail.example",
        "smtp://",
        "smtp://mail.example:99999",
        "smtps://mail.example?starttls=1",
        "smtp://mail.example?tls=yes",
        "smtp://mail.example?timeout=soon",
    ],
)
def test_a_url_it_cannot_use_is_refused_by_name(url: str) -> None:
    with pytest.raises(ValueError, match="RAMPART_SMTP_URL"):
        SmtpServer.parse(url)


async def test_a_mail_reaches_the_server(mailbox: Mailbox) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "r@x.org", "smtp@example.com", "Hi"
    message.set_content("Plain words.")
    await SmtpServer.parse(mailbox.url).send(message)
    (got,) = await mailbox.wait_for("smtp@example.com", 1)
    assert got["Subject"] == "Hi" and text(got).strip() == "Plain words."
