"""The websocket fuzz campaign's message set as hypothesis strategies (``specs``), and how a
drawn message is written (``encode``).

A spec is a dict to encode, a legal action to send as it is or mutated (``("legal", how,
value)``: an extra field, a field replaced, a hostile ``client_seq``), or raw text
(``("raw", text)``).
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

EDGE_INTS = [-(2**63) - 1, -(2**53), -1, 0, 1, 2**31, 2**53 - 1, 2**53, 2**63 - 1, 2**63, 2**64]
EDGE_INTS += [10**30, -(10**30)]
ints = st.one_of(st.integers(-3, 40), st.sampled_from(EDGE_INTS), st.integers())
floats = st.floats(allow_nan=True, allow_infinity=True)
texts = st.one_of(st.text(max_size=12), st.just("é" * 300), st.just("J" * 7000))
scalars = st.one_of(st.none(), st.booleans(), ints, floats, texts)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=8), inner, max_size=6)
    ),
    max_leaves=8,
)
MESSAGE_TYPES = ["hello", "action", "grab", "pong", "chat", "rematch"]
ACTION_TYPES = [
    "move", "pass", "play", "grab", "place", "expose", "call", "end_turn", "act", "trap",
    "strike", "hero", "mode", "arcane", "respond", "discard", "attack", "build", "no_such",
]  # fmt: skip
ACTION_FIELDS = ["card", "cell", "target", "targets", "zone", "to", "with", "seat", "hero"]
ACTION_FIELDS += ["build", "look", "swap", "choice", "target_seat", "target_card", "junk"]
cells = st.one_of(st.lists(st.integers(-12, 12), min_size=2, max_size=2), json_values)
actions = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(ACTION_TYPES)},
        optional={name: st.one_of(st.integers(-2, 60), cells) for name in ACTION_FIELDS},
    ),
    json_values,
)
FIELDS: dict[str, Any] = {
    "client_seq": st.one_of(st.integers(0, 10**6), ints, json_values),
    "action": actions,
    "cell": cells,
    "ref": st.one_of(st.integers(0, 200), ints, json_values),
    "dt": st.one_of(st.floats(-50, 500), floats, ints, json_values),
    "seat": st.one_of(st.integers(-1, 4), json_values),
    "version": st.one_of(st.integers(0, 200), json_values),
    "token": st.one_of(st.text(max_size=40), json_values),
    "last_version": st.one_of(st.integers(0, 200), json_values),
    "nonce": st.one_of(st.integers(0, 10**6), ints, texts, json_values),
    "text": st.one_of(texts, json_values),
    "junk": json_values,
}
message_types = st.one_of(st.sampled_from(MESSAGE_TYPES), json_values)
structured = st.builds(
    lambda kind, fields: {"type": kind, **fields},
    message_types,
    st.fixed_dictionaries({}, optional=FIELDS),
)
# A message is a dict to encode, a legal action to send (as is or mutated), or raw text.
legal_moves = st.tuples(
    st.just("legal"),
    st.sampled_from(["as_is", "as_is", "extra", "replace", "seq"]),
    json_values,
)
garbage = st.one_of(
    st.text(max_size=60),
    st.builds(lambda d, cut: json.dumps(d)[:cut], structured, st.integers(1, 80)),
)
specs = st.one_of(
    structured, structured, structured, legal_moves, legal_moves, st.tuples(st.just("raw"), garbage)
)


def encode(value: Any) -> str:
    return json.dumps(value, allow_nan=True)  # NaN and Infinity as JavaScript writes them
