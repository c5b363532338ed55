"""The message set's bounds (``app/realtime/messages.py``), as properties: whatever text a
client sends, parsing answers with a message or a coded refusal, never another exception;
everything it accepts stays within the bounds; the move path's fast decoder accepts only what
the validator accepts, with the same fields."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.realtime.messages import (
    SAFE_INT,
    Action,
    Grab,
    MessageError,
    parse_client_message,
    plain_action,
)
from bench.fuzz_messages import encode, specs

CODES = {"message/bad_json", "message/unknown_type", "message/invalid"}


def as_text(spec: Any) -> str:
    if isinstance(spec, dict):
        return encode(spec)
    if spec[0] == "raw":
        return str(spec[1])
    _, how, value = spec
    action: dict[str, Any] = {"type": "move", "cell": 3}
    if how == "extra":
        action["junk"] = value
    elif how == "replace":
        action["cell"] = value
    seq = value if how == "seq" else 7
    return encode({"type": "action", "client_seq": seq, "action": action})


def within_bounds(value: Any) -> bool:
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return True
    if isinstance(value, int):
        return -SAFE_INT <= value <= SAFE_INT
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(within_bounds(item) for item in value)
    return isinstance(value, dict) and all(within_bounds(item) for item in value.values())


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(specs)
def test_every_text_parses_or_is_refused_with_a_code_and_accepted_ones_are_bounded(
    spec: Any,
) -> None:
    text = as_text(spec)
    try:
        message = parse_client_message(text)
    except MessageError as refusal:
        assert refusal.code in CODES
        assert plain_action(text) is None
        return
    assert within_bounds(message.model_dump())
    plain = plain_action(text)
    if plain is not None:
        assert isinstance(message, Action)
        assert (plain.client_seq, plain.action, plain.seat, plain.version) == (
            message.client_seq,
            message.action,
            message.seat,
            message.version,
        )


def test_the_messages_that_crashed_sessions_are_refused_at_the_edge() -> None:
    big = 10**30
    for text in (
        f'{{"type":"grab","client_seq":5,"cell":{big}}}',
        '{"type":"grab","client_seq":5,"cell":[0,0],"dt":NaN}',
        '{"type":"action","client_seq":7,"action":{"type":[0,-3]}}',
        '{"type":"action","client_seq":7,"action":{"type":{"a":1}}}',
        f'{{"type":"action","client_seq":{big},"action":{{"type":"pass"}}}}',
        f'{{"type":"action","client_seq":{2**63},"action":{{"type":"pass"}}}}',
        f'{{"type":"grab","client_seq":5,"cell":[0,0],"ref":{big}}}',
        '{"type":["action"]}',
        '{"type":{"a":1}}',
        json.dumps({"type": "chat", "text": "\ud800"}),
    ):
        assert plain_action(text) is None, text
        try:
            parse_client_message(text)
        except MessageError as refusal:
            assert refusal.code in CODES, text
        else:
            raise AssertionError(f"accepted: {text}")
    grab = parse_client_message('{"type":"grab","client_seq":1,"cell":[2,-3],"ref":4,"dt":12}')
    assert isinstance(grab, Grab) and grab.dt == 12.0 and grab.cell == [2, -3]


@given(st.integers(0, SAFE_INT), st.integers(-SAFE_INT, SAFE_INT))
def test_a_plain_move_takes_the_fast_path_with_its_fields(seq: int, cell: int) -> None:
    text = json.dumps({"type": "action", "client_seq": seq, "action": {"type": "m", "c": cell}})
    plain = plain_action(text)
    assert plain is not None and plain.client_seq == seq and plain.action["c"] == cell
