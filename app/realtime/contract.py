"""The socket protocol as an AsyncAPI 3 document, built from the types that implement it.

The client messages are the validators in ``app.realtime.messages``; the server messages are
the ``TypedDict`` types of ``app.protocol`` that the server's builders return (so mypy holds
them to it); their JSON Schemas are pydantic's. The server serves the document at
``/asyncapi.json``, the docs site renders it, and the tests validate every message of whole
matches against it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, TypeAdapter

from app.protocol.actions import GAME_ACTIONS
from app.protocol.lobby import LOBBY_MESSAGES
from app.protocol.match import MATCH_MESSAGES
from app.realtime.messages import Action, Chat, Grab, Hello, Pong, Rematch, Resync

router = APIRouter()
REF = "#/components/schemas/{model}"
MATCH_CLIENT: tuple[type[BaseModel], ...] = (Hello, Action, Grab, Pong, Chat, Rematch, Resync)
LOBBY_CLIENT: tuple[type[BaseModel], ...] = (Hello, Pong)

INTRO = """\
Rampart's two websockets. Every message is a JSON object with a `type`. A client connects,
sends `hello` first (a match socket refuses anything else before it; both close a socket that
says nothing for a few seconds), and then reads messages in order.

**Match socket, in order**: `welcome` answers `hello` with the whole view at the current
version (after a reconnect with `last_version`, the versions missed ride in it as `missed`);
after it, each new version comes as one `patch` per connection, numbered one above the last,
never older than the welcome. An action is answered once, by `ack` (played) or `error` with
its `client_seq` (not played; with `retry`, send it again as a new action after
`retry_after_ms`); a grab by `grab_result`. Resending the same `client_seq` after a reconnect is
harmless: the server answers a repeat with the first answer and `duplicate: true`. When the
match ends every connection gets the last `patch` (its view's `outcome` is set) and then
`ended`. `ping` must be answered with `pong` at once.
"""


def _schema_of(kind: Any, schemas: dict[str, Any], name: str | None = None) -> dict[str, Any]:
    """The JSON Schema of a type under ``name`` (the type's own name by default), its
    definitions gathered into ``schemas``; returns a reference to it."""
    adapter: TypeAdapter[Any] = TypeAdapter(kind)
    schema = adapter.json_schema(ref_template=REF)
    schemas.update(schema.pop("$defs", {}))
    name = name or kind.__name__
    schemas[name] = schema
    return {"$ref": REF.format(model=name)}


def _game_actions(schemas: dict[str, Any]) -> None:
    """Each game's action union (``AmbushAction``, ...) and its members into ``schemas``: what
    the ``action`` of an ``action`` message holds in a match of that game."""
    for name, union in GAME_ACTIONS.values():
        _schema_of(union, schemas, name)


def _message_id(kind: type) -> str:
    return kind.__name__[0].lower() + kind.__name__[1:]


def _message(kind: type, schemas: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {
        "name": kind.__name__,
        "title": kind.__name__,
        "payload": _schema_of(kind, schemas),
    }
    if kind.__doc__:
        message["description"] = " ".join(kind.__doc__.split())
    return message


@cache
def asyncapi_document() -> dict[str, Any]:
    """The whole AsyncAPI 3.0 document (built once; it depends on the code only)."""
    schemas: dict[str, Any] = {}
    messages: dict[str, Any] = {}

    def refs(kinds: tuple[type, ...], prefix: str) -> dict[str, Any]:
        out = {}
        for kind in kinds:
            key = f"{prefix}.{_message_id(kind)}"
            messages[key] = _message(kind, schemas)
            out[_message_id(kind)] = {"$ref": f"#/components/messages/{key}"}
        return out

    match_in = refs(MATCH_CLIENT, "matchClient")
    _game_actions(schemas)
    match_out = refs(MATCH_MESSAGES, "matchServer")
    lobby_in = refs(LOBBY_CLIENT, "lobbyClient")
    lobby_out = refs(LOBBY_MESSAGES, "lobbyServer")

    def operation(
        action: str, channel: str, channel_messages: dict[str, Any], what: str
    ) -> dict[str, Any]:
        return {
            "action": action,
            "channel": {"$ref": f"#/channels/{channel}"},
            "summary": what,
            "messages": [
                {"$ref": f"#/channels/{channel}/messages/{key}"} for key in channel_messages
            ],
        }

    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Rampart sockets",
            "version": "1",
            "description": INTRO,
        },
        "defaultContentType": "application/json",
        "channels": {
            "match": {
                "address": "/ws/matches/{match_id}",
                "title": "Match socket",
                "description": "One match: play a seat (hello with a token) or watch it.",
                "parameters": {"match_id": {"description": "the match's id"}},
                "messages": {**match_in, **match_out},
            },
            "lobby": {
                "address": "/ws/lobby",
                "title": "Lobby socket",
                "description": (
                    "The open tables and tournaments as they change; after a hello with a "
                    "token, your own news (quick play, rematches, tournament calls)."
                ),
                "messages": {**lobby_in, **lobby_out},
            },
        },
        "operations": {
            "playMatch": operation("receive", "match", match_in, "what a client sends"),
            "followMatch": operation("send", "match", match_out, "what the server sends"),
            "greetLobby": operation("receive", "lobby", lobby_in, "what a client sends"),
            "followLobby": operation("send", "lobby", lobby_out, "what the server sends"),
        },
        "components": {"messages": messages, "schemas": schemas},
    }


@router.get("/asyncapi.json", include_in_schema=False)
async def asyncapi_json() -> dict[str, Any]:
    """The socket protocol's AsyncAPI document (the REST API's is ``/openapi.json``)."""
    return asyncapi_document()
