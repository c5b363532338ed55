"""View diffs: what changed in a seat's view from one version to the next, and how to apply it.

The ``patch`` message (README, "Match socket") carries either a whole view or a diff of the
view the receiver holds. A diff is a JSON object with up to three parts, each left out when
empty::

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
parts, each shared part compared and encoded once per version); ``apply_diff`` and
``PatchReader`` are the Python readers (tests, the load generator);
``static/js/viewpatch.js`` is the browser's.
"""

from __future__ import annotations

from typing import Any

import orjson

from app.jsonenc import encode_text as dumps

# A changed list or object is diffed one level down (``sub``) when at most this share of
# its entries changed; more, and it is replaced whole (``set``): shorter and cheaper.
SUB_SHARE = 0.5


class DiffBuilder:
    """The diffs of one version's views from the previous version's, sharing work between
    audiences: engines share nested parts between the views of one version (Ambush!'s
    public part, one object in every seat's view), so a pair of parts (by identity) is
    compared once and a changed part encoded once, however many audiences see it. Keep a
    builder only while the views it was given are alive (identities are its keys)."""

    def __init__(self) -> None:
        self._compared: dict[tuple[int, int], Any] = {}  # -> _SAME, None (replace) or entries
        self._texts: dict[int, str] = {}  # id(part) -> its JSON

    def diff_text(self, old: dict[str, Any], new: dict[str, Any]) -> str:
        """The diff from ``old`` to ``new`` as JSON, ``""`` when they are equal."""
        replaced: list[tuple[str, Any]] = []
        nested: list[tuple[str, Any]] = []
        added = 0
        compared = self._compared
        for key, value in new.items():
            if key not in old:
                replaced.append((key, value))
                added += 1
                continue
            before = old[key]
            if value is before:
                continue
            kind = type(value)
            if kind is list or kind is dict:
                pair = (id(before), id(value))
                change = compared.get(pair, _UNKNOWN)
                if change is _UNKNOWN:
                    change = _SAME if value == before else _changed_entries(before, value)
                    compared[pair] = change
                if change is _SAME:
                    continue
                if change is None:
                    replaced.append((key, value))
                else:
                    nested.append((key, change))
            elif value != before:
                replaced.append((key, value))
        parts = []
        if replaced:
            parts.append(f'"set":{{{self._members(replaced)}}}')
        if nested:
            parts.append(f'"sub":{{{self._members(nested)}}}')
        if len(old) > len(new) - added:  # some key of ``old`` is not in ``new``
            parts.append(f'"del":{dumps([key for key in old if key not in new])}')
        return f"{{{','.join(parts)}}}" if parts else ""

    def _members(self, items: list[tuple[str, Any]]) -> str:
        texts = self._texts
        out = []
        for key, value in items:
            text = texts.get(id(value))
            if text is None:
                text = dumps(value)
                if type(value) is list or type(value) is dict:
                    texts[id(value)] = text
            out.append(f"{_key_json(key)}:{text}")
        return ",".join(out)


_UNKNOWN = object()
_SAME = object()
_KEYS: dict[Any, str] = {}


def _key_json(key: Any) -> str:
    text = _KEYS.get(key)
    if text is None:
        text = dumps(key if type(key) is str else str(key))
        if len(_KEYS) < 10_000:  # view keys are few; a bound all the same
            _KEYS[key] = text
    return text


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


def apply_diff(view: dict[str, Any], diff: dict[str, Any]) -> dict[str, Any]:
    """A new view: ``view`` with ``diff`` applied. ``view`` itself is not changed (the lists
    and objects a ``sub`` touches are copied)."""
    out = dict(view)
    for key in diff.get("del", ()):
        out.pop(key, None)
    out.update(diff.get("set", {}))
    for key, entries in diff.get("sub", {}).items():
        target = out[key]
        if type(target) is list:
            copied = list(target)
            for index, item in entries.items():
                copied[int(index)] = item
            out[key] = copied
        else:
            out[key] = {**target, **entries}
    return out


class PatchReader:
    """One connection's view, legal actions and awaited seats, kept up to date from
    ``welcome`` and ``patch`` messages. ``read`` fills a patch in to its whole form (``view``,
    ``legal``, ``awaiting``), so a reader written for whole views reads diffs unchanged."""

    def __init__(self) -> None:
        self.version: int | None = None
        self.view: dict[str, Any] | None = None
        self.legal: list[dict[str, Any]] = []
        self.awaiting: list[int] = []

    def read(self, message: dict[str, Any]) -> bool:
        """Apply a ``welcome`` or ``patch``; False (nothing changed) when it is a diff for a
        version this reader does not hold: the connection must ask for a ``resync``."""
        if "view" in message:
            self.view = message["view"]
            self.legal = message.get("legal") or []
            self.awaiting = message.get("awaiting") or []
        else:
            if self.view is None or message.get("base") != self.version:
                return False
            if "diff" in message:
                self.view = apply_diff(self.view, message["diff"])
            if "legal" in message:
                self.legal = message["legal"]
            if "awaiting" in message:
                self.awaiting = message["awaiting"]
            message["view"], message["legal"] = self.view, self.legal
            message["awaiting"] = self.awaiting
        self.version = message["version"]
        return True
