"""A seat's view kept whole from ``welcome`` and ``patch`` messages (whole views and diffs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

View = dict[str, Any]
LegalAction = dict[str, Any]


def apply_diff(view: View, diff: dict[str, Any]) -> View:
    """``view`` with a patch's ``diff`` applied, as a new dict (``view`` is not changed).

    ``del`` removes top-level keys, ``set`` replaces (or adds) top-level keys whole, and
    ``sub`` replaces entries one level down: ``{"castles": {"2": {...}}}`` is index 2 of the
    list at ``castles`` (the list keeps its length) or key ``"2"`` of the object there."""
    out = dict(view)
    for key in diff.get("del", ()):
        out.pop(key, None)
    out.update(diff.get("set", {}))
    for key, entries in diff.get("sub", {}).items():
        target = out[key]
        if isinstance(target, list):
            copied = list(target)
            for index, item in entries.items():
                copied[int(index)] = item
            out[key] = copied
        else:
            out[key] = {**target, **entries}
    return out


@dataclass
class HeldView:
    """What a connection holds: the version, the whole view, the seat's legal actions and
    the seats the match waits for. ``read`` takes a ``welcome`` or ``patch`` message."""

    version: int | None = None
    view: View | None = None
    legal: list[LegalAction] = field(default_factory=list)
    awaiting: list[int] = field(default_factory=list)

    def read(self, message: dict[str, Any], *, fill_in: bool = False) -> str:
        """Apply a message: ``"applied"``; ``"history"`` for a patch at or below the version
        held (its events are news, its view is not); ``"resync"`` for a diff whose ``base``
        is not the version held (ask the server for the whole view again). ``fill_in``: also
        write the whole ``view``, ``legal`` and ``awaiting`` into an applied diff ``message``,
        so that code written for whole messages reads diffs unchanged."""
        version = message["version"]
        if message.get("type") == "patch" and self.version is not None and version <= self.version:
            return "history"
        if "view" in message:
            self.view = message["view"]
            self.legal = message.get("legal") or []
            self.awaiting = message.get("awaiting") or []
        else:
            if self.view is None or message.get("base") != self.version:
                return "resync"
            if "diff" in message:
                self.view = apply_diff(self.view, message["diff"])
            if "legal" in message:
                self.legal = message["legal"]
            if "awaiting" in message:
                self.awaiting = message["awaiting"]
            if fill_in:
                message["view"], message["legal"] = self.view, self.legal
                message["awaiting"] = self.awaiting
        self.version = version
        return "applied"
