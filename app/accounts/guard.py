"""What stands between a request and a password: the argon2 workers, one set per process
(``Services.account_guard``). The limits on logins and registrations are
``app.ops.ratelimits.EdgeLimits``'s, checked before any password is hashed."""

from __future__ import annotations

from app.config import Settings
from app.security import PasswordWorkers


class AccountGuard:
    """``passwords`` hashes and checks passwords off the event loop."""

    def __init__(self, settings: Settings) -> None:
        self.passwords = PasswordWorkers(settings.password_workers, settings.password_queue)

    def close(self) -> None:
        self.passwords.close()
