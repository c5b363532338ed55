"""Passwords (argon2, hashed off the event loop), bearer tokens (HMAC-signed account id and
issue time), and the development secret kept beside the database."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from app.errors import AppError, Unauthorized

hasher = PasswordHasher()
T = TypeVar("T")


def hash_password(password: str) -> str:
    return hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    """Whether ``password`` matches; a malformed hash counts as a mismatch."""
    try:
        return hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


class PasswordsBusy(AppError):
    """503: more password checks are waiting than the workers' queue holds."""

    status = 503
    headers = {"Retry-After": "1"}

    def __init__(self) -> None:
        super().__init__("server/busy", "too many logins at once; retry in a moment")


class PasswordWorkers:
    """argon2 on a few dedicated threads, never on the event loop nor its default pool.

    At most ``workers`` hashes run at once (each one already uses several cores); up to
    ``queue`` more wait their turn, and beyond that a caller is refused ``server/busy`` (503)
    at once. ``check`` does the same work whether or not the account exists: an unknown name
    is verified against a dummy hash made with the same parameters.
    """

    def __init__(self, workers: int, queue: int) -> None:
        self.workers = max(1, workers)
        self.limit = self.workers + max(0, queue)
        self.executor = ThreadPoolExecutor(self.workers, thread_name_prefix="argon2")
        self.in_flight = 0
        self._dummy: str | None = None
        self._dummy_lock = threading.Lock()

    def _dummy_hash(self) -> str:
        with self._dummy_lock:
            if self._dummy is None:
                self._dummy = hash_password(secrets.token_urlsafe(16))
            return self._dummy

    def _check(self, password_hash: str | None, password: str) -> bool:
        dummy = self._dummy_hash()  # made once, on the first check whatever its kind
        matched = verify_password(password_hash if password_hash is not None else dummy, password)
        return matched and password_hash is not None

    async def _run(self, job: Callable[..., T], *args: Any) -> T:
        if self.in_flight >= self.limit:
            raise PasswordsBusy()
        self.in_flight += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, job, *args)
        finally:
            self.in_flight -= 1

    async def hash(self, password: str) -> str:
        return await self._run(hash_password, password)

    async def check(self, password_hash: str | None, password: str) -> bool:
        """Whether ``password`` matches ``password_hash``; ``None`` (no such account, or a
        guest) never matches but costs one verification all the same."""
        return await self._run(self._check, password_hash, password)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def load_or_create_secret(path: Path) -> str:
    """The secret stored at ``path``, made (32 random bytes, file mode 0600) if missing.

    Processes starting together agree: the new secret is written to a private temporary file
    and linked into place, so a second writer finds the first one's file and reads it.
    """
    try:
        existing = path.read_text().strip()
    except FileNotFoundError:
        existing = ""
    if existing:
        return existing
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(secrets.token_urlsafe(32) + "\n")
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass
    finally:
        temporary.unlink()
    secret = path.read_text().strip()
    if not secret:
        raise RuntimeError(f"{path} is empty: delete it (a new secret is made) or fill it")
    return secret


def _sign(secret: str, payload: str) -> str:
    digest = hmac.new(secret.encode(), payload.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode().rstrip("=")


def issue_token(secret: str, account_id: int, *, now: float | None = None) -> str:
    """A bearer token ``v1.<account>.<issued>.<signature>``; stateless, checked by HMAC."""
    issued = int(now if now is not None else time.time())
    payload = f"v1.{account_id}.{issued}"
    return f"{payload}.{_sign(secret, payload)}"


def read_token(secret: str, token: str, ttl_s: int) -> int:
    """The account id in ``token``; raises ``Unauthorized`` ``auth/bad_token`` or
    ``auth/expired``.

    A token is ASCII: anything else (a header byte above 127, which arrives decoded as
    Latin-1, or a lone surrogate in a socket's JSON) is refused before it reaches the
    signature check, which compares bytes.
    """
    if not token.isascii():
        raise Unauthorized("auth/bad_token", "malformed token")
    parts = token.split(".")
    if len(parts) != 4 or parts[0] != "v1":
        raise Unauthorized("auth/bad_token", "malformed token")
    payload = ".".join(parts[:3])
    if not hmac.compare_digest(_sign(secret, payload).encode(), parts[3].encode()):
        raise Unauthorized("auth/bad_token", "bad signature")
    if not (parts[1].isdigit() and parts[2].isdigit()):
        raise Unauthorized("auth/bad_token", "malformed token")
    account_id, issued = int(parts[1]), int(parts[2])
    if time.time() - issued > ttl_s:
        raise Unauthorized("auth/expired", "token expired, log in again")
    return account_id
