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
of the game, ...; they raise ``IllegalAction``), a method a game's table overrides, and
returns what the handler returns. The handler gets an action whose fields are present and of
their declared type; what the rules check beyond that (a card id that names no card, a cell
out of range) stays with them.

This module is on every move's path and is compiled with the engines (``engines.compiled``):
the checks are one loop over the action's keys against a dict built once per row, and the
gate and the seat count are methods (direct calls in the compiled engines, where a stored
function would be called through Python's calling convention).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from mypy_extensions import mypyc_attr

from engines.errors import InvalidAction

# What a field's value must be. ``ANY``: present (when required), checked by the rules.
# ``Final``: compiled, each is a constant, not a read of the module's globals.
ANY: Final = 0
INT: Final = 1  # an integer (not a boolean)
STR: Final = 2  # a string
INTS: Final = 3  # a list of integers
STRS: Final = 4  # a list of strings
LIST: Final = 5  # a list (its items checked by the rules)
MAP: Final = 6  # an object (its entries checked by the rules)
KIND_NAMES: dict[int, str] = {
    ANY: "any value",
    INT: "an integer",
    STR: "a string",
    INTS: "a list of integers",
    STRS: "a list of strings",
    LIST: "a list",
    MAP: "an object",
}

Handler = Callable[[Any, int, dict[str, Any], int], Any]
"""The rules for one action type: ``(state, seat, action, at_ms)``, called once the envelope
accepted the action and the gate let it through."""


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


# How a field may be absent or null (``Action.specs``).
MUST: Final = 0
NOT_NULL: Final = 1
MAY_BE_NULL: Final = 2


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


class Action:
    """One row of a game's table: the action ``type``, its handler and its fields."""

    def __init__(self, kind: str, handler: Handler, *fields: Field, doc: str = "") -> None:
        names = [field.name for field in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"action {kind!r} declares a field twice")
        self.kind = kind
        self.handler = handler
        self.fields: tuple[Field, ...] = fields
        self.doc = doc
        # Per key the action may have ("type" included), its type and how it may be absent or
        # null, packed in one int (``kind << 2 | presence``: no tuple to unpack per key), and
        # the fields that must be there.
        self.allowed: frozenset[str] = frozenset(["type", *names])
        self.specs: dict[str, int] = {"type": ANY << 2 | MAY_BE_NULL}
        for field in fields:
            presence = MUST if field.required else MAY_BE_NULL if field.null else NOT_NULL
            self.specs[field.name] = field.kind << 2 | presence
        self.required: tuple[str, ...] = tuple(field.name for field in fields if field.required)

    def describe(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "fields": {field.name: field.describe() for field in self.fields},
        }


# Not ``Generic`` over what the handlers return: mypyc gives a native class with a Python
# base a weak reference slot it mishandles (tests/engines/test_compiled.py).
@mypyc_attr(allow_interpreted_subclasses=True)  # the tables of the interpreted engines
class Actions:
    """A game's actions, the envelope around them and the dispatch to their handlers. A game
    whose every action needs the same checks first subclasses it and overrides ``gate``."""

    def __init__(self, game: str, actions: Iterable[Action]) -> None:
        self.game = game
        self.rows: dict[str, Action] = {}
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

    def gate(self, state: Any, seat: int, kind: str) -> None:
        """The game's checks before every action of type ``kind`` (the game is over, the seat
        is out of it, ...): raise ``IllegalAction`` to refuse. The seat is in range here."""

    def seat_count(self, state: Any) -> int:
        """How many seats the match has: ``state.seats``. A compiled game's table overrides
        it with its typed state (an attribute read on an untyped object costs more)."""
        seats: int = state.seats
        return seats

    def check(self, state: Any, seat: Any, action: Any, at_ms: Any) -> Action:
        """The row of an action the envelope and the gate accept; raises otherwise (see the
        module docstring). ``Any``: whatever a client sent is refused with its code."""
        if not isinstance(action, dict):
            raise InvalidAction(self.bad_action, "an action is an object with a string type")
        kind = action.get("type")
        if not isinstance(kind, str):
            raise InvalidAction(self.bad_action, "an action is an object with a string type")
        row = self.rows.get(kind)
        if row is None:
            raise InvalidAction(self.unknown_action, f"unknown action type {kind!r}")
        specs = row.specs
        for name, value in action.items():
            spec = specs.get(name)
            if spec is None:
                extra = sorted(str(key) for key in action if key not in specs)
                raise InvalidAction(self.bad_field, f"unexpected fields {extra}")
            if value is None:
                if spec & 3 != MAY_BE_NULL:
                    raise InvalidAction(self.bad_field, f"{kind}: {name} is never null")
            elif spec >= 4 and not fits(spec >> 2, value):
                raise InvalidAction(self.bad_field, f"{name} must be {KIND_NAMES[spec >> 2]}")
        for name in row.required:
            if name not in action:
                raise InvalidAction(self.bad_field, f"{kind}: {name} is missing")
        if type(at_ms) is not int and not _is_int(at_ms):
            raise InvalidAction(self.bad_field, "at_ms must be an integer")
        if type(seat) is not int and not _is_int(seat):
            raise InvalidAction(self.bad_seat, "a seat is an integer")
        number: int = seat
        if not 0 <= number < self.seat_count(state):
            raise InvalidAction(self.bad_seat, "no such seat")
        self.gate(state, number, kind)
        return row

    def dispatch(self, state: Any, seat: Any, action: Any, at_ms: Any) -> Any:
        """Check the action (``check``), then hand it to its row's handler."""
        row = self.check(state, seat, action, at_ms)
        return row.handler(state, seat, action, at_ms)
