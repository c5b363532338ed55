"""The action envelope every engine shares: a table of each game's actions and their fields,
the shape and seat checks, and the dispatch to the game's rules, written once.

A game lists its actions (``Action``: the ``type``, the rules function that handles it, its
``Field``s) in one ``Actions`` table. ``Actions.dispatch(state, seat, action, at_ms)`` refuses
a malformed action with ``InvalidAction`` and the same reason in every game:

- ``<game>/bad_action``: not an object, or its ``type`` is not a string;
- ``<game>/unknown_action``: a ``type`` the table does not list;
- ``<game>/bad_field``: a field the type does not have, a required field missing, a field
  of the wrong JSON type (null included, unless the field takes it), or ``at_ms`` not an
  integer;
- ``<game>/bad_seat``: the seat is not an integer in ``0..state.seats-1``;

then runs the table's ``gate`` (the game's checks for every action: ``game_over``, a seat out
of the game, ...; they raise ``IllegalAction``) and returns what the handler returns. The
handler gets an action whose fields are present and of their declared type; what the rules
check beyond that (a card id that names no card, a cell out of range) stays with them.

This module is on every move's path and is compiled with the engines (``engines.compiled``):
the checks are plain loops over tuples built once per table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from engines.errors import InvalidAction

R = TypeVar("R")

# What a field's value must be. ``ANY``: present (when required), checked by the rules.
ANY = 0
INT = 1  # an integer (not a boolean)
STR = 2  # a string
INTS = 3  # a list of integers
STRS = 4  # a list of strings
LIST = 5  # a list (its items checked by the rules)
MAP = 6  # an object (its entries checked by the rules)
KIND_NAMES: dict[int, str] = {
    ANY: "any value",
    INT: "an integer",
    STR: "a string",
    INTS: "a list of integers",
    STRS: "a list of strings",
    LIST: "a list",
    MAP: "an object",
}

Handler = Callable[[Any, int, dict[str, Any], int], R]
"""The rules for one action type: ``(state, seat, action, at_ms)``, called once the envelope
accepted the action and the gate let it through."""

Gate = Callable[[Any, int, str], None]
"""The game's checks before every action: ``(state, seat, type)``; raises ``IllegalAction``."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def fits(kind: int, value: object) -> bool:
    """Whether ``value`` (not None) is of the field type ``kind``."""
    if kind == ANY:
        return True
    if kind == INT:
        return _is_int(value)
    if kind == STR:
        return isinstance(value, str)
    if kind == MAP:
        return isinstance(value, dict)
    if not isinstance(value, list):
        return False
    if kind == INTS:
        return all(_is_int(item) for item in value)
    if kind == STRS:
        return all(isinstance(item, str) for item in value)
    return kind == LIST


class Field:
    """One field an action may carry: its name, its type (``INT``, ``STR``, ...), whether it
    must be there and, for an optional one, whether null stands for absent (``null``). A
    required field is never null."""

    def __init__(
        self,
        name: str,
        kind: int = ANY,
        *,
        required: bool = True,
        null: bool = False,
        doc: str = "",
    ) -> None:
        if kind not in KIND_NAMES:
            raise ValueError(f"field {name!r}: unknown field type {kind!r}")
        if name == "type":
            raise ValueError("every action has its 'type'; it is not declared as a field")
        self.name = name
        self.kind = kind
        self.required = required
        self.null = null and not required
        self.doc = doc

    def describe(self) -> dict[str, Any]:
        return {
            "type": KIND_NAMES[self.kind],
            "required": self.required,
            "null": self.null,
            "doc": self.doc,
        }


def optional(name: str, kind: int = ANY, doc: str = "", *, null: bool = False) -> Field:
    """A field that may be absent (or null, with ``null=True``)."""
    return Field(name, kind, required=False, null=null, doc=doc)


class Action(Generic[R]):
    """One row of a game's table: the action ``type``, its handler and its fields."""

    def __init__(self, kind: str, handler: Handler[R], *fields: Field, doc: str = "") -> None:
        names = [field.name for field in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"action {kind!r} declares a field twice")
        self.kind = kind
        self.handler = handler
        self.fields: tuple[Field, ...] = fields
        self.doc = doc
        # Every key the action may have, and what is checked of each field (skipping the
        # optional fields of any type that may be null: nothing to check there).
        self.allowed: frozenset[str] = frozenset(["type", *names])
        self.checks: tuple[tuple[str, int, bool, bool], ...] = tuple(
            (field.name, field.kind, field.required, field.null)
            for field in fields
            if field.required or field.kind != ANY or not field.null
        )

    def describe(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "fields": {field.name: field.describe() for field in self.fields},
        }


class Actions(Generic[R]):
    """A game's actions, the envelope around them and the dispatch to their handlers."""

    def __init__(self, game: str, actions: Iterable[Action[R]], gate: Gate | None = None) -> None:
        self.game = game
        self.gate = gate
        self.rows: dict[str, Action[R]] = {}
        for row in actions:
            if row.kind in self.rows:
                raise ValueError(f"{game}: action {row.kind!r} is listed twice")
            self.rows[row.kind] = row
        self.bad_action = f"{game}/bad_action"
        self.unknown_action = f"{game}/unknown_action"
        self.bad_field = f"{game}/bad_field"
        self.bad_seat = f"{game}/bad_seat"

    def kinds(self) -> list[str]:
        """Every action type, in the table's order."""
        return list(self.rows)

    def describe(self) -> dict[str, dict[str, Any]]:
        """Each action type's fields, types and docs, as JSON-able data."""
        return {kind: row.describe() for kind, row in self.rows.items()}

    def check(self, state: Any, seat: Any, action: Any, at_ms: Any) -> Action[R]:
        """The row of an action the envelope and the gate accept; raises otherwise (see the
        module docstring). ``Any``: whatever a client sent is refused with its code."""
        if not isinstance(action, dict):
            raise InvalidAction(self.bad_action, "an action is an object with a string type")
        kind = action.get("type")
        row = self.rows.get(kind) if isinstance(kind, str) else None
        if row is None:
            if not isinstance(kind, str):
                raise InvalidAction(self.bad_action, "an action is an object with a string type")
            raise InvalidAction(self.unknown_action, f"unknown action type {kind!r}")
        if not row.allowed.issuperset(action):
            extra = sorted(str(name) for name in action if name not in row.allowed)
            raise InvalidAction(self.bad_field, f"unexpected fields {extra}")
        for name, field_kind, required, null in row.checks:
            value = action.get(name)
            if value is None:
                if required:
                    raise InvalidAction(self.bad_field, f"{kind} needs {name}")
                if not null and name in action:
                    raise InvalidAction(self.bad_field, f"{name} is never null")
            elif field_kind != ANY and not fits(field_kind, value):
                raise InvalidAction(self.bad_field, f"{name} must be {KIND_NAMES[field_kind]}")
        if type(at_ms) is not int and not _is_int(at_ms):
            raise InvalidAction(self.bad_field, "at_ms must be an integer")
        if (type(seat) is not int and not _is_int(seat)) or not 0 <= seat < state.seats:
            raise InvalidAction(self.bad_seat, "no such seat")
        gate = self.gate
        if gate is not None:
            gate(state, seat, row.kind)
        return row

    def dispatch(self, state: Any, seat: Any, action: Any, at_ms: Any) -> R:
        """Check the action (``check``), then hand it to its row's handler."""
        row = self.check(state, seat, action, at_ms)
        return row.handler(state, seat, action, at_ms)
