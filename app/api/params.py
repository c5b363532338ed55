"""The bounded REST input layer: every integer, string and free-form value a request carries
(path, query or body) is typed here once, with bounds, so nothing out of range reaches the
database or the engines; a value outside them is a 422 ``request/invalid``, never a 500."""

from __future__ import annotations

import json
import math
from datetime import datetime
from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import AfterValidator, BeforeValidator, Field, WithJsonSchema

from app.api.instants import rfc3339_instant

# Row ids, versions and seat counts are 32-bit INTEGER columns on PostgreSQL (SQLite would take
# 64 bits; the narrower bound holds on both), so a larger number cannot name anything.
ID_MAX = 2**31 - 1
VERSION_MAX = 2**31 - 1
OFFSET_MAX = 2**31 - 1
SEAT_MAX = 15  # seat numbers of a table of at most 16 seats (``NewLobby.seats``)
ROUND_MAX = 64  # the most rounds a tournament plays (``NewTournament.rounds``)
SHORT_TEXT = 32  # game ids, bot kinds, statuses, invite codes: String(32) columns

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


def instant_text(value: Any) -> Any:
    """An instant is RFC 3339 text, exactly what the schema's ``date-time`` format takes
    (``app.api.instants``: an offset is required; pydantic alone would also read ``0.5`` as
    seconds since 1970, and refuse year 1 at +02:03, which the format allows)."""
    if isinstance(value, str):
        return rfc3339_instant(value)
    return value


MomentQuery = Annotated[
    datetime | None,
    Query(description="an RFC 3339 instant, such as 2026-01-31T12:00:00Z"),
    BeforeValidator(instant_text),
]


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
        # An integral number is an integer to the schema (1e300 too), bounded as one; any
        # number with a fraction is already within the bound.
        if not (math.isfinite(value) and -SAFE_INT <= value <= SAFE_INT):
            raise ValueError(f"{where}: numbers are finite and within ±(2^53-1)")
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


def option_value_schema(depth: int) -> dict[str, Any]:
    """The JSON schema of an option's value nested ``depth`` deep (1: a top-level option's),
    as ``_check_value`` bounds it: null, a boolean, a number within ±(2^53-1), a string of at
    most 200 characters, or, above the deepest level, a list or object of such values."""
    choices: list[dict[str, Any]] = [
        {"type": "null"},
        {"type": "boolean"},
        {"type": "number", "minimum": -SAFE_INT, "maximum": SAFE_INT},
        {"type": "string", "maxLength": OPTION_TEXT_MAX},
    ]
    if depth < OPTION_DEPTH_MAX:
        inner = option_value_schema(depth + 1)
        choices.append({"type": "array", "items": inner})
        choices.append(
            {
                "type": "object",
                "propertyNames": {"maxLength": OPTION_TEXT_MAX},
                "additionalProperties": inner,
            }
        )
    return {"anyOf": choices}


OPTIONS_SCHEMA = {
    "type": "object",
    "description": "table options (see the game's rules); besides these bounds, at most "
    f"{OPTION_ITEMS_MAX} values and {OPTIONS_BYTES_MAX} bytes of JSON in all",
    "maxProperties": OPTION_KEYS_MAX,
    "propertyNames": {"minLength": 1, "maxLength": OPTION_KEY_LENGTH},
    "additionalProperties": option_value_schema(1),
}

Options = Annotated[
    dict[str, Any],
    Field(max_length=OPTION_KEYS_MAX),
    AfterValidator(bounded_options),
    WithJsonSchema(OPTIONS_SCHEMA),
]
