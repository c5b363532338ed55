"""One JSON encoder for the wire and the database."""

from __future__ import annotations

import json

import pytest

from app.db.engine import json_text
from app.jsonenc import encode_text
from app.sessions import wire


def test_json_has_one_encoder_and_non_string_keys_become_strings() -> None:
    assert encode_text({"a": [1, None, True]}) == '{"a":[1,null,true]}'
    # An int-keyed map costs a second try; its keys are written as json.dumps writes them.
    assert encode_text({"scores": {0: 5, 1: 3}}) == json.dumps({"scores": {0: 5, 1: 3}}).replace(
        " ", ""
    )
    assert wire.dumps({2: "x"}) == '{"2":"x"}' and json_text({2: "x"}) == '{"2":"x"}'
    with pytest.raises(TypeError):
        encode_text({"bad": {1, 2}})
