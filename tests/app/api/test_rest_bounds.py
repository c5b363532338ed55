"""REST input bounds: out-of-range ids, versions, offsets and seats, oversized or
non-finite options, are a 422 ``request/invalid`` and never a 500; the OpenAPI schema declares
every refusal; a rated table or tournament refuses options that stack the deal or seating."""

from __future__ import annotations

import contextlib
import itertools
import json
import sqlite3
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from app.api.deps import CurrentPlayer
from app.api.errors import install_error_handlers
from app.api.schemas import CastleName
from tests.app.conftest import BACKENDS, ServerFactory
from tests.app.support import Api, Server

HUGE = (2**63, 2**64, 10**30, 2**31, 0, -1)  # 2^31: past a 32-bit INTEGER column

# Every route naming a row by id, with a body its schema accepts (so only the id is wrong).
ID_ROUTES: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/matches/{}", None),
    ("GET", "/api/matches/{}/events", None),
    ("GET", "/api/matches/{}/state", None),
    ("GET", "/api/matches/{}/route", None),
    ("GET", "/api/lobbies/{}", None),
    ("POST", "/api/lobbies/{}/join", {}),
    ("POST", "/api/lobbies/{}/leave", None),
    ("POST", "/api/lobbies/{}/castle", {"name": "Keep"}),
    ("POST", "/api/lobbies/{}/vote", {"for_seat": 1}),
    ("POST", "/api/lobbies/{}/bots", {}),
    ("POST", "/api/lobbies/{}/start", None),
    ("GET", "/api/players/{}", None),
    ("GET", "/api/players/{}/ratings", None),
    ("GET", "/api/tournaments/{}", None),
    ("POST", "/api/tournaments/{}/open", None),
    ("POST", "/api/tournaments/{}/register", None),
    ("POST", "/api/tournaments/{}/bots", {}),
    ("POST", "/api/tournaments/{}/withdraw", {}),
    ("POST", "/api/tournaments/{}/start", None),
    ("GET", "/api/tournaments/{}/rounds", None),
    ("GET", "/api/tournaments/{}/rounds/1/pairings", None),
    ("GET", "/api/tournaments/{}/standings", None),
    ("GET", "/api/ladders/{}", None),
    ("GET", "/api/ladders/{}/entries", None),
    ("POST", "/api/ladders/{}/join", None),
]


_numbers = itertools.count(1)


async def guest(api: Api, stem: str) -> str:
    """A guest with a name of its own (names are unique, and tests repeat)."""
    return await api.guest(f"{stem} {next(_numbers)}")


def invalid(reply: httpx.Response, where: str) -> None:
    """A 422 ``request/invalid`` whose details name ``where`` (a parameter or body field)."""
    assert reply.status_code == 422, (reply.request.url, reply.status_code, reply.text)
    error = reply.json()["error"]
    assert error["code"] == "request/invalid", error
    assert any(where in detail["loc"] for detail in error["details"]), error


async def send(
    api: Api, method: str, path: str, token: str, body: Any = None, **params: Any
) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"}
    if method == "GET":
        return await api.client.get(path, headers=headers, params=params)
    return await api.client.post(path, headers=headers, json=body, params=params)


async def test_an_id_out_of_range_is_a_422_on_every_route(api: Api) -> None:
    token = await guest(api, "Bounds")
    for method, template, body in ID_ROUTES:
        for number in HUGE:
            reply = await send(api, method, template.format(number), token, body)
            assert reply.status_code == 422, (method, template, number, reply.text)
            assert reply.json()["error"]["code"] == "request/invalid"


async def test_versions_offsets_players_and_seats_out_of_range_are_422(api: Api) -> None:
    host = await guest(api, "Queries")
    match_id = await api.table("castles", [host], seats=2, bots="heuristic")
    ladder_id = (await api.get("/api/ladders")).json()[0]["id"]
    for number in (2**63, 10**30, 2**31):
        invalid(await api.get(f"/api/matches/{match_id}/state", host, version=number), "version")
        invalid(await api.get(f"/api/matches/{match_id}/state", host, seat=number), "seat")
        invalid(await api.get(f"/api/matches/{match_id}/events", host, seat=number), "seat")
        invalid(await api.get("/api/matches", host, player=number), "player")
        invalid(await api.get("/api/matches", host, offset=number), "offset")
        invalid(await api.get(f"/api/ladders/{ladder_id}/entries", offset=number), "offset")
    invalid(await api.get("/api/matches", host, game="g" * 33), "game")
    invalid(await api.get("/api/matches", host, until="0.5"), "until")  # not an ISO date-time
    # In range they still work.
    assert (await api.get(f"/api/matches/{match_id}/state", host, version=0)).status_code == 200
    assert (await api.get("/api/matches", host, offset=10_000)).json()["matches"] == []


@pytest.mark.parametrize("backend", BACKENDS)
async def test_what_the_database_cannot_hold_is_refused_before_it(
    make_server: ServerFactory, backend: str
) -> None:
    """PostgreSQL's INTEGER ids are 32-bit and its instants must exist in UTC: an id of 2^31
    or a year-1 instant east of Greenwich failed there with a 500 (SQLite took both). The id
    is refused; the instant, a valid RFC 3339 date-time, is clamped to the first (or last)
    instant UTC holds, which both databases compare as they would the real one."""
    api = Api(make_server(backend))
    try:
        token = await guest(api, "Database")
        for method, template, body in ID_ROUTES:
            reply = await send(api, method, template.format(2**31), token, body)
            assert reply.status_code == 422, (method, template, reply.text)
        for name, instant in (
            ("since", "0001-01-01T00:00:00+01:00"),
            ("until", "9999-12-31T23:59:59-01:00"),
        ):
            clamped = await api.get("/api/matches", token, **{name: instant})
            assert clamped.status_code == 200, clamped.text
        fine = await api.get("/api/matches", token, since="2020-01-01T00:00:00+05:00")
        assert fine.status_code == 200 and fine.json()["total"] == 0
    finally:
        await api.close()


async def test_integers_inside_bodies_are_bounded(api: Api) -> None:
    host, joiner = await guest(api, "BodyHost"), await guest(api, "BodyGuest")
    lobby = await api.ok("/api/lobbies", host, {"game": "castles", "seats": 2})
    tournament = await api.ok("/api/tournaments", host, {"game": "castles", "format": "swiss"})
    for number in (2**63, 10**30, -1):
        path = f"/api/lobbies/{lobby['id']}"
        invalid(await api.post(f"{path}/join", joiner, {"seat": number}), "seat")
        invalid(await api.post(f"{path}/castle", host, {"name": "K", "seat": number}), "seat")
        invalid(await api.post(f"{path}/vote", host, {"for_seat": number}), "for_seat")
        withdraw = f"/api/tournaments/{tournament['id']}/withdraw"
        invalid(await api.post(withdraw, host, {"entry_id": number}), "entry_id")
    invalid(await api.post("/api/lobbies", host, {"game": "x" * 33, "seats": 2}), "game")
    # Strict types, as the schema says: false is no seat, "2" no count, 2.5 no seat count
    # (2.0 is one: JSON has one number type, and the schema's integer is any without a fraction).
    path = f"/api/lobbies/{lobby['id']}"
    invalid(await api.post(f"{path}/castle", host, {"name": "K", "seat": False}), "seat")
    invalid(await api.post(f"{path}/bots", host, {"count": "1"}), "count")
    invalid(await api.post("/api/lobbies", host, {"game": "castles", "seats": 2.5}), "seats")
    invalid(await api.post(f"/api/lobbies/{lobby['id']}/bots", host, {"kind": "k" * 33}), "kind")


BAD_OPTIONS: list[str] = [
    '{"x": NaN}',
    '{"x": Infinity}',
    '{"x": 1000000000000000000000000000000}',
    '{"x": -9007199254740993}',
    '{"x": "\\ud800"}',
    '{"x": [[[[["deep"]]]]]}',
    json.dumps({f"k{n}": n for n in range(33)}),
    json.dumps({"x": list(range(600))}),
    json.dumps({"x": "s" * 201}),
    json.dumps({"k" * 41: 1}),
    json.dumps({"x": ["s" * 200] * 100}),  # 20 KB: every part in bounds, the whole too big
]


@pytest.mark.parametrize("options", BAD_OPTIONS)
async def test_table_options_must_be_small_finite_json(api: Api, options: str) -> None:
    host = await guest(api, "Options")
    headers = {"authorization": f"Bearer {host}", "content-type": "application/json"}
    for path, fields in (
        ("/api/lobbies", '"game": "castles", "seats": 2'),
        ("/api/tournaments", '"game": "castles", "format": "swiss"'),
    ):
        body = f'{{{fields}, "options": {options}}}'
        invalid(await api.client.post(path, content=body, headers=headers), "options")


async def test_a_body_that_is_not_json_is_a_declared_400(api: Api) -> None:
    host = await guest(api, "Garbage")
    headers = {"authorization": f"Bearer {host}", "content-type": "application/json"}
    reply = await api.client.post("/api/lobbies", content=b"\xff\xfe{", headers=headers)
    assert reply.status_code in (400, 422) and "code" in reply.json()["error"]
    declared = (await api.client.get("/openapi.json")).json()["paths"]["/api/lobbies"]["post"]
    assert str(reply.status_code) in declared["responses"]


async def test_a_body_past_64_kib_is_a_413_announced_or_streamed(api: Api) -> None:
    host = await guest(api, "Large")
    headers = {"authorization": f"Bearer {host}", "content-type": "application/json"}
    large = json.dumps({"game": "castles", "seats": 2, "pad": "x" * 70_000}).encode()

    async def chunks() -> Any:
        for start in range(0, len(large), 8192):
            yield large[start : start + 8192]

    announced = await api.client.post("/api/lobbies", content=large, headers=headers)
    streamed = await api.client.post("/api/lobbies", content=chunks(), headers=headers)
    for reply in (announced, streamed):
        assert reply.status_code == 413, reply.text
        assert reply.json()["error"]["code"] == "request/too_large"


async def test_a_method_a_path_lacks_is_a_405_naming_those_it_has(api: Api) -> None:
    reply = await api.client.delete("/api/games")
    assert reply.status_code == 405 and reply.headers["allow"] == "GET, OPTIONS"
    assert reply.json()["error"]["code"] == "http/405"


async def test_openapi_declares_the_refusals_of_every_operation(api: Api) -> None:
    schema = (await api.client.get("/openapi.json")).json()
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            name = f"{method.upper()} {path}"
            for status, response in responses.items():
                if int(status) >= 400:
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/ErrorOut"), (name, status)
            assert "413" in responses, name
            if operation.get("parameters") or "requestBody" in operation:
                assert "422" in responses, name
            if "requestBody" in operation:
                assert "400" in responses, name
            if operation.get("security"):
                assert "401" in responses, name
    # Reading a table or a match needs no token (a seat's view with one): optional, not absent.
    for path in ("/api/lobbies/{lobby_id}", "/api/matches/{match_id}/state"):
        assert {} in schema["paths"][path]["get"]["security"], path


def test_a_route_that_forgets_a_refusal_of_its_shape_still_declares_it() -> None:
    """400 for a body, 422 for parameters or a body, 401 for a token: added to the schema
    when a route's ``responses=`` leave them out (helpers add routes all the time)."""
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/thing/{number}")
    async def thing(number: int, body: CastleName, player: CurrentPlayer) -> dict[str, Any]:
        return {}

    @app.get("/plain")
    async def plain() -> dict[str, Any]:
        return {}

    paths = app.openapi()["paths"]
    responses = paths["/thing/{number}"]["post"]["responses"]
    assert {"400", "401", "422"} <= set(responses)
    assert responses["400"]["content"]["application/json"]["schema"]["$ref"].endswith("ErrorOut")
    assert set(paths["/plain"]["get"]["responses"]) == {"200"}
    assert "ErrorOut" in app.openapi()["components"]["schemas"]


# -- rated integrity -----------------------------------------------------------------------

STACKED: list[tuple[str, int, dict[str, Any]]] = [
    ("ambush", 2, {"deck": ["dragon", "dragon", "battering_ram", "battering_ram"]}),
    ("ambush", 2, {"first_seat": 0}),
    ("castles", 2, {"deck": ["cannon", "cannon", "catapult"]}),
    ("castles", 2, {"decks": [["cannon"], ["wall"]]}),
    ("castles", 2, {"first_seat": 1}),
    ("rampage", 2, {"deck": ["dragon", "bomber"]}),
    ("rampage", 2, {"first_seat": 0}),
    ("ember", 2, {"decks": [["ember_shard"] * 12, ["glimmer"] * 12]}),
    ("ember", 2, {"heroes": ["rowl", "yvera"]}),
    ("ember", 2, {"first_seat": 1}),
]


@pytest.mark.parametrize(("game", "seats", "options"), STACKED)
async def test_a_rated_table_refuses_a_stacked_deal_or_seating(
    api: Api, game: str, seats: int, options: dict[str, Any]
) -> None:
    host = await guest(api, "Rigger")
    table = {"game": game, "seats": seats, "options": options}
    refused = await api.post("/api/lobbies", host, {**table, "rated": True})
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "lobby/rated_options" and next(iter(options)) in error["message"]
    # The same options make a casual table (practice, puzzles), shown to whoever joins.
    casual = await api.ok("/api/lobbies", host, {**table, "rated": False})
    assert casual["options"] == options and casual["rated"] is False


async def test_a_rated_tournament_refuses_a_stacked_deal(api: Api) -> None:
    host = await guest(api, "Organiser")
    base = {"game": "castles", "format": "swiss"}
    for options in ({"deck": ["cannon"]}, {"first_seat": 1}):
        refused = await api.post("/api/tournaments", host, {**base, "options": options})
        assert refused.status_code == 422  # tournaments are rated unless said otherwise
        assert refused.json()["error"]["code"] == "tournament/rated_options"
        casual = await api.ok(
            "/api/tournaments", host, {**base, "options": options, "rated": False}
        )
        assert casual["rated"] is False


async def test_start_refuses_a_rated_table_whose_options_were_stacked_since(
    api: Api, shared_server: Server
) -> None:
    """Whatever changes a table after it was made (here the row itself), the start checks
    again: the match is never created with a stacked deal. Fair options stay allowed."""
    host = await guest(api, "Later")
    fair = [
        ("ember", {"heroes": "random", "max_rounds": 30}),
        ("ambush", {"castle_hp": 20}),
        ("castles", {"name_vote": True}),
    ]
    for game, options in fair:
        table = {"game": game, "seats": 2, "options": options, "rated": True}
        assert (await api.ok("/api/lobbies", host, table))["options"] == options
    lobby = await api.ok("/api/lobbies", host, {"game": "castles", "seats": 2, "rated": True})
    await api.ok(f"/api/lobbies/{lobby['id']}/join", await guest(api, "Later Too"))
    path = shared_server.database_url.split("///", 1)[1]
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        stacked = json.dumps({"deck": ["cannon", "cannon"]})
        db.execute("UPDATE lobbies SET options = ? WHERE id = ?", (stacked, lobby["id"]))
    refused = await api.post(f"/api/lobbies/{lobby['id']}/start", host)
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "lobby/rated_options"
    assert (await api.get(f"/api/lobbies/{lobby['id']}")).json()["status"] == "open"
    # A rated tournament the same way: its tables never open with the stacked deal.
    cup = await api.ok("/api/tournaments", host, {"game": "castles", "format": "swiss"})
    await api.ok(f"/api/tournaments/{cup['id']}/open", host)
    await api.ok(f"/api/tournaments/{cup['id']}/bots", host, {"count": 2})
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        stacked = json.dumps({"first_seat": 1})
        db.execute("UPDATE tournaments SET options = ? WHERE id = ?", (stacked, cup["id"]))
    refused = await api.post(f"/api/tournaments/{cup['id']}/start", host)
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "tournament/rated_options"
    assert (await api.get(f"/api/tournaments/{cup['id']}")).json()["status"] == "registration"
