"""The closed, bounded set of client-to-server message types, parsed in one place.

Every match and lobby socket message is read here and nowhere else: JSON text (orjson: no
NaN or Infinity, no lone surrogates), a known ``type``, known fields only, and every number
and size bounded, so nothing a client sends can overflow what the server later writes (the
action log's 64-bit integers, orjson's replies) or make a handler raise. A refusal is a
``MessageError`` with a stable code: ``message/bad_json``, ``message/unknown_type`` or
``message/invalid``. The bounds:

- ``client_seq``, ``ref``, ``version``, ``last_version``: integers in ``0 .. 2**53 - 1`` (the
  integers a browser's JSON numbers hold exactly);
- ``seat``: ``0 .. 63``; ``dt``: a finite number of milliseconds within a day either way;
- a grab's ``cell``: an integer in the same safe range or a list of at most four of them (an
  Ambush! cell is ``[x, y]``; the engine checks the rest);
- an action: an object of at most 16 fields whose ``type`` is a string, with JSON values
  nested at most 4 deep: safe integers, finite numbers, strings of at most 256 characters,
  lists of at most 64 items (the engines check the rest, refusing unknown fields);
- a token: at most 4,096 characters; a pong's nonce a safe integer or a string of at most 64;
  chat: 1 to 500 characters. The whole message's size is the gateway's (``max_message_bytes``).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal, NamedTuple

import msgspec
import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

SAFE_INT = 2**53 - 1
MAX_SEAT = 63
MAX_DT_MS = 86_400_000.0
MAX_ACTION_FIELDS = 16
MAX_ACTION_DEPTH = 4
MAX_ACTION_STRING = 256
MAX_ACTION_LIST = 64
MAX_CELL_PARTS = 4
MAX_TOKEN = 4096
MAX_NONCE_TEXT = 64


class MessageError(Exception):
    """A message we refuse before it reaches a session; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


SafeInt = Annotated[int, Field(ge=0, le=SAFE_INT)]
Seat = Annotated[int, Field(ge=0, le=MAX_SEAT)]
CellPart = Annotated[int, Field(ge=-SAFE_INT, le=SAFE_INT)]
Cell = CellPart | Annotated[list[CellPart], Field(max_length=MAX_CELL_PARTS)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Message):
    """The first message on a socket: who you are (no token: a spectator) and, on a match
    socket after a reconnect, the last version you hold, to resume from it."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=MAX_TOKEN)] | None = Field(
        default=None, description="the bearer token from `POST /api/accounts` or `/api/sessions`"
    )
    last_version: SafeInt | None = Field(
        default=None,
        description="match socket: the version you hold; the welcome brings what you missed",
    )
    seat: Seat | None = Field(
        default=None,
        description="match socket, hot seat: which of your seats this connection plays",
    )


class Action(_Message):
    """Play an engine action (one of the seat's `legal` actions). Answered once: `ack` or
    `error` with the same `client_seq`. Each game's actions are published as schemas: in the
    AsyncAPI document's `components.schemas` (`AmbushAction`, `RampageAction`,
    `CastlesAction`, `EmberAction`) and by `GET /api/games/{id}`."""

    type: Literal["action"]
    client_seq: SafeInt = Field(
        description=(
            "your number for this action, larger than any your seat sent before (the wall "
            "clock in ms is a good start); resend the same number after a reconnect"
        )
    )
    action: dict[str, Any] = Field(
        description=(
            "the action: `type` and the game's fields, as the match's game defines them: "
            "`components.schemas.AmbushAction`, `RampageAction`, `CastlesAction` or "
            "`EmberAction` of the AsyncAPI document (also `actions` of `GET /api/games/{id}`)"
        )
    )
    seat: Seat | None = Field(default=None, description="hot seat: which of your seats acts")
    version: SafeInt | None = Field(
        default=None,
        description="the version you decided at: refused `action/stale_version` if it moved on",
    )

    @field_validator("action")
    @classmethod
    def _bounded_action(cls, action: dict[str, Any]) -> dict[str, Any]:
        problem = action_problem(action)
        if problem is not None:
            raise ValueError(problem)
        return action


class Grab(_Message):
    """Grab a face-down card in an Ambush! race. It is judged by when you saw the state and
    reacted (`ref` and `dt`), checked against the link the server measured, not by when it
    arrived. Answered once by `grab_result`."""

    type: Literal["grab"]
    client_seq: SafeInt = Field(description="as for an action")
    cell: Cell = Field(description="the cell, `[x, y]`")
    ref: SafeInt | None = Field(
        default=None, description="the version you held when you grabbed (the last one drawn)"
    )
    dt: Annotated[float, Field(ge=-MAX_DT_MS, le=MAX_DT_MS, allow_inf_nan=False)] | None = Field(
        default=None, description="ms from receiving version `ref` to the grab"
    )
    seat: Seat | None = Field(default=None, description="hot seat: which of your seats grabs")

    @field_validator("dt", mode="before")
    @classmethod
    def _dt_number(cls, value: Any) -> Any:
        # A JSON number of either kind (strict mode would refuse ``0`` for a float); never a
        # boolean.
        if type(value) is int and -MAX_DT_MS <= value <= MAX_DT_MS:
            return float(value)
        return value


class Pong(_Message):
    """The answer to a `ping`, sent at once."""

    type: Literal["pong"]
    nonce: SafeInt | Annotated[str, Field(max_length=MAX_NONCE_TEXT)] = Field(
        description="the ping's nonce"
    )


class Chat(_Message):
    """Say something to the table (seated players only; spectators read)."""

    type: Literal["chat"]
    text: str = Field(min_length=1, max_length=500, description="1 to 500 characters")


class Rematch(_Message):
    """Offer (or accept) a rematch of the match once it has ended."""

    type: Literal["rematch"]


class Resync(_Message):
    """A patch's ``base`` was not the version this connection holds: send the whole view
    again (a ``welcome`` resuming from ``last_version``, as after a reconnect)."""

    type: Literal["resync"]
    last_version: SafeInt | None = Field(default=None, description="the version you hold")


AnyClientMessage = Hello | Action | Grab | Pong | Chat | Rematch | Resync
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
MESSAGE_TYPES = frozenset({"hello", "action", "grab", "pong", "chat", "rematch", "resync"})
_adapter: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


def action_problem(action: dict[str, Any]) -> str | None:
    """Why an action object is out of bounds, or None when it is within them."""
    if len(action) > MAX_ACTION_FIELDS:
        return f"an action has at most {MAX_ACTION_FIELDS} fields"
    kind = action.get("type")
    if type(kind) is not str or len(kind) > MAX_ACTION_STRING:
        return "an action's type is a string"
    if not _bounded(action, MAX_ACTION_DEPTH):
        return (
            f"action values are safe integers, finite numbers, strings of at most "
            f"{MAX_ACTION_STRING} characters and lists of at most {MAX_ACTION_LIST} items, "
            f"nested at most {MAX_ACTION_DEPTH} deep"
        )
    return None


def _bounded(value: Any, depth: int) -> bool:
    kind = type(value)
    if kind is str:
        return len(value) <= MAX_ACTION_STRING
    if kind is int:
        return bool(-SAFE_INT <= value <= SAFE_INT)
    if value is None or kind is bool:
        return True
    if kind is float:
        return math.isfinite(value)
    if depth <= 0:
        return False
    if kind is list:
        return len(value) <= MAX_ACTION_LIST and all(_bounded(item, depth - 1) for item in value)
    if kind is dict:
        return len(value) <= MAX_ACTION_LIST and all(
            len(key) <= MAX_ACTION_STRING and _bounded(item, depth - 1)
            for key, item in value.items()
        )
    return False


class PlainAction(NamedTuple):
    """An action message's fields, for the hot path (see ``plain_action``)."""

    client_seq: int
    action: dict[str, Any]
    seat: int | None
    version: int | None


# The move path's own decoder (msgspec: validated decoding in one C pass, about three times
# faster than ``orjson.loads`` plus the checks in Python): a plainly valid action message,
# within every bound of ``Action``, whose action values are short strings, safe integers,
# booleans, nulls or short lists of those (a move's usual fields).
_PlainValue = (
    Annotated[str, msgspec.Meta(max_length=MAX_ACTION_STRING)]
    | Annotated[int, msgspec.Meta(ge=-SAFE_INT, le=SAFE_INT)]
    | bool
    | None
)
_PlainField = _PlainValue | Annotated[list[_PlainValue], msgspec.Meta(max_length=MAX_ACTION_LIST)]


class _PlainActionMessage(
    msgspec.Struct, forbid_unknown_fields=True, tag_field="type", tag="action"
):
    client_seq: Annotated[int, msgspec.Meta(ge=0, le=SAFE_INT)]
    action: Annotated[dict[str, _PlainField], msgspec.Meta(max_length=MAX_ACTION_FIELDS)]
    seat: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEAT)] | None = None
    version: Annotated[int, msgspec.Meta(ge=0, le=SAFE_INT)] | None = None


_plain_decoder = msgspec.json.Decoder(_PlainActionMessage)


def plain_action(text: str) -> PlainAction | None:
    """An action message when it is plainly valid, as its fields: no pydantic model is built
    (constructing one costs more than all the rest of a move's parsing). Anything unusual
    returns None and takes ``parse_client_message``, so refusals and their codes are the
    validator's in every case (every message this accepts, the validator accepts alike)."""
    try:
        message = _plain_decoder.decode(text)
    except msgspec.MsgspecError:
        return None
    action = message.action
    if type(action.get("type")) is not str:
        return None
    return PlainAction(message.client_seq, action, message.seat, message.version)


class _Sequenced(msgspec.Struct):
    type: str
    client_seq: Annotated[int, msgspec.Meta(ge=0, le=SAFE_INT)] | None = None


_sequenced_decoder = msgspec.json.Decoder(_Sequenced)


def sequenced(text: str) -> int | None:
    """The ``client_seq`` of an action or grab message, read without validating the rest
    (for answering a message refused before it is parsed, such as a rate-limited one), or
    None for any other message or text."""
    try:
        message = _sequenced_decoder.decode(text)
    except msgspec.MsgspecError:
        return None
    return message.client_seq if message.type in ("action", "grab") else None


_PONG_HEAD = '{"type":"pong","nonce":'


def pong_nonce(text: str) -> int | None:
    """The nonce of a pong written exactly as our clients write it, else None (then the
    message takes ``parse_client_message``). Pongs are most of an Ambush! table's traffic:
    every socket answers a ping every 250 ms."""
    if text.startswith(_PONG_HEAD) and text.endswith("}"):
        digits = text[len(_PONG_HEAD) : -1]
        if digits.isascii() and digits.isdigit() and len(digits) < 16:
            return int(digits)
    return None


def parse_client_message(text: str) -> AnyClientMessage:
    """Parse one message; raises ``MessageError`` with ``message/bad_json``,
    ``message/unknown_type`` or ``message/invalid``."""
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise MessageError("message/bad_json", "message is not valid JSON") from exc
    if type(data) is not dict:
        raise MessageError("message/bad_json", "message must be a JSON object")
    kind = data.get("type")
    if type(kind) is not str or kind not in MESSAGE_TYPES:
        shown = kind[:40] if type(kind) is str else type(kind).__name__
        raise MessageError("message/unknown_type", f"unknown message type {shown!r}")
    try:
        return _adapter.validate_python(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "message"
        raise MessageError("message/invalid", f"{where[:80]}: {first['msg'][:200]}") from exc
