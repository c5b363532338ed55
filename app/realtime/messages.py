"""The closed set of client-to-server message types, parsed in one place."""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, NamedTuple

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError


class MessageError(Exception):
    """A message we refuse before it reaches a session; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Message):
    type: Literal["hello"]
    token: str | None = None
    last_version: int | None = Field(default=None, ge=0)
    seat: int | None = Field(default=None, ge=0)


class Action(_Message):
    type: Literal["action"]
    client_seq: int = Field(ge=0)
    action: dict[str, Any]
    seat: int | None = None
    version: int | None = None


class Grab(_Message):
    type: Literal["grab"]
    client_seq: int = Field(ge=0)
    cell: Any
    ref: int | None = None
    dt: float | None = None
    seat: int | None = None


class Pong(_Message):
    type: Literal["pong"]
    nonce: int | str


class Chat(_Message):
    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=500)


ClientMessage = Annotated[Hello | Action | Grab | Pong | Chat, Field(discriminator="type")]
MESSAGE_TYPES = frozenset({"hello", "action", "grab", "pong", "chat"})
_adapter: TypeAdapter[Hello | Action | Grab | Pong | Chat] = TypeAdapter(ClientMessage)


class PlainAction(NamedTuple):
    """An action message's fields, for the hot path (see ``plain_action``)."""

    client_seq: int
    action: dict[str, Any]
    seat: int | None
    version: int | None


def plain_action(text: str) -> PlainAction | None:
    """An action message when it is plainly valid, as its fields: no pydantic model is built
    (constructing one costs more than all the rest of a move's parsing). Anything unusual
    returns None and takes ``parse_client_message``, so refusals and their codes are the
    validator's in every case."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or data.get("type") != "action" or not data.keys() <= _ACTION_KEYS:
        return None
    seq, action = data.get("client_seq"), data.get("action")
    seat, version = data.get("seat"), data.get("version")
    if (
        type(seq) is int
        and seq >= 0
        and type(action) is dict
        and (seat is None or type(seat) is int)
        and (version is None or type(version) is int)
    ):
        return PlainAction(seq, action, seat, version)
    return None


_ACTION_KEYS = frozenset({"type", "client_seq", "action", "seat", "version"})


_PONG_HEAD = '{"type":"pong","nonce":'


def pong_nonce(text: str) -> int | None:
    """The nonce of a pong written exactly as our clients write it, else None (then the
    message takes ``parse_client_message``). Pongs are most of an Ambush! table's traffic:
    every socket answers a ping every 250 ms."""
    if text.startswith(_PONG_HEAD) and text.endswith("}"):
        digits = text[len(_PONG_HEAD) : -1]
        if digits.isascii() and digits.isdigit() and len(digits) < 19:
            return int(digits)
    return None


def parse_client_message(text: str) -> Hello | Action | Grab | Pong | Chat:
    """Parse one message; raises ``MessageError`` with ``message/bad_json``,
    ``message/unknown_type`` or ``message/invalid``."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise MessageError("message/bad_json", "message is not valid JSON") from exc
    if not isinstance(data, dict):
        raise MessageError("message/bad_json", "message must be a JSON object")
    kind = data.get("type")
    if kind not in MESSAGE_TYPES:
        raise MessageError("message/unknown_type", f"unknown message type {kind!r}")
    try:
        return _adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise MessageError("message/invalid", f"{where}: {first['msg']}") from exc
