"""``POST /api/accounts`` (guest or registered), ``POST /api/sessions`` (log in), ``/me``.

Passwords are hashed and checked off the event loop (``app.security.PasswordWorkers``), after
the limits per name and address (``app.ops.ratelimits``) let the attempt through; names follow
``app.accounts.names``.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from sqlalchemy import update

from app.accounts.names import name_key, player_name
from app.api.deps import CurrentPlayer, GuardDep, LimitsDep, SessionDep, SettingsDep
from app.api.errors import declared
from app.api.routes.notify import MeOut, with_email
from app.api.schemas import AccountOut, Login, NewAccount, Register, TokenOut
from app.db.models import Account
from app.db.repositories import AccountRepository, name_taken
from app.errors import AppError, Conflict, Unauthorized
from app.ops.ratelimits import client_address as edge_address
from app.security import issue_token

router = APIRouter(prefix="/api", tags=["accounts"])


def client_address(request: Request) -> str:
    """The caller's address, an IPv6 one as its /64 (behind a trusted proxy, uvicorn takes it
    from ``X-Forwarded-For``)."""
    return edge_address(request.scope.get("client"))


def account_out(account: Account) -> AccountOut:
    return AccountOut(id=account.id, name=account.name, guest=account.is_guest, bot=account.bot)


@router.post("/accounts", status_code=201, responses=declared(400, 409, 422, 429, 503))
async def create_account(
    body: NewAccount,
    request: Request,
    db: SessionDep,
    settings: SettingsDep,
    guard: GuardDep,
    limits: LimitsDep,
) -> TokenOut:
    """A guest (name only) or a registered player (name + password); returns a bearer token.

    Names are normalised (NFKC, trimmed, inner spaces collapsed) and must have 1-24 visible
    characters in one script, none invisible: ``account/name_invalid`` (422). No two
    accounts, guests included, share a name up to case and width, or hold names that look
    alike (Unicode TR39 confusables): ``account/name_taken`` (409). New accounts of either kind are
    limited per client address (``RAMPART_ACCOUNT_ADDRESS_LIMIT``): ``rate/limited`` (429,
    ``Retry-After``); registrations with a password are throttled per client address too:
    ``auth/rate_limited`` (429, ``Retry-After``).

    ``bot: true`` registers a bot account (a program its author runs through the API): it
    needs a password (``account/bot_needs_password``, 422) and stays a bot account.
    """
    name = player_name(body.name)
    if body.bot and body.password is None:
        text = "a bot account is registered: give it a password"
        raise AppError("account/bot_needs_password", text, status=422)
    address = client_address(request)
    if body.password is None:
        await limits.rates.hit(limits.accounts, address)
    else:
        await limits.rates.hit_all((limits.accounts, address), (limits.registrations, address))
    accounts = AccountRepository(db)
    password_hash = None
    if body.password is not None:
        if await accounts.taken(name):
            raise name_taken(name)
        await db.commit()  # end the read before the (slow) hash; nothing was written
        password_hash = await guard.passwords.hash(body.password)
    account = await accounts.create(name, password_hash, bot=body.bot)
    return TokenOut(token=issue_token(settings.secret, account.id), account=account_out(account))


@router.post("/sessions", responses=declared(400, 401, 422, 429, 503))
async def log_in(
    body: Login,
    request: Request,
    db: SessionDep,
    settings: SettingsDep,
    guard: GuardDep,
    limits: LimitsDep,
) -> TokenOut:
    """Log in a registered player; refuses ``auth/bad_credentials`` (401), and
    ``auth/rate_limited`` (429, ``Retry-After``) when a name or an address tries too often.

    An unknown name costs the same password check as a known one, so neither the answer nor
    its time tells whether a name exists.
    """
    key = name_key(body.name)
    address = client_address(request)
    await limits.rates.hit_all((limits.logins_by_name, key), (limits.logins_by_address, address))
    account = await AccountRepository(db).by_key(key)
    await db.commit()  # end the read before the (slow) check; nothing was written
    stored = account.password_hash if account is not None else None
    matched = await guard.passwords.check(stored, body.password)  # always, even for no one
    if account is None or not matched:
        raise Unauthorized("auth/bad_credentials", "wrong name or password")
    if account.banned:  # told only to whoever knows the password
        raise Unauthorized("auth/banned", "this account is banned")
    return TokenOut(token=issue_token(settings.secret, account.id), account=account_out(account))


@router.get("/accounts/me", responses=declared(401, 503))
async def me(player: CurrentPlayer, db: SessionDep) -> MeOut:
    """The caller's account, with his e-mail address for notifications (``email``)."""
    return await with_email(account_out(player), db)


@router.post("/accounts/me/register", responses=declared(401, 409, 422, 503))
async def register_guest(
    body: Register, player: CurrentPlayer, db: SessionDep, settings: SettingsDep, guard: GuardDep
) -> TokenOut:
    """A guest sets a password and becomes a registered player under the same account: his
    name, matches, ratings and tournaments stay his, and he logs in with the name from now on.
    Refuses ``account/registered`` (409) for an account that already has a password."""
    account_id, name = player.id, player.name
    if not player.is_guest:
        raise Conflict("account/registered", "this account is registered already")
    await db.commit()  # end the read before the (slow) hash; nothing was written
    password_hash = await guard.passwords.hash(body.password)
    # Only while still a guest: of two upgrades at once, one sets the password.
    changed = await db.execute(
        update(Account)
        .where(Account.id == account_id, Account.password_hash.is_(None))
        .values(password_hash=password_hash)
    )
    await db.commit()
    if getattr(changed, "rowcount", 0) != 1:
        raise Conflict("account/registered", "this account is registered already")
    out = AccountOut(id=account_id, name=name, guest=False, bot=False)
    return TokenOut(token=issue_token(settings.secret, account_id), account=out)
