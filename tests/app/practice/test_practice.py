"""Practice matches: the endpoint, the stacked deal on the wire, and every script played out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from app.practice import SCENARIOS
from app.practice.ambush import BOT_HAND, PLAYER_HAND
from app.practice.bots import GentleAmbushBot, practice_bot
from app.practice.scenarios import Scenario, Step, stacked
from app.practice.service import gentlest_heuristic
from engines import registry
from engines.base import Bot, Event, events_for
from tests.app.conftest import ServerFactory
from tests.app.support import Api, Client, Server

Action = dict[str, Any]


# ----- the endpoint --------------------------------------------------------------------------
async def test_practice_starts_a_casual_match_against_the_practice_bot(
    api: Api, shared_server: Server
) -> None:
    token = await api.guest("apprentice")
    started = await api.ok("/api/practice", token, {"game": "ambush"})
    match_id = started["match_id"]
    assert started["seat"] == 0
    assert [s["id"] for s in started["steps"]][:3] == ["expose", "play", "bot-turn"]
    match = (await api.get(f"/api/matches/{match_id}")).json()
    assert match["rated"] is False
    assert match["lobby_id"] is None
    assert [(s["bot"], s["account_id"] is None) for s in match["seats"]] == [
        (None, False),
        ("practice", True),
    ]
    # The player's own view holds the stacked hand; the first exposed card is an Ambush!.
    client = await Client(shared_server, match_id, token).connect()
    assert client.seat == 0
    assert client.view is not None
    assert sorted(client.view["hand"]) == sorted(PLAYER_HAND)
    assert client.view["options"]["hand_limit"] == 5
    expose = next(a for a in client.legal if a["type"] == "expose")
    await client.act(expose)
    patch = await client.wait_for("patch")
    assert [(e["type"], e.get("card")) for e in patch["events"]] == [("exposed", "ambush")]


async def test_a_practice_match_survives_a_restart(make_server: ServerFactory) -> None:
    """The practice bot is rebuilt with the match: its first turn, which starts only after the
    restart, is played."""
    server = make_server()
    api = Api(server)
    token = await api.guest("apprentice")
    match_id = (await api.ok("/api/practice", token, {"game": "ambush"}))["match_id"]
    await api.close()
    player = await Client(server, match_id, token).connect()
    await player.act(next(a for a in player.legal if a["type"] == "expose"))
    await player.wait_for("patch", version=1)
    await player.close()
    server.stop()
    server.start(server.log_path.parent)  # type: ignore[union-attr]
    player = await Client(server, match_id, token).connect()
    player.seq = 1  # the page goes on numbering its actions (1 was the expose)
    await player.act(next(a for a in player.legal if a.get("card") == "knight"))
    await player.wait_until(
        lambda c: c.view is not None and c.view["turn"] == 0 and c.view["step"] == "expose"
    )
    assert player.view is not None and player.view["castles"][0]["hp"] == 18  # its Footman hit


async def test_practice_refuses_unknown_games_and_visitors(api: Api) -> None:
    token = await api.guest("apprentice")
    unknown = await api.post("/api/practice", token, {"game": "chess"})
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "practice/unknown_game"
    visitor = await api.post("/api/practice", None, {"game": "ambush"})
    assert visitor.status_code == 401
    assert visitor.json()["error"]["code"] == "auth/required"
    extra = await api.post("/api/practice", token, {"game": "ambush", "rated": True})
    assert extra.status_code == 422


async def test_practice_steps_are_served_for_every_game(api: Api) -> None:
    listed = (await api.get("/api/practice")).json()
    assert sorted(s["game"] for s in listed) == ["ambush", "castles", "ember", "rampage"]
    ember = (await api.get("/api/practice/ember")).json()
    assert ember["steps"][0]["act"] == ["mode"]
    missing = await api.get("/api/practice/chess")
    assert missing.json()["error"]["code"] == "practice/unknown_game"


# ----- the scripts, played through their engines ---------------------------------------------
def step_done(step: Step, event: Event, me: int, my_turn: bool) -> bool:
    """The client's rule (static/js/learn/practice.js): what completes a step."""
    if not step.done_by(event["type"]):
        return False
    by = step.done.get("by")
    mine = event["seat"] == me if isinstance(event.get("seat"), int) else my_turn
    return by is None or (by == "me") == mine


def turn_holder(view: dict[str, Any]) -> int | None:
    for field in ("active", "turn"):
        if isinstance(view.get(field), int):
            return int(view[field])
    return None


Chooser = Callable[[Step, dict[str, Any], list[Action]], Action | None]


def follow(scenario: Scenario, choose: Chooser, seed: int) -> list[str]:
    """Play the scenario: seat 0 follows the hints (``choose``), the practice bots play the
    other seats on the match clock, deadlines fire; returns the ids of the steps completed."""
    engine = registry.get(scenario.game)
    state = engine.setup(scenario.seats, seed, scenario.options(seed, ["Me", "Bot"]))
    bots: dict[int, Bot] = {
        seat: practice_bot(engine, seat, seed, gentlest_heuristic(engine, seat, seed))
        for seat in range(1, scenario.seats)
    }
    steps = [s for s in scenario.steps if s.done]
    completed: list[str] = []
    now = 0

    def apply(seat: int, action: Action) -> None:
        nonlocal now
        events = engine.apply(state, seat, action, now)
        settle(events)

    def settle(events: list[Event]) -> None:
        my_turn = turn_holder(engine.view(state, 0)) == 0
        for event in events_for(events, 0):
            if steps and step_done(steps[0], event, 0, my_turn):
                completed.append(steps.pop(0).id)
        for seat, bot in bots.items():
            bot.observe(events_for(events, seat), engine.view(state, seat))

    for _ in range(400):
        while steps and steps[0].done.get("next"):
            completed.append(steps.pop(0).id)  # the player reads and presses Next
        if not steps or engine.outcome(state) is not None:
            break
        to_act = engine.to_act(state)
        mine = engine.legal_actions(state, 0) if 0 in to_act else []
        action = choose(steps[0], engine.view(state, 0), mine) if mine else None
        if action is not None:
            now += 700
            apply(0, action)
            continue
        plans = []
        for seat, bot in bots.items():
            legal = engine.legal_actions(state, seat) if seat in to_act else []
            decision = bot.decide(engine.view(state, seat), legal, now) if legal else None
            if decision is not None:
                plans.append((decision.at_ms, seat, decision.action))
        due = engine.deadline(state)
        if plans and (due is None or min(plans)[0] <= due):
            at, seat, chosen = min(plans, key=lambda p: p[0])
            now = max(now, at)
            apply(seat, chosen)
        elif due is not None:
            now = max(now, due)
            settle(engine.tick(state, now))
        else:
            raise AssertionError(f"stuck at step {steps[0].id}")
    return completed


def first_of(types: tuple[str, ...], legal: list[Action]) -> Action | None:
    return next((a for a in legal if a["type"] in types), None)


def test_stacked_puts_the_top_first_and_keeps_every_card() -> None:
    import random

    full = ["a", "b", "b", "c", "d"]
    deck = stacked(["b", "d"], full, random.Random(1))
    assert deck[:2] == ["b", "d"]
    assert sorted(deck) == sorted(full)
    with pytest.raises(ValueError):
        stacked(["e"], full, random.Random(1))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_ambush_round_walks_through_every_step(seed: int) -> None:
    """The player does what each hint says; the gentle bot never calls and leaves both
    Ambush! cards, so the call is true, the player goes over the hand limit and returns."""
    seen: dict[tuple[int, int], str] = {}
    engine = registry.get("ambush")

    def choose(step: Step, view: dict[str, Any], legal: list[Action]) -> Action | None:
        for b in view["battlefield"]:
            seen.setdefault(tuple(b["cell"]), "?")
        if view["exposed"]:
            seen[tuple(view["exposed"]["cell"])] = view["exposed"]["card"]
        if step.id == "play":
            return next(a for a in legal if a.get("card") == "knight")
        if step.id == "race":
            grabs = [a for a in legal if a["type"] == "grab"]
            best = [a for a in grabs if seen.get(tuple(a["cell"])) == "ambush"]
            return (best or grabs or [None])[0]
        if step.id == "resume":
            return next(a for a in legal if a.get("card") == "dragon")
        return first_of(step.act, legal)

    completed = follow(SCENARIOS["ambush"], choose, seed)
    assert completed == [s.id for s in SCENARIOS["ambush"].steps if s.done]
    assert engine.id == "ambush"


def test_the_gentle_bot_holds_the_bot_hand_and_never_calls() -> None:
    engine = registry.get("ambush")
    scenario = SCENARIOS["ambush"]
    state = engine.setup(2, 3, scenario.options(3, ["Me", "Bot"]))
    assert sorted(engine.view(state, 1)["hand"]) == sorted(BOT_HAND)
    bot = GentleAmbushBot(1, 3)
    legal = [{"type": "call_ambush"}, {"type": "resign"}]
    view = engine.view(state, 1)
    assert bot.decide(view, legal, 0) is None  # not its turn, and it never calls


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("game", ["rampage", "castles", "ember"])
def test_each_guided_start_reaches_free_play(game: str, seed: int) -> None:
    """Taking the first listed action of the kind each hint asks for completes every step."""

    def choose(step: Step, view: dict[str, Any], legal: list[Action]) -> Action | None:
        wanted = [a for a in legal if a["type"] in step.act]
        if step.id == "attack":  # an attack card, not a draw
            wanted = [a for a in wanted if str(a.get("card", "")).startswith(("axe", "knight"))]
        if step.id == "act":  # the Wizard at the enemy Castle
            castle = next(c["id"] for c in view["in_play"] if c["kind"] == "castle" and c["side"])
            return next(a for a in wanted if a["target"] == castle)
        return wanted[0] if wanted else first_of(("pass",), legal) if step.act else None

    completed = follow(SCENARIOS[game], choose, seed)
    assert completed == [s.id for s in SCENARIOS[game].steps if s.done]


@pytest.mark.parametrize("game", ["rampage", "castles", "ember"])
def test_the_practice_bot_elsewhere_is_the_easy_heuristic_bot(game: str) -> None:
    bot = gentlest_heuristic(registry.get(game), 1, 5)
    assert type(bot).__name__ == "HeuristicBot"
    assert bot.level.name == "easy"  # type: ignore[attr-defined]
