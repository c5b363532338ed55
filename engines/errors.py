"""The refusals an engine raises: ``InvalidAction`` (malformed) and ``IllegalAction`` (not now)."""

from __future__ import annotations


class ActionError(Exception):
    """An action the engine refused; ``code`` is stable (``game/reason``), ``message`` human."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.message = message or code


class InvalidAction(ActionError):
    """The action is malformed, whatever the state: not an object, an unknown ``type``, a
    missing, unknown or mistyped field, a seat out of range, an unknown card or option."""


class IllegalAction(ActionError):
    """The action is well formed but the rules do not allow it now."""
