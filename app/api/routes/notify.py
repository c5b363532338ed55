"""E-mail notifications: ``/api/accounts/me/email`` (a registered player's address), the
verification link, and the unsubscribe link every mail carries (no login needed)."""

from __future__ import annotations

import html
from typing import Any

from fastapi import APIRouter, Query, Response
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from sqlalchemy.ext.asyncio import AsyncSession

from app.api.deps import CurrentPlayer, SessionDep, SettingsDep
from app.api.errors import STATUS_MEANING, declared
from app.api.schemas import AccountOut, Body
from app.config import Settings
from app.db.mail import EmailAddress
from app.errors import AppError, Forbidden, NotFound
from app.notify import addresses
from app.notify.addresses import AddressState
from app.notify.links import Links

router = APIRouter(prefix="/api", tags=["accounts"])


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals of a route answering a page (a link opened in a browser): JSON errors,
    as everywhere, where ``declared`` would give them the page's media type."""
    error = {"schema": {"$ref": "#/components/schemas/ErrorOut"}}
    return {
        status: {"description": STATUS_MEANING[status], "content": {"application/json": error}}
        for status in statuses
    }


TOKEN = Query(min_length=1, max_length=1000, description="the token of the mailed link")


class EmailIn(Body):
    address: str = Field(min_length=3, max_length=254)


class NotificationsIn(Body):
    enabled: bool


class EmailOut(BaseModel):
    """A player's address: whether he opened the link mailed to it, and whether he takes
    notifications (only a verified address with notifications on receives them)."""

    address: str
    verified: bool
    notifications: bool


class MeOut(AccountOut):
    """The caller's account, with his e-mail address (None: he has given none)."""

    email: EmailOut | None = None


def email_out(state: AddressState) -> EmailOut:
    return EmailOut(
        address=state.address, verified=state.verified, notifications=state.notifications
    )


async def with_email(account: AccountOut, db: AsyncSession) -> MeOut:
    """``account`` with its e-mail address (``GET /api/accounts/me``)."""
    state = addresses.state_of(await db.get(EmailAddress, account.id))
    return MeOut(**account.model_dump(), email=email_out(state) if state else None)


def _links(settings: Settings) -> Links:
    return Links(settings.secret, settings.public_url)


def _page(title: str, text: str) -> HTMLResponse:
    body = (
        "<!doctype html><html lang=en><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width,initial-scale=1">'
        f"<title>{html.escape(title)} - Rampart</title>"
        f"<main><h1>{html.escape(title)}</h1><p>{html.escape(text)}</p>"
        '<p><a href="/">Rampart</a></p></main></html>'
    )
    return HTMLResponse(body)


@router.get("/accounts/me/email", responses=declared(401, 404, 503))
async def my_email(player: CurrentPlayer, db: SessionDep) -> EmailOut:
    """The caller's address; ``email/none`` (404) if he has given none."""
    state = addresses.state_of(await db.get(EmailAddress, player.id))
    if state is None:
        raise NotFound("email/none", "no e-mail address on this account")
    return email_out(state)


@router.put("/accounts/me/email", responses=declared(400, 401, 403, 422, 429, 503))
async def set_email(
    body: EmailIn, player: CurrentPlayer, db: SessionDep, settings: SettingsDep
) -> EmailOut:
    """Give a registered account an e-mail address for news of its correspondence matches
    (its turn, 24 hours before its time runs out, results). A mail with a link to verify it
    is sent; until then it receives nothing. Refuses ``email/guest`` (403) for a guest,
    ``email/invalid`` (422) for anything but an address, ``email/too_soon`` (429,
    ``Retry-After``) within a minute of the last verification mail, and ``email/unavailable``
    (503) when the server sends no mail (no ``RAMPART_SMTP_URL``)."""
    if player.is_guest:
        raise Forbidden("email/guest", "register (set a password) before giving an address")
    address = addresses.normalised(body.address)
    if not settings.smtp_url.strip():
        raise AppError("email/unavailable", "this server sends no e-mail", status=503)
    return email_out(await addresses.set_address(db, player.id, address))


@router.delete("/accounts/me/email", status_code=204, responses=declared(401, 503))
async def delete_email(player: CurrentPlayer, db: SessionDep) -> Response:
    """Remove the caller's address; mails not sent yet are dropped."""
    await addresses.remove_address(db, player.id)
    return Response(status_code=204)


@router.put("/accounts/me/email/notifications", responses=declared(400, 401, 404, 422, 503))
async def set_notifications(
    body: NotificationsIn, player: CurrentPlayer, db: SessionDep
) -> EmailOut:
    """Turn the caller's mails on or off (an unsubscribe link turns them off);
    ``email/none`` (404) without an address."""
    state = await addresses.set_notifications(db, player.id, body.enabled)
    if state is None:
        raise NotFound("email/none", "no e-mail address on this account")
    return email_out(state)


@router.get(
    "/accounts/email/verify",
    response_class=HTMLResponse,
    responses=refusals(400, 409, 413, 422, 503),
)
async def verify_email(db: SessionDep, settings: SettingsDep, token: str = TOKEN) -> HTMLResponse:
    """The link of the verification mail: marks the address verified and says so. Refuses
    ``email/bad_token`` (400) for a forged or damaged link, ``email/token_expired`` (400)
    after a week, ``email/changed`` (409) when the account has another address now."""
    account_id, address = _links(settings).read_verify(token)
    await addresses.verify(db, account_id, address)
    return _page("Address verified", f"{address} will receive news of your matches.")


@router.get(
    "/notify/unsubscribe", response_class=HTMLResponse, responses=refusals(400, 413, 422, 503)
)
async def unsubscribe(db: SessionDep, settings: SettingsDep, token: str = TOKEN) -> HTMLResponse:
    """The link every notification carries: turns the account's mails off, without
    logging in. Refuses ``email/bad_token`` (400) for a forged or damaged link."""
    await addresses.set_notifications(db, _links(settings).read_unsubscribe(token), False)
    text = "You will receive no more notification mails. Turn them on again from your account."
    return _page("Unsubscribed", text)


@router.post("/notify/unsubscribe", status_code=204, responses=declared(400, 422, 503))
async def unsubscribe_one_click(
    db: SessionDep, settings: SettingsDep, token: str = TOKEN
) -> Response:
    """The one-click unsubscribe of mail programs (RFC 8058, the ``List-Unsubscribe-Post``
    header): the same as opening the link."""
    await addresses.set_notifications(db, _links(settings).read_unsubscribe(token), False)
    return Response(status_code=204)
