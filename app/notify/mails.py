"""What the mails say: the verification of an address, and one digest per player of his
matches awaiting him, his deadlines close to running out and his finished matches."""

from __future__ import annotations

from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from app.notify.links import Links
from app.notify.outbox import Claimed


def _message(sender: str, to: str, subject: str, body: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False)
    message["Message-ID"] = make_msgid(domain="rampart")
    message.set_content(body)
    return message


def verification(sender: str, to: str, name: str, url: str) -> EmailMessage:
    body = (
        f"Hello {name},\n\n"
        f"Someone, hopefully you, gave this address to the Rampart account {name}.\n"
        f"Open this link within a week to confirm it and receive news of your "
        f"correspondence matches:\n\n{url}\n\n"
        f"If it was not you, ignore this mail: nothing will be sent to this address.\n"
    )
    return _message(sender, to, "Confirm your e-mail address for Rampart", body)


def _title(row: Claimed) -> str:
    against = ", ".join(str(name) for name in row.detail.get("opponents", []))
    title = f"{row.detail.get('title', 'Match')} #{row.match_id}"
    return f"{title} against {against}" if against else title


def digest_subject(rows: Sequence[Claimed]) -> str:
    turns = sum(row.kind == "turn" for row in rows)
    reminders = sum(row.kind == "reminder" for row in rows)
    if reminders:
        many = f"24 hours left in {reminders} matches"
        return "24 hours left to move" if reminders == 1 else many
    if turns:
        return "Your move" if turns == 1 else f"Your move in {turns} matches"
    over = [row for row in rows if row.kind == "over"]
    if len(over) == 1:
        return f"Match over: {over[0].detail.get('result', '')}"
    return f"{len(over)} matches over"


def digest(
    sender: str, to: str, name: str, rows: Sequence[Claimed], links: Links, unsubscribe: str
) -> EmailMessage:
    """One mail telling ``name`` everything in ``rows`` (kinds ``turn``, ``reminder``,
    ``over``), with the unsubscribe link in its text and its ``List-Unsubscribe`` header."""
    lines = [f"Hello {name},", ""]
    reminders = [row for row in rows if row.kind == "reminder"]
    turns = [row for row in rows if row.kind == "turn"]
    over = [row for row in rows if row.kind == "over"]
    if reminders:
        lines.append("Less than 24 hours left before your time runs out:")
        for row in reminders:
            deadline = row.detail.get("deadline", "")
            lines.append(f"- {_title(row)}: move by {deadline} (UTC)")
            lines.append(f"  {links.table_url(row.match_id or 0)}")
        lines.append("")
    if turns:
        lines.append("These matches await your move:")
        for row in turns:
            what = "the match started" if row.detail.get("started") else "your opponent moved"
            lines.append(f"- {_title(row)}: {what}")
            lines.append(f"  {links.table_url(row.match_id or 0)}")
        lines.append("")
    if over:
        lines.append("Finished:")
        for row in over:
            lines.append(f"- {_title(row)}: {row.detail.get('result', 'over')}")
            lines.append(f"  {links.match_url(row.match_id or 0)}")
        lines.append("")
    lines.append("You receive this because you asked for news of your correspondence matches.")
    lines.append(f"To receive no more of these mails: {unsubscribe}")
    message = _message(sender, to, digest_subject(rows), "\n".join(lines) + "\n")
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message
