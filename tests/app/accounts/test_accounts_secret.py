"""The token secret in development: made at random on first run, kept beside the database
(mode 0600) and reused; a secret set in the environment wins; outside development a missing
or placeholder secret is refused. A token signed with the old public placeholder is refused."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from app.config import SECRET_FILE_NAME, Settings
from app.security import issue_token
from tests.app.conftest import ServerFactory
from tests.app.support import Api

PUBLIC_PLACEHOLDER = "dev-secret-change-me"


def sqlite_url(folder: Path) -> str:
    return f"sqlite+aiosqlite:///{folder}/rampart.db"


def test_development_makes_a_private_secret_once_and_reuses_it(tmp_path: Path) -> None:
    first = Settings(database_url=sqlite_url(tmp_path)).secret
    kept = tmp_path / SECRET_FILE_NAME
    assert kept.read_text().strip() == first and len(first) >= 40
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert Settings(database_url=sqlite_url(tmp_path)).secret == first
    # A placeholder written out explicitly counts as no secret at all.
    assert Settings(database_url=sqlite_url(tmp_path), secret=PUBLIC_PLACEHOLDER).secret == first
    other = tmp_path / "other"
    assert Settings(database_url=sqlite_url(other)).secret != first


def test_a_configured_secret_wins_and_no_file_is_made(tmp_path: Path) -> None:
    settings = Settings(database_url=sqlite_url(tmp_path), secret="a-real-secret-from-ops")
    assert settings.secret == "a-real-secret-from-ops"
    assert not (tmp_path / SECRET_FILE_NAME).exists()
    chosen = tmp_path / "elsewhere" / "token.secret"
    made = Settings(database_url=sqlite_url(tmp_path), secret_file=str(chosen)).secret
    assert chosen.read_text().strip() == made


@pytest.mark.parametrize("secret", ["", PUBLIC_PLACEHOLDER, "changeme"])
def test_outside_development_a_placeholder_is_refused(tmp_path: Path, secret: str) -> None:
    with pytest.raises(ValueError, match="RAMPART_SECRET"):
        Settings(database_url=sqlite_url(tmp_path), environment="production", secret=secret)
    assert not (tmp_path / SECRET_FILE_NAME).exists()


async def test_a_server_refuses_placeholder_tokens_and_keeps_its_secret_across_restarts(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    server = make_server()
    api = Api(server)
    token = await api.guest("keeper")
    me = (await api.get("/api/accounts/me", token)).json()
    forged = issue_token(PUBLIC_PLACEHOLDER, me["id"])
    refused = await api.get("/api/accounts/me", forged)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "auth/bad_token"
    await api.close()
    server.stop()
    server.start(tmp_path)
    api = Api(server)
    again = await api.get("/api/accounts/me", token)
    assert again.status_code == 200 and again.json()["name"] == "keeper"
    assert (await api.get("/api/accounts/me", forged)).status_code == 401
    await api.close()
    assert stat.S_IMODE((tmp_path / SECRET_FILE_NAME).stat().st_mode) == 0o600
