"""Compact JSON for the wire, the action log and the database: one encoder, the same bytes."""

from __future__ import annotations

from typing import Any

import orjson


def encode(value: Any) -> bytes:
    """``value`` as compact JSON. Keys that are not strings (an engine's int-keyed map) are
    written as strings, as ``json.dumps`` writes them. orjson's option for that doubles the
    cost of every dict, so only a value that needs it pays: the first try refuses it."""
    try:
        return orjson.dumps(value)
    except orjson.JSONEncodeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def encode_text(value: Any) -> str:
    """``encode`` as a ``str``."""
    return encode(value).decode()
