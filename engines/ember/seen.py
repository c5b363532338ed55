"""The per-seat cache of an Ember view's parts: what ``view`` built last and from which facts.

Kept apart from ``view`` because the match state (``state.EmberState.seen``) holds one per
seat, and ``view`` reads and renews them; neither needs the other to say what a ``Seen`` is.
"""

from __future__ import annotations

from typing import Any


class Seen:
    """One seat's view parts as last built, with the facts they were built from.

    The server asks every connection's view after every change, and most changes touch one
    player's areas (often only the counts), so each player's entry is built once and shared by
    every view (and every later view) while its facts compare equal, and a rebuilt entry
    reuses the parts (emberscape, discard pile, stones) whose lists did not change. Parts are
    never changed once handed out: a change builds new ones, so earlier views stay snapshots.
    """

    __slots__ = (
        "discard",
        "facts",
        "hand",
        "hand_view",
        "known_stones",
        "own",
        "own_scape",
        "public",
        "scape",
        "stones",
    )

    def __init__(self) -> None:
        self.facts: tuple[Any, ...] | None = None
        self.public: dict[str, Any] = {}
        self.own: dict[str, Any] | None = None
        self.scape: list[dict[str, Any]] = []
        self.own_scape: list[dict[str, Any]] | None = None
        self.discard: list[str] = []
        self.known_stones = 0
        self.stones = 0
        self.hand: list[int] | None = None
        self.hand_view: list[dict[str, Any]] = []
