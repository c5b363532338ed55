"""The operator's SMTP server (``RAMPART_SMTP_URL``), and sending one mail through it."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

import aiosmtplib

TRUE = frozenset({"1", "true", "yes", "on"})


@dataclass(frozen=True)
class SmtpServer:
    """Where and how to send: ``smtp://[user:pass@]host[:port][?starttls=1]`` (port 25 by
    default; ``starttls`` upgrades the plain connection to TLS), or ``smtps://`` (TLS from
    the first byte, port 465 by default). ``timeout_s``: how long one mail may take."""

    host: str
    port: int
    username: str | None = None
    password: str | None = None
    tls: bool = False
    starttls: bool = False
    timeout_s: float = 30.0

    @classmethod
    def parse(cls, url: str) -> SmtpServer:
        """Raises ``ValueError`` naming ``RAMPART_SMTP_URL`` for a URL it cannot use."""
        parts = urlsplit(url.strip())
        if parts.scheme not in ("smtp", "smtps"):
            raise ValueError("RAMPART_SMTP_URL must start with smtp:// or smtps://")
        if not parts.hostname:
            raise ValueError("RAMPART_SMTP_URL has no host")
        try:
            port = parts.port
        except ValueError as error:
            raise ValueError(f"RAMPART_SMTP_URL: {error}") from error
        query = parse_qs(parts.query)
        unknown = set(query) - {"starttls", "timeout"}
        if unknown:
            raise ValueError(f"RAMPART_SMTP_URL: unknown options {sorted(unknown)}")
        tls = parts.scheme == "smtps"
        starttls = query.get("starttls", ["0"])[-1].lower() in TRUE
        if tls and starttls:
            raise ValueError("RAMPART_SMTP_URL: smtps:// is TLS already; drop starttls")
        try:
            timeout_s = float(query.get("timeout", ["30"])[-1])
        except ValueError as error:
            raise ValueError("RAMPART_SMTP_URL: timeout must be a number of seconds") from error
        return cls(
            host=parts.hostname,
            port=port or (465 if tls else 25),
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=tls,
            starttls=starttls,
            timeout_s=timeout_s,
        )

    async def send(self, message: EmailMessage) -> None:
        """Send one mail; raises ``aiosmtplib.SMTPException`` or ``OSError`` if it could
        not be handed to the server."""
        await aiosmtplib.send(
            message,
            hostname=self.host,
            port=self.port,
            username=self.username,
            password=self.password,
            use_tls=self.tls,
            start_tls=self.starttls,
            timeout=self.timeout_s,
        )


def refused_for_good(error: Exception) -> bool:
    """Whether the server refused the mail with a permanent (5xx) answer, for its sender or
    every recipient: sending it again would only be refused again."""
    if isinstance(error, aiosmtplib.SMTPRecipientsRefused):
        return bool(error.recipients) and all(r.code >= 500 for r in error.recipients)
    return isinstance(error, aiosmtplib.SMTPResponseException) and error.code >= 500
