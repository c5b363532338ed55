"""The action envelope (``engines.envelope``): every game refuses a malformed action with the
same class and code, and a refusal reason has one class across all the engines."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engines import registry
from engines.base import ActionError, IllegalAction, InvalidAction
from engines.envelope import ANY, INT, INTS, LIST, MAP, STR, STRS, Action, Actions, Field, optional

GAMES = ["ambush", "rampage", "castles", "ember"]
ENGINES_DIR = Path(__file__).resolve().parents[2] / "engines"
# A value of each field type, and one of another type.
FITTING: dict[int, Any] = {ANY: 0, INT: 0, STR: "x", INTS: [0], STRS: ["x"], LIST: [], MAP: {}}
WRONG: dict[int, Any] = {INT: "0", STR: 0, INTS: ["0"], STRS: [0], LIST: {}, MAP: []}


def snapshot(game: str, state: Any) -> str:
    return json.dumps(registry.get(game).to_json(state), sort_keys=True)


def typed_row(game: str) -> tuple[Action, Field]:
    """An action type of the game with a required field of a checked type."""
    table: Actions = registry.get(game).actions  # type: ignore[attr-defined]
    for row in table.rows.values():
        for field in row.fields:
            if field.required and field.kind != ANY:
                return row, field
    raise AssertionError(f"{game}: no action with a required typed field")


def well_typed(row: Action) -> dict[str, Any]:
    return {
        "type": row.kind,
        **{field.name: FITTING[field.kind] for field in row.fields if field.required},
    }


def malformed(game: str, seats: int) -> list[tuple[str, int | Any, Any, Any, str]]:
    """(case, seat, action, at_ms, reason) for every mistake the envelope refuses."""
    row, field = typed_row(game)
    fine = well_typed(row)
    missing = {k: v for k, v in fine.items() if k != field.name}
    resign = {"type": "resign"}
    return [
        ("not a dict", 0, "resign", 0, "bad_action"),
        ("null", 0, None, 0, "bad_action"),
        ("a list", 0, [resign], 0, "bad_action"),
        ("no type", 0, {}, 0, "bad_action"),
        ("type not a string", 0, {"type": 7}, 0, "bad_action"),
        ("unknown type", 0, {"type": "fly"}, 0, "unknown_action"),
        ("unknown field", 0, {"type": "resign", "junk": 1}, 0, "bad_field"),
        ("missing field", 0, missing, 0, "bad_field"),
        ("null field", 0, {**fine, field.name: None}, 0, "bad_field"),
        ("wrong type", 0, {**fine, field.name: WRONG[field.kind]}, 0, "bad_field"),
        ("time not an integer", 0, resign, 1.5, "bad_field"),
        ("seat too high", seats, resign, 0, "bad_seat"),
        ("seat negative", -1, resign, 0, "bad_seat"),
        ("seat a string", "0", resign, 0, "bad_seat"),
        ("seat a boolean", True, resign, 0, "bad_seat"),
        ("seat null", None, resign, 0, "bad_seat"),
    ]


CASES = [case[0] for case in malformed("ambush", 2)]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("game", GAMES)
def test_every_game_refuses_a_malformed_action_alike(game: str, case: str) -> None:
    engine = registry.get(game)
    state = engine.setup(engine.min_seats, 5)
    before = snapshot(game, state)
    _, seat, action, at_ms, reason = next(
        c for c in malformed(game, engine.min_seats) if c[0] == case
    )
    with pytest.raises(ActionError) as refused:
        engine.apply(state, seat, action, at_ms)
    assert type(refused.value) is InvalidAction
    assert refused.value.code == f"{game}/{reason}"
    assert snapshot(game, state) == before


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_refuses_with_game_over(game: str) -> None:
    engine = registry.get(game)
    state = engine.setup(2, 5)
    engine.apply(state, 0, {"type": "resign"}, 0)
    with pytest.raises(IllegalAction) as refused:
        engine.apply(state, 1, {"type": "resign"}, 0)
    assert refused.value.code == f"{game}/game_over"


@pytest.mark.parametrize("game", GAMES)
def test_each_table_lists_what_the_engine_offers(game: str) -> None:
    """Every action a fresh game lists passes the envelope (the gate and rules aside)."""
    engine = registry.get(game)
    table: Actions = engine.actions  # type: ignore[attr-defined]
    assert table.game == game
    state = engine.setup(engine.min_seats, 2)
    for seat in range(engine.min_seats):
        for action in engine.legal_actions(state, seat):
            assert table.check(state, seat, action, 0).kind == action["type"]


# ``InvalidAction("ambush/x"``, ``IllegalAction(f"{GAME}/x"``, ``InvalidAction(CODE + "x"``.
RAISED = re.compile(r'\b(InvalidAction|IllegalAction)\(\s*(?:f?"(?:\{\w+\}|\w+)/|CODE \+ ")(\w+)"')
# ``require(ok, f"{GAME}/x", "message")``, with ``illegal=False`` for InvalidAction.
REQUIRED = re.compile(r"\brequire\(\s*((?:[^()]|\([^()]*\))*?)\)", re.S)
CODE = re.compile(r'(?:f?"(?:\{\w+\}|\w+)/|CODE \+ ")(\w+)"')


def refusal_classes() -> dict[str, set[tuple[str, str]]]:
    """Per reason, the (class, game) pairs the engines' sources raise it with."""
    found: dict[str, set[tuple[str, str]]] = {}
    for game in GAMES:
        for path in sorted((ENGINES_DIR / game).glob("*.py")):
            text = path.read_text()
            for kind, reason in RAISED.findall(text):
                found.setdefault(reason, set()).add((kind, game))
            for body in REQUIRED.findall(text):
                code = CODE.search(body)
                if code:
                    kind = "InvalidAction" if "illegal=False" in body else "IllegalAction"
                    found.setdefault(code.group(1), set()).add((kind, game))
    return found


def test_a_reason_has_one_class_in_every_game() -> None:
    found = refusal_classes()
    # The scan sees the codes (not a vacuous pass): the shared ones in several games.
    assert {"bad_target", "not_your_turn", "game_over", "not_in_hand"} <= set(found)
    assert len({game for _, game in found["bad_target"]}) >= 3
    mixed = {
        reason: sorted(pairs) for reason, pairs in found.items() if len({k for k, _ in pairs}) > 1
    }
    assert mixed == {}
    for reason in ("bad_action", "unknown_action", "bad_field", "bad_seat"):
        assert {kind for kind, _ in found.get(reason, set())} <= {"InvalidAction"}


# The envelope on its own, with a table of two actions.


class Table:
    seats = 3

    def __init__(self) -> None:
        self.over = False
        self.calls: list[tuple[int, dict[str, Any], int]] = []


def _mark(state: Table, seat: int, action: dict[str, Any], at_ms: int) -> str:
    state.calls.append((seat, action, at_ms))
    return "marked"


class ToyActions(Actions):
    def gate(self, state: Table, seat: int, kind: str) -> None:
        if state.over:
            raise IllegalAction("toy/game_over", "over")


TOY = ToyActions(
    "toy",
    [
        Action(
            "mark",
            _mark,
            Field("cell", INT),
            optional("note", STR),
            optional("with", INTS, null=True),
            optional("any"),
        ),
        Action("resign", _mark),
    ],
)


def refusal(seat: Any, action: Any, at_ms: Any = 0, state: Table | None = None) -> str:
    with pytest.raises(ActionError) as refused:
        TOY.dispatch(state or Table(), seat, action, at_ms)
    return refused.value.code


def test_a_well_formed_action_reaches_its_handler_with_its_result() -> None:
    state = Table()
    action = {"type": "mark", "cell": 4, "with": None, "any": {"x": [1]}}
    assert TOY.dispatch(state, 2, action, 7) == "marked"
    assert state.calls == [(2, action, 7)]


def test_optional_fields_take_null_only_where_declared() -> None:
    assert TOY.dispatch(Table(), 0, {"type": "mark", "cell": 1, "with": None}, 0) == "marked"
    assert refusal(0, {"type": "mark", "cell": 1, "note": None}) == "toy/bad_field"
    assert refusal(0, {"type": "mark", "cell": 1, "with": [1, True]}) == "toy/bad_field"
    assert refusal(0, {"type": "mark", "cell": False}) == "toy/bad_field"


def test_the_shape_comes_before_the_seat_and_the_seat_before_the_gate() -> None:
    over = Table()
    over.over = True
    assert refusal(9, {"type": "mark"}, state=over) == "toy/bad_field"
    assert refusal(9, {"type": "mark", "cell": 1}, state=over) == "toy/bad_seat"
    assert refusal(2, {"type": "mark", "cell": 1}, state=over) == "toy/game_over"
    assert over.calls == []


def test_a_table_refuses_duplicates_and_describes_itself() -> None:
    with pytest.raises(ValueError):
        Actions("toy", [Action("a", _mark), Action("a", _mark)])
    with pytest.raises(ValueError):
        Action("a", _mark, Field("x"), Field("x"))
    with pytest.raises(ValueError):
        Field("type")
    assert TOY.kinds() == ["mark", "resign"]
    described = TOY.describe()["mark"]["fields"]
    assert described["cell"]["required"] and described["cell"]["type"] == "an integer"
    assert described["with"]["null"] and not described["note"]["null"]
