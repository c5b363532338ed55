"""Pure server pieces: settings, tokens and passwords, the name vote, messages, the clock."""

from __future__ import annotations

import json
import time

import pytest
from pydantic import ValidationError

from app.config import Settings
from app.db.engine import json_text
from app.errors import Unauthorized
from app.jsonenc import encode_text
from app.lobby.service import run_name_vote
from app.realtime.messages import (
    Action,
    Hello,
    MessageError,
    PlainAction,
    parse_client_message,
    plain_action,
    pong_nonce,
)
from app.security import hash_password, issue_token, read_token, verify_password
from app.sessions import wire
from app.sessions.clock import MatchClock
from app.sessions.timecontrol import TimeControl, TurnClocks


def test_settings_refuse_placeholder_secret_outside_development() -> None:
    with pytest.raises(ValidationError):
        Settings(environment="production", secret="dev-secret-change-me")
    assert Settings(environment="production", secret="a-real-secret-of-some-length").secret


def test_token_round_trip_and_tampering() -> None:
    token = issue_token("s3cret", 42)
    assert read_token("s3cret", token, 60) == 42
    with pytest.raises(Unauthorized) as bad:
        read_token("other", token, 60)
    assert bad.value.code == "auth/bad_token"
    old = issue_token("s3cret", 42, now=time.time() - 120)
    with pytest.raises(Unauthorized) as expired:
        read_token("s3cret", old, 60)
    assert expired.value.code == "auth/expired"


def test_password_hashing_uses_argon2() -> None:
    hashed = hash_password("correct horse")
    assert hashed.startswith("$argon2")
    assert verify_password(hashed, "correct horse")
    assert not verify_password(hashed, "wrong horse")
    assert not verify_password("not a hash", "x")


def member(seat: int, vote: int | None = None, bot: str | None = None) -> dict[str, object]:
    return {"seat": seat, "account_id": None if bot else seat + 1, "bot": bot, "vote": vote}


def test_name_vote_most_votes_starts() -> None:
    members = [member(0, 2), member(1, 2), member(2, 0)]
    result = run_name_vote(members, seed=7)
    assert result.first_seat == 2
    assert result.tally == {0: 1, 1: 0, 2: 2}


def test_name_vote_tie_is_a_seeded_draw() -> None:
    members = [member(0, 1), member(1, 0)]
    firsts = {run_name_vote(members, seed).first_seat for seed in range(40)}
    assert firsts == {0, 1}
    assert run_name_vote(members, 5).first_seat == run_name_vote(members, 5).first_seat


def test_bots_vote_for_someone_else() -> None:
    members = [member(0, bot="heuristic"), member(1, bot="random"), member(2, 0)]
    result = run_name_vote(members, seed=3)
    assert result.votes[0] != 0 and result.votes[1] != 1
    assert sum(result.tally.values()) == 3


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


def test_match_clock_never_goes_backwards_after_restart() -> None:
    # Wall clock says 1 s since the start, but an action was already logged at 5 s.
    started = int(time.time() * 1000) - 1000
    clock = MatchClock(started, last_at_ms=5000)
    assert clock.now() >= 5000
    first = clock.now()
    assert clock.now() >= first


def test_turn_clock_restarts_on_each_action_and_bank_only_drains() -> None:
    clocks = TurnClocks(TimeControl(turn_ms=1000, match_ms=1500))
    assert clocks.update({0}, 0, None)
    assert clocks.deadlines == {0: 1000}
    clocks.update({0}, 400, acted=0)  # seat 0 acted and is still on turn
    assert clocks.deadlines == {0: 1400} and clocks.banks[0] == 1100
    clocks.update({1}, 900, acted=0)  # seat 0's turn is over after 500 more ms
    assert clocks.banks[0] == 600 and clocks.deadlines == {1: 1900}
    clocks.update({0}, 1000, acted=1)
    assert clocks.deadlines == {0: 1600}  # the bank (600 ms) runs out before the turn clock
    assert clocks.remaining(0, 1300) == 300
    clocks.restart(5000)  # after a restart the downtime is not charged
    assert clocks.deadlines == {0: 5600}


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


def test_json_has_one_encoder_and_non_string_keys_become_strings() -> None:
    assert encode_text({"a": [1, None, True]}) == '{"a":[1,null,true]}'
    # An int-keyed map costs a second try; its keys are written as json.dumps writes them.
    assert encode_text({"scores": {0: 5, 1: 3}}) == json.dumps({"scores": {0: 5, 1: 3}}).replace(
        " ", ""
    )
    assert wire.dumps({2: "x"}) == '{"2":"x"}' and json_text({2: "x"}) == '{"2":"x"}'
    with pytest.raises(TypeError):
        encode_text({"bad": {1, 2}})
