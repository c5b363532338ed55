"""Tokens, passwords and the secret the settings insist on."""

from __future__ import annotations

import time

import pytest
from pydantic import ValidationError

from app.config import Settings
from app.errors import Unauthorized
from app.security import hash_password, issue_token, read_token, verify_password


def test_settings_refuse_placeholder_secret_outside_development() -> None:
    with pytest.raises(ValidationError):
        Settings(environment="production", secret="dev-secret-change-me")
    assert Settings(environment="production", secret="a-real-secret-of-some-length").secret


def test_token_round_trip_and_tampering() -> None:
    token = issue_token("s3cret", 42)
    assert read_token("s3cret", token, 60) == 42
    with pytest.raises(Unauthorized) as bad:
        read_token("other", token, 60)
    assert bad.value.code == "auth/bad_token"
    old = issue_token("s3cret", 42, now=time.time() - 120)
    with pytest.raises(Unauthorized) as expired:
        read_token("s3cret", old, 60)
    assert expired.value.code == "auth/expired"


def test_password_hashing_uses_argon2() -> None:
    hashed = hash_password("correct horse")
    assert hashed.startswith("$argon2")
    assert verify_password(hashed, "correct horse")
    assert not verify_password(hashed, "wrong horse")
    assert not verify_password("not a hash", "x")
