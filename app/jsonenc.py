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


def encode_kept(value: Any) -> bytes:
    """``encode`` for bytes that are kept (a read's cached state): copied to an object of its
    own size. orjson hands back the buffer it wrote into, never shrunk (3.13: 36 bytes of JSON
    hold 4 KiB, 20 KB hold 256 KiB), which is harmless for a message sent and dropped but
    multiplied by every version of every match kept (as a long soak showed)."""
    return bytes(memoryview(encode(value)))


def encode_text(value: Any) -> str:
    """``encode`` as a ``str``."""
    return encode(value).decode()
