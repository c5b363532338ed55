"""Name rules: normalised, visible, unique up to case and width, for guests and players alike
(``app.accounts.names``, unit and through a real server)."""

from __future__ import annotations

import pytest

from app.accounts.names import NameInvalid, castle_name, name_key, name_skeleton, player_name
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
        ("Алёша", "Алёша"),  # all Cyrillic
        ("Αθηνά 2", "Αθηνά 2"),  # all Greek, with a digit
        ("さくら 桜 サクラ", "さくら 桜 サクラ"),  # Japanese: Hiragana, Han, Katakana
        ("한국 漢字", "한국 漢字"),  # Korean: Hangul with Han
        ("សម្បត្តិ", "សម្បត្តិ"),  # Khmer: each coeng joins two consonants
        ("राजन्", "राजन्"),  # Devanagari ending with a (visible) virama
        ("O'Brien-Smith", "O'Brien-Smith"),
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
        # Marks that draw nothing, after a name someone holds:
        "Ada\u180b",  # Mongolian free variation selectors (default ignorable)
        "Ada\u180f",
        "Ada\u17b4",  # Khmer inherent vowels (default ignorable)
        "Ada\u17b5",
        "Ada\u17d2",  # Khmer coeng, joining nothing
        "សម\u17d2",  # a Khmer coeng at the end joins nothing either
        "Ada\u2d7f",  # Tifinagh consonant joiner
        "ⵜ\u2d7fⵙ",  # which fonts rarely draw even between two Tifinagh letters
        "Ada\u1039",  # Myanmar invisible stacker
        "Ad\u034fa",  # combining grapheme joiner
        # Scripts mixed:
        "\u0410da",  # Cyrillic A in a Latin name
        "Ad\u03b1",  # Greek alpha in a Latin name
        "Kate \u041a\u0430\u0442\u0435",  # a Latin word and a Cyrillic word
        "Ada ১",  # a Bengali digit (looks like 9) in a Latin name
        "さくら Sakura",
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
    for raw in ("   ", "Ev\u200bil", "\u202eKing", "n" * 25):
        reply = await api.client.post("/api/accounts", json={"name": raw})
        assert reply.status_code == 422 and code(reply) == "account/name_invalid", raw
        assert "name" in reply.json()["error"]["message"]
    # An empty name is outside the schema's bounds (minLength 1): the validator refuses it.
    empty = await api.client.post("/api/accounts", json={"name": ""})
    assert empty.status_code == 422 and code(empty) == "request/invalid"
    assert empty.json()["error"]["details"][0]["loc"] == ["body", "name"]


async def test_castle_names_are_checked_in_the_lobby(api: Api) -> None:
    host = await api.guest("castle host")
    lobby = await api.ok("/api/lobbies", host, {"game": "tally", "seats": 2})
    bad = await api.post(f"/api/lobbies/{lobby['id']}/castle", host, {"name": "Keep\u200d"})
    assert bad.status_code == 422 and code(bad) == "lobby/bad_castle_name"
    good = await api.ok(f"/api/lobbies/{lobby['id']}/castle", host, {"name": " Owl   Tower "})
    assert good["members"][0]["castle"] == "Owl Tower"


@pytest.mark.parametrize(
    ("held", "lookalike"),
    [
        ("Ada", "\u0430\u0501\u0430"),  # all Cyrillic
        ("pay", "\u0440\u0430\u0443"),  # all Cyrillic
        ("KATE", "\u039a\u0391\u03a4\u0395"),  # Greek capitals
        ("Kate", "\u039a\u0391\u03a4\u0395"),  # ... and in another case
        ("ABC", "\u0410\u0412\u0421"),  # Cyrillic capitals
        ("Ill", "lll"),
        ("B0B", "BOB"),
        ("Tom", "Torn"),
    ],
)
def test_names_that_look_alike_share_a_skeleton(held: str, lookalike: str) -> None:
    assert player_name(lookalike) == lookalike  # each is a valid name on its own
    assert name_key(held) != name_key(lookalike)
    assert name_skeleton(held) == name_skeleton(lookalike)


def test_names_that_look_different_have_different_skeletons() -> None:
    names = ["Ada", "Adam", "Eve", "Алёша", "Αθηνά", "さくら", "Ada Lovelace", "AdaLovelace"]
    assert len({name_skeleton(n) for n in names}) == len(names)
    assert name_skeleton("Ada") == name_skeleton("ADA") == name_skeleton("\uff41\uff44\uff41")


def test_castle_names_refuse_invisible_characters_but_may_mix_scripts() -> None:
    assert castle_name("Замок Owl") == "Замок Owl"
    # A Khmer coeng between two Latin letters joins nothing and draws nothing.
    for raw in ("Keep\u180b", "Keep\u17b4", "\u2d7fKeep", "Keep\u17d2", "Ke\u17d2ep"):
        with pytest.raises(NameInvalid) as refused:
            castle_name(raw)
        assert refused.value.code == "lobby/bad_castle_name"


async def test_a_name_that_looks_like_a_held_one_is_taken(api: Api) -> None:
    made = await api.client.post("/api/accounts", json={"name": "Kate Hope", "password": "p" * 12})
    assert made.status_code == 201
    greek = "\u039a\u0391\u03a4\u0395 \u0397\u039f\u03a1\u0395"  # KATE HOPE in Greek capitals
    for body in ({"name": greek}, {"name": greek, "password": "p" * 12}):
        taken = await api.client.post("/api/accounts", json=body)
        assert taken.status_code == 409 and code(taken) == "account/name_taken", body
        assert "looks like" in taken.json()["error"]["message"]
    # A guest's name is held the same way, against lower and upper case look-alikes.
    held = await api.client.post("/api/accounts", json={"name": "cape"})
    assert held.status_code == 201
    for body in (
        {"name": "\u0441\u0430\u0440\u0435"},  # cape in Cyrillic letters
        {"name": "\u0421\u0410\u0420\u0415", "password": "p" * 12},  # CAPE in Cyrillic
    ):
        taken = await api.client.post("/api/accounts", json=body)
        assert taken.status_code == 409 and code(taken) == "account/name_taken", body
    # Logging in under the look-alike finds no one.
    login = await api.client.post("/api/sessions", json={"name": greek, "password": "p" * 12})
    assert login.status_code == 401 and code(login) == "auth/bad_credentials"


async def test_invisible_marks_and_mixed_scripts_are_refused_over_rest(api: Api) -> None:
    held = await api.client.post("/api/accounts", json={"name": "Merlin"})
    assert held.status_code == 201
    for raw in ("Merlin\u180b", "Merlin\u180f", "Merlin\u17b4", "Merlin\u17b5", "Merlin\u17d2"):
        reply = await api.client.post("/api/accounts", json={"name": raw})
        assert reply.status_code == 422 and code(reply) == "account/name_invalid", raw
        assert "invisible" in reply.json()["error"]["message"]
    for raw in ("Merlin\u2d7f", "M\u0435rlin"):  # a joiner; a Cyrillic e in a Latin name
        reply = await api.client.post("/api/accounts", json={"name": raw, "password": "p" * 12})
        assert reply.status_code == 422 and code(reply) == "account/name_invalid", raw


async def test_tournament_and_ladder_names_refuse_invisible_characters(api: Api) -> None:
    organiser = await api.guest("title organiser")
    for hidden in ("Weekly Cup\u180b", "Weekly\u17b4 Cup", "Weekly Cup\u200b", "   "):
        made = await api.post(
            "/api/tournaments", organiser, {"game": "tally", "format": "swiss", "name": hidden}
        )
        assert made.status_code == 422 and code(made) == "tournament/bad_name", hidden
        ladder = await api.post("/api/ladders", organiser, {"game": "tally", "name": hidden})
        assert ladder.status_code == 422 and code(ladder) == "ladder/bad_name", hidden
    # Titles may mix scripts; they are trimmed like names.
    made = await api.ok(
        "/api/tournaments", organiser, {"game": "tally", "format": "swiss", "name": " Кубок  Cup "}
    )
    assert made["name"] == "Кубок Cup"
    ladder = await api.ok("/api/ladders", organiser, {"game": "tally", "name": "Ladder\u00b2"})
    assert ladder["name"] == "Ladder2"
    unnamed = await api.ok("/api/tournaments", organiser, {"game": "tally", "format": "swiss"})
    assert unnamed["name"]
