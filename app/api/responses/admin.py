"""Admin responses: accounts, reports, audit records, voided and aborted matches."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.api.responses.common import Out, RatingOut
from app.moderation.audit import AuditAction

WHEN = "ISO 8601 (UTC)"


class AdminPlayer(Out):
    """An account as admins see it."""

    id: int = Field(description="the account id")
    name: str = Field(description="its name")
    guest: bool = Field(description="a guest (no password)")
    is_admin: bool = Field(description="it holds the admin role")
    banned: bool = Field(description="it is banned")
    muted_until: str | None = Field(description="muted in chat until, " + WHEN + " (null: not)")
    resigned_in: list[int] | None = Field(
        default=None, description="ban only: the running matches it was resigned from"
    )


class ReportOut(Out):
    """A player's report."""

    id: int = Field(description="the report id")
    reporter_id: int = Field(description="who reported")
    match_id: int = Field(description="the match reported")
    seat: int | None = Field(description="the seat reported (null: none)")
    chat_text: str | None = Field(description="the chat line reported (null: none)")
    reason: str = Field(description="the reporter's words")
    status: Literal["open", "closed"] = Field(description="`open` or `closed`")
    created_at: str = Field(description="when it was made, " + WHEN)
    closed_by: int | None = Field(description="the admin who closed it (null: open)")
    closed_at: str | None = Field(description="when it was closed, " + WHEN + " (null: open)")
    resolution: str | None = Field(description="the admin's resolution (null: open)")


class ReportList(Out):
    """A page of reports."""

    total: int = Field(description="reports of the filter")
    reports: list[ReportOut] = Field(description="this page")


class RatingEventOut(Out):
    """What one rated match did to one ladder entry."""

    ladder_id: int = Field(description="the ladder")
    entry_id: int = Field(description="the ladder entry")
    system: Literal["glicko2", "openskill"] = Field(description="`glicko2` or `openskill`")
    points_before: int = Field(description="ledger points before")
    points_change: int = Field(description="ledger points gained (negative: lost)")
    rating_before: RatingOut = Field(description="the skill rating before")
    rating_after: RatingOut = Field(description="the skill rating after")


class VoidedPairing(Out):
    """A voided tournament table as it was recorded."""

    id: int = Field(description="the pairing id")
    tournament_id: int = Field(description="its tournament")
    placings: list[list[int]] | None = Field(description="entries from first to last")
    changes: dict[str, int] | None = Field(description="ledger changes by entry id")


class VoidOut(Out):
    """What voiding a match reversed."""

    ledger: dict[str, int] | None = Field(description="the match's ledger changes, by seat")
    rating_events: list[RatingEventOut] = Field(description="the rating events removed")
    ladders: list[int] = Field(description="the ladders rebuilt without the match")
    pairing: VoidedPairing | None = Field(description="its tournament table (null: none)")


class VoidedOut(Out):
    """A voided match."""

    match_id: int = Field(description="the match")
    status: Literal["voided"] = Field(description="always `voided`")
    reversed: VoidOut = Field(description="what the void reversed")


class AbortedOut(Out):
    """An aborted match."""

    match_id: int = Field(description="the match")
    status: Literal["aborted", "forwarded"] = Field(
        description="`aborted` (here) or `forwarded` (the process serving it aborts it)"
    )


class AuditDetail(Out):
    """An audit record's detail: the keys of its action (all absent for a ban or an unban)."""

    ledger: dict[str, int] | None = Field(default=None, description="void: the ledger reversed")
    rating_events: list[RatingEventOut] | None = Field(
        default=None, description="void: the rating events removed"
    )
    ladders: list[int] | None = Field(default=None, description="void: the ladders rebuilt")
    pairing: VoidedPairing | None = Field(default=None, description="void: its table")
    until: str | None = Field(
        default=None, description="mute and unmute: muted until, " + WHEN + " (null: unmuted)"
    )
    outcome: Literal["aborted", "forwarded"] | None = Field(
        default=None, description="abort: `aborted` or `forwarded`"
    )
    name: str | None = Field(
        default=None, description="grant_admin and revoke_admin: the account's name"
    )


class AuditOut(Out):
    """One admin action."""

    id: int = Field(description="the record id")
    admin_id: int | None = Field(description="the admin's account (null: the command line)")
    actor: str = Field(description="the admin's name, or `cli` (the command line)")
    action: AuditAction = Field(description="what the admin did")
    account_id: int | None = Field(description="the account acted on (null: none)")
    match_id: int | None = Field(description="the match acted on (null: none)")
    report_id: int | None = Field(description="the report acted on (null: none)")
    reason: str = Field(description="the admin's reason (a closed report: its resolution)")
    detail: AuditDetail = Field(description="what the action changed")
    at: str = Field(description="when, " + WHEN)


class AuditList(Out):
    """A page of the audit log."""

    total: int = Field(description="records of the filter")
    actions: list[AuditOut] = Field(description="this page, newest first")
