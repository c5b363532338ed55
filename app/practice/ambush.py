"""The Ambush! practice round: expose, play, call, the grab race, the check, the hand limit."""

from __future__ import annotations

import random
from typing import Any

from app.practice.scenarios import Scenario, Step

# Dealt from the top: the player's hand (seat 0), the bot's hand (seat 1), then the cards
# exposed on turns 1 (player), 1 (bot) and 2 (player). No Ambush!, Elven Archer or Trickster
# in either hand, so the two Ambush! cards the player sees exposed are the only ones down.
PLAYER_HAND = ["knight", "dragon", "footman", "healer", "battering_ram"]
BOT_HAND = ["footman", "scout", "healer", "shieldbearer", "fire_mage"]
EXPOSED = ["ambush", "knight", "ambush"]

# A lower hand limit than the table's 10, so the captures of one race take the player over
# it; slow race ends and a long hand-limit step, so a newcomer reads before acting.
OPTIONS = {
    "castle_hp": 20,
    "hand_limit": 5,
    "ambush_idle_ms": 6000,
    "ambush_max_ms": 40000,
    "return_ms": 180000,
}


def build(rng: random.Random) -> dict[str, Any]:
    # The engine shuffles the cards the stack does not name beneath it with the match seed.
    return {**OPTIONS, "deck": PLAYER_HAND + BOT_HAND + EXPOSED}


STEPS = (
    Step(
        "expose",
        "Your turn starts by exposing the top card of the central deck: click one of the "
        "glowing cells next to the deck. Everyone sees the card, then it lies face down. It is "
        "an Ambush! card: remember where it goes.",
        {"event": "exposed", "by": "me"},
        act=("expose",),
    ),
    Step(
        "play",
        "Now play a card from your hand: click the Knight, then a glowing cell. It hits the "
        "bot's castle for 3 (the number in the red circle), then goes face down onto the "
        "battlefield. (Pass skips this part of your turn.)",
        {"event": ["played", "passed"], "by": "me"},
        act=("play",),
    ),
    Step(
        "bot-turn",
        "The bot's turn: it exposes a card and plays one at your castle. Watch its dial and "
        "yours: the ring is your castle's HP. Everyone is dealt damage this way until one "
        "castle is left.",
        {"event": "turn_started", "by": "me"},
        wait="The bot is thinking…",
    ),
    Step(
        "expose-again",
        "Your turn again: expose the next card. Keep an eye on what it is.",
        {"event": "exposed", "by": "me"},
        act=("expose",),
    ),
    Step(
        "call",
        "A second Ambush! card! Two Ambush! cards lie face down on the battlefield, so a call "
        "is true. Call Ambush! now: press the Ambush! button (or the A key). Anyone may call, "
        "even out of turn, so at a real table be quick.",
        {"event": "ambush_called"},
        act=("call_ambush",),
        needs="two_ambushes",
        otherwise="You know of {known} Ambush! card(s) on the battlefield: a call now would be "
        "false and cost the caller every card grabbed. Play your turn and watch every card "
        "that goes down; the coach tells you when two are there.",
    ),
    Step(
        "race",
        "The grab race! Click face-down cards to capture them, one at a time: you have one "
        "hand, so each grab waits for the last. Grab the two Ambush! cards where you saw them "
        "go, then anything else you can. The bot grabs too, slowly.",
        {"event": "race_ended"},
        act=("grab",),
        wait="Waiting for the race to end…",
    ),
    Step(
        "check",
        "The check: {check} Then the captured cards join the hands, and whatever is left on "
        "the battlefield is shuffled back into the deck.",
        {"next": True},
    ),
    Step(
        "hand-limit",
        "Your hand now holds {hand} cards, over the limit of {limit}. Choose {owed} card(s) to "
        "shuffle back into the deck (click them in your hand), then press Return.",
        {"event": "returned", "by": "me"},
        act=("return",),
        wait="Waiting for the others to return their extra cards…",
        needs="owe",
        skip=True,
        otherwise="Your hand holds {hand} cards, within the limit of {limit} for this practice "
        "(10 at a real table), so you keep them all. A hand over the limit returns its extra "
        "cards to the deck right after the check.",
    ),
    Step(
        "resume",
        "The call interrupted your turn; now it goes on. Play a card (the Dragon hits for 6) "
        "or pass.",
        {"event": ["played", "passed"], "by": "me"},
        act=("play", "pass"),
        wait="Waiting for the hand limit to settle…",
    ),
    Step(
        "free",
        "That is the whole flow: expose, play, call when two Ambush! cards are down, race, "
        "check, hand limit. Play on and bring the bot's castle down, or open a real table "
        "from the start page. The How to play page has every card.",
        {},
    ),
)

MOVES = {
    "expose": "Your turn starts with exposing the top card of the deck: click a glowing cell.",
    "place": "Put the cards your Elven Archer drew face down: click glowing cells.",
    "play": "Play a card from your hand (pick it, then a glowing cell), or pass.",
    "grab": "A race is on: click face-down cards to grab them, one at a time!",
    "return": "Your hand is over the limit: pick {owed} card(s) to return, then press Return.",
}

SCENARIO = Scenario(
    game="ambush",
    title="Ambush! practice round",
    intro="A guided match against a gentle bot on a stacked deck: castles of 20 HP, a hand "
    "limit of 5, slow races.",
    seats=2,
    build=build,
    steps=STEPS,
    moves=MOVES,
)
