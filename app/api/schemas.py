"""Pydantic request bodies of the REST API, errors and accounts' replies (kept apart from the ORM
models); every other reply's model is in ``app.api.responses``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)

from app.api.params import SHORT_TEXT, BodySeat, Options, ShortText


class Body(BaseModel):
    """A request body: known fields only, each of its declared type (strict: ``false`` is
    not a seat number, ``"2"`` not a count), as the OpenAPI schema says."""

    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="before")
    @classmethod
    def _integral_numbers(cls, value: Any) -> Any:
        """JSON has one number type, and to the schema's ``integer`` any number without a
        fraction is one: ``2.0`` is the integer 2 here too (``2.5``, ``"2"``, ``true`` are
        still refused)."""
        if type(value) is float and value.is_integer():
            return int(value)
        return value


class ErrorDetail(BaseModel):
    """One failed check of a malformed request: where (``loc``) and what (``msg``)."""

    loc: list[str]
    msg: str


class ErrorInfo(BaseModel):
    code: str = Field(description="stable, ``area/reason``: switch on this")
    message: str = Field(description="for people; may change")
    details: list[ErrorDetail] | None = Field(default=None, description="request/invalid only")
    retry: bool | None = Field(default=None, description="true: the same request may succeed soon")
    match_id: int | None = Field(
        default=None, description="queue/already_playing only: the running match to rejoin"
    )


class ErrorOut(BaseModel):
    """Every refusal: ``{"error": {"code", "message"}}`` (``app.api.errors``)."""

    error: ErrorInfo


class NewAccount(Body):
    # The name rules (1-24 visible characters after normalising, one script, ...) are
    # app.accounts.names.player_name's, refused with account/name_invalid; this bounds the
    # raw text (spaces around it and runs of them are dropped before the rules count).
    name: str = Field(min_length=1, max_length=100)
    password: str | None = Field(default=None, min_length=8, max_length=200)
    bot: bool = Field(
        default=False,
        description="a bot account: a program its author runs through the API (needs a "
        "password; shown as a bot wherever its name shows)",
    )


class Login(Body):
    name: str = Field(min_length=1, max_length=100)
    password: str = Field(min_length=1, max_length=200)


class AccountOut(BaseModel):
    id: int
    name: str
    guest: bool
    bot: bool = False


class TokenOut(BaseModel):
    token: str
    token_type: str = "bearer"
    account: AccountOut


class Register(Body):
    """A guest keeps his name and history and becomes a registered player."""

    password: str = Field(min_length=8, max_length=200)


# A real-time table's clock fields (``TimeControlIn``), none of them with days per move.
REALTIME_CLOCKS = ("turn_ms", "match_ms", "on_timeout", "grace_ms")


class TimeControlIn(Body):
    """A real-time table's clocks (``turn_ms``, ``match_ms``, ``on_timeout``, ``grace_ms``),
    or a correspondence table's ``days_per_move`` alone."""

    # The schema says it too: with ``days_per_move`` set, no real-time field may be present.
    model_config = ConfigDict(
        json_schema_extra={
            "if": {
                "required": ["days_per_move"],
                "properties": {"days_per_move": {"type": "integer"}},
            },
            "then": {"properties": dict.fromkeys(REALTIME_CLOCKS, False)},
        }
    )

    turn_ms: int | None = Field(default=None, ge=100, le=3_600_000)
    match_ms: int | None = Field(default=None, ge=1000, le=24 * 3_600_000)
    on_timeout: Literal["pass", "forfeit"] = "pass"
    grace_ms: int | None = Field(default=None, ge=0, le=3_600_000)
    days_per_move: Literal[1, 2, 3, 5, 7, 14] | None = Field(
        default=None,
        description="a correspondence table: each move within this many days (wall clock) or "
        "the seat forfeits; nobody forfeits for being away. Not with the real-time clocks, "
        "and not for games with grab races (Ambush!)",
    )

    @model_validator(mode="after")
    def _one_kind(self) -> TimeControlIn:
        realtime = set(REALTIME_CLOCKS) & self.model_fields_set
        if self.days_per_move is not None and realtime:
            raise ValueError(
                "days_per_move is a time control of its own: leave out "
                + ", ".join(sorted(realtime))
            )
        return self

    @model_serializer(mode="wrap")
    def _stored(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A correspondence table is stored as ``{"days_per_move": N}`` alone."""
        if self.days_per_move is not None:
            return {"days_per_move": self.days_per_move}
        data: dict[str, Any] = handler(self)
        return data


class NewLobby(Body):
    game: ShortText
    seats: int = Field(ge=1, le=16)
    options: Options = Field(default_factory=dict)
    public: bool = True
    rated: bool = False
    hot_seat: bool = False
    time_control: TimeControlIn = Field(default_factory=TimeControlIn)


class JoinLobby(Body):
    invite_code: str | None = Field(default=None, max_length=SHORT_TEXT)
    seat: BodySeat | None = None


class CastleName(Body):
    name: str = Field(min_length=1, max_length=40)
    seat: BodySeat | None = None


class Vote(Body):
    for_seat: BodySeat
    seat: BodySeat | None = None


class AddBots(Body):
    kind: ShortText = "heuristic"
    count: int | None = Field(default=None, ge=1, le=16)
    difficulty: ShortText = Field(default="normal", description="easy, normal or hard")
