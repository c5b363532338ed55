"""The bounded REST input layer: every integer, string and free-form value a request carries
(path, query or body) is typed here once, with bounds, so nothing out of range reaches the
database or the engines; a value outside them is a 422 ``request/invalid``, never a 500."""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import AfterValidator, BeforeValidator, Field

# Row ids, versions and seat counts are 32-bit INTEGER columns on PostgreSQL (SQLite would take
# 64 bits; the narrower bound holds on both), so a larger number cannot name anything.
ID_MAX = 2**31 - 1
VERSION_MAX = 2**31 - 1
OFFSET_MAX = 2**31 - 1
SEAT_MAX = 15  # seat numbers of a table of at most 16 seats (``NewLobby.seats``)
ROUND_MAX = 64  # the most rounds a tournament plays (``NewTournament.rounds``)
SHORT_TEXT = 32  # game ids, bot kinds, statuses, invite codes: String(32) columns
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}")

# -- path parameters ---------------------------------------------------------------------------
IdPath = Annotated[int, Path(ge=1, le=ID_MAX, description="a row id (1..2^31-1)")]
RoundPath = Annotated[int, Path(ge=1, le=ROUND_MAX, description="a round number (1..64)")]
GamePath = Annotated[str, Path(min_length=1, max_length=SHORT_TEXT, description="a game id")]

# -- query parameters --------------------------------------------------------------------------
IdQuery = Annotated[int | None, Query(ge=1, le=ID_MAX, description="an account id")]
SeatQuery = Annotated[
    int | None, Query(ge=0, le=SEAT_MAX, description="which of your seats to view as")
]
VersionQuery = Annotated[
    int | None, Query(ge=0, le=VERSION_MAX, description="a version (default: the latest)")
]
Offset = Annotated[int, Query(ge=0, le=OFFSET_MAX, description="rows to skip")]
GameQuery = Annotated[str | None, Query(max_length=SHORT_TEXT, description="a game id")]


def iso_text(value: Any) -> Any:
    """Only ISO 8601 text is an instant here (pydantic would also read ``0.5`` as seconds
    since 1970, which the schema's ``date-time`` does not allow)."""
    if isinstance(value, str) and not ISO_DATE.match(value):
        raise ValueError("an ISO 8601 date-time, such as 2026-01-31T12:00:00Z")
    return value


def in_utc(moment: datetime | None) -> datetime | None:
    """``moment`` in UTC (naive means UTC), refused when UTC has no such instant: year 1 at
    +01:00 or year 9999 at -01:00 would overflow where the database converts it."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise ValueError("the instant lies outside years 1-9999 in UTC") from None


MomentQuery = Annotated[
    datetime | None,
    Query(description="an ISO 8601 instant"),
    BeforeValidator(iso_text),
    AfterValidator(in_utc),
]
StatusQuery = Annotated[str | None, Query(max_length=16, description="a status")]


# -- body fields -------------------------------------------------------------------------------
BodyId = Annotated[int, Field(ge=1, le=ID_MAX)]
BodySeat = Annotated[int, Field(ge=0, le=SEAT_MAX)]
ShortText = Annotated[str, Field(min_length=1, max_length=SHORT_TEXT)]

# Free-form JSON (table options) is bounded in size and shape: it is stored, sent to every
# lobby subscriber and handed to an engine, which should never see a 10^30, a NaN, a lone
# surrogate or a list nested a thousand deep.
OPTION_KEYS_MAX = 32
OPTION_KEY_LENGTH = 40
OPTION_DEPTH_MAX = 4
OPTION_ITEMS_MAX = 512  # every value counted, nested ones included
OPTION_TEXT_MAX = 200
OPTIONS_BYTES_MAX = 16 * 1024  # as JSON
SAFE_INT = 2**53 - 1  # integers JSON clients (browsers) read exactly


def _check_text(text: str, where: str) -> None:
    if len(text) > OPTION_TEXT_MAX:
        raise ValueError(f"{where}: strings are at most {OPTION_TEXT_MAX} characters")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{where}: not valid Unicode (a lone surrogate)") from None


def _check_value(value: Any, where: str, depth: int, budget: list[int]) -> None:
    budget[0] -= 1
    if budget[0] < 0:
        raise ValueError(f"options hold at most {OPTION_ITEMS_MAX} values in all")
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        if not -SAFE_INT <= value <= SAFE_INT:
            raise ValueError(f"{where}: integers lie within ±(2^53-1)")
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where}: numbers must be finite")
    elif isinstance(value, str):
        _check_text(value, where)
    elif isinstance(value, list | dict):
        if depth >= OPTION_DEPTH_MAX:
            raise ValueError(f"{where}: nested more than {OPTION_DEPTH_MAX} deep")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            if isinstance(key, str):
                _check_text(key, where)
            _check_value(item, f"{where}.{key}", depth + 1, budget)
    else:
        raise ValueError(f"{where}: not a JSON value")


def bounded_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` if it is small, finite JSON: at most 32 keys of 1-40 characters, nesting 4
    deep, 512 values, strings of 200 characters, integers within ±(2^53-1), no NaN, 16 KiB
    as JSON in all."""
    if len(options) > OPTION_KEYS_MAX:
        raise ValueError(f"at most {OPTION_KEYS_MAX} options")
    for key in options:
        if not 1 <= len(key) <= OPTION_KEY_LENGTH:
            raise ValueError(f"option names are 1-{OPTION_KEY_LENGTH} characters")
    _check_value(options, "options", 0, [OPTION_ITEMS_MAX + 1])
    if len(json.dumps(options)) > OPTIONS_BYTES_MAX:
        raise ValueError(f"options take at most {OPTIONS_BYTES_MAX} bytes of JSON")
    return options


Options = Annotated[
    dict[str, Any],
    Field(max_length=OPTION_KEYS_MAX, description="table options (see the game's rules)"),
    AfterValidator(bounded_options),
]
