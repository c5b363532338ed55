"""What stands between a request and a password: the login and registration throttles and the
argon2 workers, one set per process (``app.state.account_guard``)."""

from __future__ import annotations

from app.accounts.throttle import Throttle, TokenBuckets
from app.config import Settings
from app.security import PasswordWorkers


class AccountGuard:
    """``logins.attempt(name_key, address)`` and ``registrations.attempt(address)`` before any
    password is hashed; ``passwords`` hashes and checks them off the event loop."""

    def __init__(self, settings: Settings) -> None:
        self.passwords = PasswordWorkers(settings.password_workers, settings.password_queue)
        self.logins = Throttle(
            "too many login attempts; wait a little before trying again",
            TokenBuckets(settings.login_name_burst, settings.login_name_per_min),
            TokenBuckets(settings.login_address_burst, settings.login_address_per_min),
        )
        self.registrations = Throttle(
            "too many new accounts from this address; wait a little before trying again",
            TokenBuckets(settings.register_address_burst, settings.register_address_per_min),
        )

    def close(self) -> None:
        self.passwords.close()
