"""View diffs: what changed in a seat's view from one version to the next, and how to apply it.

The ``patch`` message (the socket reference, ``/asyncapi.json``) carries either a whole view
or a diff of the view the receiver holds. A diff is a JSON object with up to three parts,
each left out when empty::

    "diff": {"set": {KEY: VALUE, ...},            top-level keys replaced (or added) whole
             "sub": {KEY: {SUB: VALUE, ...}, ...}, one level down: in the list (SUB is an
                                                    index, written as a string) or the object
                                                    at KEY, these entries replaced (or added
                                                    to an object); the list keeps its length
             "del": [KEY, ...]}                    top-level keys removed

A diff patch says which version it applies to (``base``); ``legal`` and ``awaiting`` are
present only when they changed (absent: as before). A patch with ``view`` is whole: view,
``legal`` and ``awaiting`` replace what the receiver held, whatever its version.

``DiffBuilder`` builds diffs on the server (per-key comparison, C-speed equality on unchanged
parts). Clients apply them: the official Python client (``rampart_client.views``, which the
tests and the load generator use) and the browser (``static/js/viewpatch.js``).
"""

from __future__ import annotations

from typing import Any

import orjson

from app.jsonenc import encode_text as dumps

# A changed list or object is diffed one level down (``sub``) when at most this share of
# its entries changed; more, and it is replaced whole (``set``): shorter and cheaper.
SUB_SHARE = 0.5


class DiffBuilder:
    """The diffs of one version's views from the previous version's. Unchanged parts are
    found by one comparison per key (identity, then C-speed equality); a changed list or
    object shared by several audiences' views (Ambush!'s public part is one object in every
    seat's view) is diffed one level down once per version. Keep a builder only while the
    views it was given are alive (identities are its keys)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[int, int], dict[Any, Any] | None] = {}

    def diff_text(self, old: dict[str, Any], new: dict[str, Any]) -> str:
        """The diff from ``old`` to ``new`` as JSON, ``""`` when they are equal."""
        changed = [
            key
            for key, value in new.items()
            if value is not (was := old.get(key, _NONE)) and value != was
        ]
        keys_differ = old.keys() != new.keys()
        if not changed and not keys_differ:
            return ""
        replaced: dict[str, Any] = {}
        nested: dict[str, Any] = {}
        known = self._entries
        for key in changed:
            value, before = new[key], old.get(key, _NONE)
            entries = None
            if before is not _NONE:
                pair = (id(before), id(value))
                entries = known.get(pair, _NONE)
                if entries is _NONE:
                    entries = known[pair] = _changed_entries(before, value)
            if entries is None:
                replaced[key] = value
            else:
                nested[key] = entries
        diff: dict[str, Any] = {}
        if replaced:
            diff["set"] = replaced
        if nested:
            diff["sub"] = nested
        if keys_differ:
            gone = [key for key in old if key not in new]
            if gone:
                diff["del"] = gone
        return dumps(diff)


_NONE: Any = object()


def diff_view(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The diff that turns ``old`` into ``new``, as a JSON object (``{}`` when equal)."""
    text = DiffBuilder().diff_text(old, new)
    diff: dict[str, Any] = orjson.loads(text) if text else {}
    return diff


def _changed_entries(before: Any, after: Any) -> dict[Any, Any] | None:
    """The entries of a list (same length) or an object (no key removed) that changed, when
    few enough did (``SUB_SHARE``); None when the value is better replaced whole."""
    kind = type(after)
    if kind is not type(before):
        return None
    if kind is list:
        if len(after) != len(before) or len(after) < 2:
            return None
        changed: dict[Any, Any] = {
            str(index): item
            for index, (item, was) in enumerate(zip(after, before, strict=True))
            if item is not was and item != was
        }
    elif kind is dict:
        if len(after) < 2 or any(key not in after for key in before):
            return None
        missing = object()
        changed = {
            key: item
            for key, item in after.items()
            if (was := before.get(key, missing)) is not item and was != item
        }
    else:
        return None
    return changed if len(changed) <= len(after) * SUB_SHARE else None
