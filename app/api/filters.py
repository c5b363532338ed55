"""List filters of the REST API: a value that names nothing is refused, never an empty list.

A filter's values are listed in the OpenAPI document (``enum``), and a value outside them is
``request/invalid`` (422) whose detail names the values allowed. Games are the engines this
server plays (``engines.registry``: the built-in four, and any registered beside them such as
the bench ``tally``), read when the schema is built and when a request is checked.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Query
from pydantic import AfterValidator

from engines import registry

# Every status a match row takes (``app.db.models.Match.status``).
MatchStatus = Literal["running", "finished", "aborted", "voided"]
# Every status a tournament takes (``app.tournaments.formats.Status``).
TournamentStatus = Literal["draft", "registration", "running", "finished"]


def known_game(value: str | None) -> str | None:
    """``value`` when it is a game this server plays; else a ``ValueError`` naming them."""
    if value is not None and value not in registry.ids():
        raise ValueError(f"no game {value!r}; the games are: {', '.join(registry.ids())}")
    return value


def game_enum(schema: dict[str, Any]) -> None:
    """The game filter's schema: one of the games played when the document is built."""
    schema.clear()
    schema.update(type="string", enum=registry.ids(), description="a game id")


GameFilter = Annotated[
    str | None,
    Query(max_length=32, description="a game id", json_schema_extra=game_enum),
    AfterValidator(known_game),
]
MatchStatusFilter = Annotated[
    MatchStatus | None,
    Query(description="running, finished, aborted (ended without a result) or voided"),
]
TournamentStatusFilter = Annotated[
    TournamentStatus | None,
    Query(description="draft, registration (open to entries), running or finished"),
]
