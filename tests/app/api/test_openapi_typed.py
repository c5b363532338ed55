"""Every 2xx response in the OpenAPI document has a real schema: no free-form object anywhere in
it, apart from the open maps listed here (each documented in its schema's description)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.config import Settings
from app.main import create_app

# Properties that are open maps on purpose, whatever model holds them (each says so in its
# schema's description): why each may hold any keys.
OPEN_MAPS = {
    "options": "a game's table options: their keys are the game's rules' (each game's README)",
    "state": "a finished match's whole engine state, in the engine's own serialization",
    "actions": "a game's actions as a JSON Schema: its keys are JSON Schema's",
}


def free_form(schema: dict[str, Any]) -> bool:
    """An object with nothing said about its keys or values."""
    if any(key in schema for key in ("$ref", "oneOf", "anyOf", "allOf", "enum", "const")):
        return False
    typed = schema.get("type")
    if typed not in (None, "object"):
        return False
    extra = schema.get("additionalProperties")
    if "properties" in schema:
        return extra is True or extra == {}
    if isinstance(extra, dict) and extra:
        return free_form(extra)  # a map: its values must be typed
    return typed == "object" or not schema  # {} is anything at all


def walk(schema: Any, where: str, found: list[str], seen: set[str], doc: dict[str, Any]) -> None:
    """Record in ``found`` every free-form object reachable from ``schema``."""
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if ref:
        name = ref.rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            walk(doc["components"]["schemas"][name], name, found, seen, doc)
        return
    if free_form(schema) and where.rsplit(".", 1)[-1] not in OPEN_MAPS:
        found.append(where)
        return
    for key, inner in schema.get("properties", {}).items():
        walk(inner, f"{where.split('.')[0]}.{key}", found, seen, doc)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            walk(schema[key], where, found, seen, doc)
    for key in ("oneOf", "anyOf", "allOf", "prefixItems"):
        for inner in schema.get(key, []):
            walk(inner, where, found, seen, doc)


def successes(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Each 2xx JSON response schema, named by method, path and status."""
    found = []
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if not status.startswith("2"):
                    continue
                for media, content in response.get("content", {}).items():
                    if media == "application/json":
                        found.append((f"{method.upper()} {path} {status}", content["schema"]))
    return found


def test_no_success_response_is_a_free_form_object(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.db"))
    doc = app.openapi()
    loose = []
    for name, schema in successes(doc):
        found: list[str] = []
        walk(schema, name, found, set(), doc)
        loose.extend(f"{name}: {where}" for where in found)
    assert not loose, "free-form response schemas:\n" + "\n".join(loose)


def test_every_json_success_has_a_schema(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.db"))
    doc = app.openapi()
    empty = [name for name, schema in successes(doc) if not schema]
    assert not empty, empty


def test_the_checker_finds_free_form_objects() -> None:
    doc: dict[str, Any] = {"components": {"schemas": {}}}
    for schema in (
        {"type": "object"},
        {"type": "object", "additionalProperties": True},
        {},
        {"type": "array", "items": {"type": "object"}},
        {"type": "object", "properties": {"a": {"type": "object"}}},
        {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": True},
    ):
        found: list[str] = []
        walk(schema, "X", found, set(), doc)
        assert found, schema
    for schema in (
        {"type": "object", "properties": {"a": {"type": "integer"}}},
        {"type": "object", "additionalProperties": {"type": "integer"}},
        {"type": "array", "items": {"type": "string"}},
    ):
        found = []
        walk(schema, "X", found, set(), doc)
        assert not found, schema
