"""Name rules: normalised, visible, unique up to case and width, for guests and players alike
(``app.accounts.names``, unit and through a real server)."""

from __future__ import annotations

import pytest

from app.accounts.names import NameInvalid, castle_name, name_key, player_name
from tests.app.support import Api


def code(reply: object) -> str:
    return str(reply.json()["error"]["code"])  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Ada", "Ada"),
        ("  Ada   Lovelace\t", "Ada Lovelace"),
        ("\uff21\uff44\uff41", "Ada"),  # full-width letters
        ("\u2764\ufe0f", "\u2764"),  # a variation selector only picks a style
        ("Zoë", "Zoë"),
        ("e\u0301tienne", "\u00e9tienne"),  # composed
        ("x" * 24, "x" * 24),
    ],
)
def test_names_are_normalised(raw: str, clean: str) -> None:
    assert player_name(raw) == clean


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "   ",
        "x" * 25,
        "a\u200bb",  # zero-width space
        "\u200d",  # zero-width joiner
        "\u202eadmin",  # right-to-left override
        "ad\u2066min",  # isolate
        "a\x00b",
        "a\nb",
        "\u3164",  # Hangul filler: a letter that draws nothing
        "\u2800\u2800",  # blank Braille cells
        "\u0301a",  # starts with a combining accent
        "\ue000",  # private use
        "\u0378",  # unassigned
    ],
)
def test_names_breaking_the_rules_are_refused(raw: str) -> None:
    with pytest.raises(NameInvalid) as refused:
        player_name(raw)
    assert refused.value.code == "account/name_invalid" and refused.value.status == 422
    assert refused.value.message.startswith("A name")


def test_keys_ignore_case_and_width() -> None:
    assert name_key("Ada") == name_key("ADA") == name_key("\uff41\uff44\uff41") == "ada"
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Ada Lovelace") != name_key("AdaLovelace")


def test_castle_names_follow_the_visible_text_rules() -> None:
    assert castle_name("  Owl   Tower ") == "Owl Tower"
    assert castle_name("x" * 40) == "x" * 40
    for raw in ("   ", "Keep\u202e", "x" * 41):
        with pytest.raises(NameInvalid) as refused:
            castle_name(raw)
        assert refused.value.code == "lobby/bad_castle_name"


async def test_a_guest_cannot_take_a_registered_name_nor_another_guests(api: Api) -> None:
    made = await api.client.post("/api/accounts", json={"name": "Morgana", "password": "p" * 12})
    assert made.status_code == 201
    for impostor in ("morgana", " MORGANA ", "\uff2d\uff4f\uff52\uff47\uff41\uff4e\uff41"):
        taken = await api.client.post("/api/accounts", json={"name": impostor})
        assert taken.status_code == 409 and code(taken) == "account/name_taken"
    first = await api.client.post("/api/accounts", json={"name": "  Lone   Wolf "})
    assert first.status_code == 201 and first.json()["account"]["name"] == "Lone Wolf"
    second = await api.client.post("/api/accounts", json={"name": "lone wolf"})
    assert second.status_code == 409 and code(second) == "account/name_taken"
    registered = await api.client.post(
        "/api/accounts", json={"name": "LONE WOLF", "password": "p" * 12}
    )
    assert registered.status_code == 409 and code(registered) == "account/name_taken"


async def test_invisible_and_blank_names_are_refused_over_rest(api: Api) -> None:
    for raw in ("   ", "", "Ev\u200bil", "\u202eKing", "n" * 25):
        reply = await api.client.post("/api/accounts", json={"name": raw})
        assert reply.status_code == 422 and code(reply) == "account/name_invalid", raw
        assert "name" in reply.json()["error"]["message"]


async def test_castle_names_are_checked_in_the_lobby(api: Api) -> None:
    host = await api.guest("castle host")
    lobby = await api.ok("/api/lobbies", host, {"game": "tally", "seats": 2})
    bad = await api.post(f"/api/lobbies/{lobby['id']}/castle", host, {"name": "Keep\u200d"})
    assert bad.status_code == 422 and code(bad) == "lobby/bad_castle_name"
    good = await api.ok(f"/api/lobbies/{lobby['id']}/castle", host, {"name": " Owl   Tower "})
    assert good["members"][0]["castle"] == "Owl Tower"
