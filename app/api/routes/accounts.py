"""``POST /api/accounts`` (guest or registered), ``POST /api/sessions`` (log in), ``/me``."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import CurrentPlayer, SessionDep, SettingsDep
from app.api.schemas import AccountOut, Login, NewAccount, TokenOut
from app.db.models import Account
from app.db.repositories import AccountRepository
from app.errors import Unauthorized
from app.security import hash_password, issue_token, verify_password

router = APIRouter(prefix="/api", tags=["accounts"])


def account_out(account: Account) -> AccountOut:
    return AccountOut(id=account.id, name=account.name, guest=account.is_guest)


@router.post("/accounts", status_code=201)
async def create_account(body: NewAccount, db: SessionDep, settings: SettingsDep) -> TokenOut:
    """A guest (name only) or a registered player (name + password); returns a bearer token.
    Refuses ``account/name_taken`` (409) for a registered name already in use."""
    password_hash = hash_password(body.password) if body.password is not None else None
    account = await AccountRepository(db).create(body.name.strip(), password_hash)
    return TokenOut(token=issue_token(settings.secret, account.id), account=account_out(account))


@router.post("/sessions")
async def log_in(body: Login, db: SessionDep, settings: SettingsDep) -> TokenOut:
    """Log in a registered player; refuses ``auth/bad_credentials`` (401)."""
    account = await AccountRepository(db).by_name(body.name.strip())
    if account is None or account.password_hash is None:
        raise Unauthorized("auth/bad_credentials", "wrong name or password")
    if not verify_password(account.password_hash, body.password):
        raise Unauthorized("auth/bad_credentials", "wrong name or password")
    return TokenOut(token=issue_token(settings.secret, account.id), account=account_out(account))


@router.get("/accounts/me")
async def me(player: CurrentPlayer) -> AccountOut:
    return account_out(player)
