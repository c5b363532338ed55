"""Client messages parsed in one place, and the fast paths for pongs and plain actions."""

from __future__ import annotations

import pytest

from app.realtime.messages import (
    Action,
    Hello,
    MessageError,
    PlainAction,
    parse_client_message,
    plain_action,
    pong_nonce,
)


def test_messages_parse_in_one_place() -> None:
    assert isinstance(parse_client_message('{"type": "hello", "token": "t"}'), Hello)
    action = parse_client_message('{"type":"action","client_seq":1,"action":{"type":"pass"}}')
    assert isinstance(action, Action)
    for text, code in [
        ("{nope", "message/bad_json"),
        ("[1]", "message/bad_json"),
        ('{"type": "teleport"}', "message/unknown_type"),
        ('{"type": "action", "client_seq": "x", "action": {}}', "message/invalid"),
        ('{"type": "hello", "extra": 1}', "message/invalid"),
    ]:
        with pytest.raises(MessageError) as refused:
            parse_client_message(text)
        assert refused.value.code == code


def test_pongs_as_clients_write_them_skip_the_parser_and_anything_else_takes_it() -> None:
    assert pong_nonce('{"type":"pong","nonce":42}') == 42
    for other in (
        '{"type": "pong", "nonce": 42}',  # spaces: the full parser reads it
        '{"type":"pong","nonce":"42"}',
        '{"type":"pong","nonce":-1}',
        '{"type":"pong","nonce":4٢}',  # a non-ASCII digit
        '{"type":"pong","nonce":42,"x":1}',
        '{"type":"pong","nonce":}',
        '{"type":"ping","nonce":42}',
    ):
        assert pong_nonce(other) is None, other
    parsed = parse_client_message('{"type": "pong", "nonce": 42}')
    assert parsed.type == "pong"


def test_plain_actions_skip_the_model_and_anything_unusual_takes_the_validator() -> None:
    plain = plain_action('{"type":"action","client_seq":3,"action":{"type":"move"},"version":7}')
    assert plain == PlainAction(3, {"type": "move"}, None, 7)
    for text, code in [
        ('{"type":"action","client_seq":-1,"action":{}}', "message/invalid"),
        ('{"type":"action","client_seq":true,"action":{}}', "message/invalid"),
        ('{"type":"action","client_seq":1,"action":[]}', "message/invalid"),
        ('{"type":"action","client_seq":1,"action":{},"seat":"0"}', "message/invalid"),
        ('{"type":"action","client_seq":1,"action":{},"extra":1}', "message/invalid"),
        ('{"type":"action","client_seq":1', "message/bad_json"),
    ]:
        assert plain_action(text) is None, text
        with pytest.raises(MessageError) as refused:
            parse_client_message(text)
        assert refused.value.code == code, text
    assert plain_action('{"type":"grab","client_seq":1,"cell":[0,0]}') is None
