"""What the table tells a player, under node (the client's own modules): a resigned player is
not told to grab in a race, a Scout with one face-down card (the one just exposed) is not asked
to choose one, and an Ember attack that finds nobody to hit says who was protected."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from app.api.cards import game_cards

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

RACE = {"phase": "ambush", "race": {"ends_at": 5000}}
CASTLES = [{"seat": 0, "alive": False}, {"seat": 1, "alive": True}]


def run(script: str) -> Any:
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def prompts(cases: list[dict[str, Any]]) -> list[str]:
    module = json.dumps(str(ROOT / "static/js/games/ambush/feed.js"))
    cards = json.dumps(str(ROOT / "static/js/games/ambush/cards.js"))
    # The card data as the server serves it (GET /api/games/ambush/cards).
    served = game_cards("ambush")
    assert served is not None
    found: list[str] = run(
        f"import {{ promptText }} from {module};\n"
        f"import {{ useCards }} from {cards};\n"
        f"useCards({served.model_dump_json()});\n"
        f"const cases = {json.dumps(cases)};\n"
        "process.stdout.write(JSON.stringify(cases.map((c) => promptText(c))));\n"
    )
    return found


def test_a_player_out_of_the_game_is_not_told_to_grab() -> None:
    out, racing, watching = prompts(
        [
            {"view": {**RACE, "castles": CASTLES}, "seat": 0, "names": [], "now": 1000},
            {"view": {**RACE, "castles": CASTLES}, "seat": 1, "names": [], "now": 1000},
            {"view": {**RACE, "castles": CASTLES}, "seat": None, "names": [], "now": 1000},
        ]
    )
    assert "Grab" not in out and "you are out of the game" in out
    assert racing.startswith("AMBUSH! Grab face-down cards!")
    assert watching.startswith("Ambush! race")


def test_a_scout_with_only_the_exposed_card_is_not_asked_to_choose_a_face_down_card() -> None:
    view = {
        "phase": "turn",
        "turn": 0,
        "step": "play",
        "castles": CASTLES,
        "exposed": {"cell": [1, 0], "card": "knight", "seat": 0},
    }
    selection = {"card": "scout", "look": [1, 0], "onlyLook": True, "swap": []}
    (line,) = prompts(
        [{"view": view, "seat": 0, "names": [], "now": 0, "stage": "cell", "selection": selection}]
    )
    assert "choose a face-down card" not in line
    assert line.startswith("Scout looks at the card just exposed (Knight), the only face-down card")


def test_an_ember_attack_with_no_target_says_who_was_protected() -> None:
    module = json.dumps(str(ROOT / "static/js/games/ember/feed.js"))
    events = [
        {"type": "no_target", "seat": 0, "effect": "destroy_scape", "protected": [[1, "mode"]]},
        {"type": "no_target", "seat": 1, "effect": "destroy_scape", "protected": [[0, "ward"]]},
        {"type": "no_target", "seat": 0, "effect": "destroy_scape", "protected": []},
    ]
    lines = run(
        f"import {{ describeEvent }} from {module};\n"
        "const ctx = { seat: 0, names: ['Ada', 'Bot · hard (Mistmoor)'], ui: {} };\n"
        f"const events = {json.dumps(events)};\n"
        "process.stdout.write(JSON.stringify(events.map((e) => describeEvent(e, ctx).text)));\n"
    )
    assert lines == [
        "The attack finds no target: Bot · hard (Mistmoor) is in protection mode.",
        "The attack finds no target: you are warded by a lasting card.",
        "The attack finds no target: no opponent has a card it could hit.",
    ]
