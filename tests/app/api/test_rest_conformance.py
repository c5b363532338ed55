"""The REST schema and the request validation agree: what ``/openapi.json`` accepts is never
refused ``request/invalid``, and what it refuses is (a rule of the game or of names may still
refuse a valid request, with its own code). Integral numbers are integers (``2.0``), names
carry their length bounds, instants are RFC 3339 date-times (any offset, any year the format
allows), table options are bounded in the schema as in the validator; and ``OPTIONS`` on any
API path answers 204 with ``Allow``, as a 405 does."""

from __future__ import annotations

from typing import Any

import jsonschema_rs

from tests.app.support import Api


async def openapi(api: Api) -> dict[str, Any]:
    spec: dict[str, Any] = (await api.client.get("/openapi.json")).json()
    return spec


def accepts(spec: dict[str, Any], schema: dict[str, Any], value: Any) -> bool:
    """Whether ``schema`` (whose references point into the spec's components) takes ``value``,
    formats included."""
    document = {**schema, "components": spec["components"]}
    return bool(jsonschema_rs.validator_for(document, validate_formats=True).is_valid(value))


def body_schema(spec: dict[str, Any], path: str) -> dict[str, Any]:
    content = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    schema: dict[str, Any] = content["schema"]
    return schema


def query_schema(spec: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    for parameter in spec["paths"][path]["get"]["parameters"]:
        if parameter["name"] == name:
            schema: dict[str, Any] = parameter["schema"]
            return schema
    raise AssertionError(f"no query parameter {name} on {path}")


def validated(reply: Any) -> bool:
    """Whether the request passed validation (anything but a 422 ``request/invalid``)."""
    if reply.status_code != 422:
        return True
    return bool(reply.json()["error"]["code"] != "request/invalid")


async def test_lobby_bodies_validate_as_the_schema_says(api: Api) -> None:
    spec = await openapi(api)
    token = await api.guest("Conformance")
    schema = body_schema(spec, "/api/lobbies")
    bodies: list[dict[str, Any]] = [
        {"game": "ambush", "seats": 2.0},  # JSON has one number type: 2.0 is an integer
        {"game": "ambush", "seats": 2, "time_control": {"turn_ms": 30000.0}},
        {"game": "ambush", "seats": 2.5},
        {"game": "ambush", "seats": "2"},
        {"game": "ambush", "seats": True},
        {"game": "ambush", "seats": 1e300},
        {"game": "ambush", "seats": 2, "options": {"": 1}},
        {"game": "ambush", "seats": 2, "options": {"k" * 41: 1}},
        {"game": "ambush", "seats": 2, "options": {"a": 2**60}},
        {"game": "ambush", "seats": 2, "options": {"a": 1e300}},
        {"game": "ambush", "seats": 2, "options": {"a": 2.5}},
        {"game": "ambush", "seats": 2, "options": {"a": None, "b": [True, "x"]}},
        {"game": "ambush", "seats": 2, "options": {"a": "x" * 201}},
        {"game": "ambush", "seats": 2, "options": {"a": {"b": {"c": [1]}}}},
        {"game": "ambush", "seats": 2, "options": {"a": {"b": {"c": [[1]]}}}},
        {"game": "ambush", "seats": 2, "options": {"a": [{"x" * 201: 1}]}},
    ]
    verdicts = []
    for body in bodies:
        reply = await api.post("/api/lobbies", token, body)
        verdicts.append((body, accepts(spec, schema, body), validated(reply), reply.text[:200]))
    assert all(schema_says == passed for _, schema_says, passed, _ in verdicts), [
        v for v in verdicts if v[1] != v[2]
    ]
    # And the integral number was taken as the integer it is.
    assert verdicts[0][1] is True and verdicts[2][1] is False


async def test_names_carry_their_bounds_in_the_schema(api: Api) -> None:
    spec = await openapi(api)
    schema = body_schema(spec, "/api/accounts")
    name = spec["components"]["schemas"]["NewAccount"]["properties"]["name"]
    assert name["minLength"] == 1 and name["maxLength"] >= 24
    for body in ({"name": ""}, {"name": "x" * 101}, {"name": "Conformance Ann"}):
        reply = await api.client.post("/api/accounts", json=body)
        assert accepts(spec, schema, body) == validated(reply), (body, reply.text)
    assert not accepts(spec, schema, {"name": ""})


async def test_instants_are_rfc3339_date_times_of_any_offset_and_year(api: Api) -> None:
    spec = await openapi(api)
    schema = query_schema(spec, "/api/matches", "since")
    cases = [
        ("since", "0001-01-01T00:00:00+02:03", 200),  # before year 1 in UTC: the start of time
        ("until", "9999-12-31T23:59:59-01:00", 200),  # past year 9999 in UTC: the end of time
        ("since", "2016-12-31T23:59:60Z", 200),  # a leap second
        ("since", "2020-01-01t00:00:00.5z", 200),
        ("since", "2020-01-01T00:00:00", 422),  # no offset: not a date-time
        ("since", "2020-01-01 00:00:00Z", 422),
        ("since", "0.5", 422),
    ]
    for name, instant, status in cases:
        reply = await api.get("/api/matches", **{name: instant})
        assert reply.status_code == status, (instant, reply.text)
        assert accepts(spec, schema, instant) == (status == 200), instant
    every = (await api.get("/api/matches")).json()["total"]
    early = await api.get("/api/matches", since="0001-01-01T00:00:00+02:03")
    late = await api.get("/api/matches", until="9999-12-31T23:59:59-01:00")
    assert early.json()["total"] == late.json()["total"] == every
    none = await api.get("/api/matches", until="0001-01-01T00:00:00+02:03")
    assert none.json()["total"] == 0


async def test_options_and_405_name_the_allowed_methods(api: Api) -> None:
    def allowed(reply: Any) -> set[str]:
        return {m.strip() for m in reply.headers["allow"].split(",")}

    options = await api.client.request("OPTIONS", "/api/lobbies")
    assert options.status_code == 204 and allowed(options) == {"GET", "POST", "OPTIONS"}
    assert options.content == b""
    join = await api.client.request("OPTIONS", "/api/lobbies/1/join")
    assert join.status_code == 204 and allowed(join) == {"POST", "OPTIONS"}
    refused = await api.client.request("PATCH", "/api/lobbies")
    assert refused.status_code == 405 and allowed(refused) == {"GET", "POST", "OPTIONS"}
    assert refused.json()["error"]["code"] == "http/405"
    assert (await api.client.request("OPTIONS", "/api/nothing/here")).status_code == 404
