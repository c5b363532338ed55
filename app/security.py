"""Passwords (argon2) and bearer tokens (HMAC-signed account id and issue time)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from app.errors import Unauthorized

_hasher = PasswordHasher()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str, password: str) -> bool:
    """Whether ``password`` matches; a malformed hash counts as a mismatch."""
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


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
    ``auth/expired``."""
    parts = token.split(".")
    if len(parts) != 4 or parts[0] != "v1":
        raise Unauthorized("auth/bad_token", "malformed token")
    payload = ".".join(parts[:3])
    if not hmac.compare_digest(_sign(secret, payload), parts[3]):
        raise Unauthorized("auth/bad_token", "bad signature")
    try:
        account_id, issued = int(parts[1]), int(parts[2])
    except ValueError as exc:
        raise Unauthorized("auth/bad_token", "malformed token") from exc
    if time.time() - issued > ttl_s:
        raise Unauthorized("auth/expired", "token expired, log in again")
    return account_id
