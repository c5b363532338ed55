"""Guided starts for Castle Rampage, Castles and Ember: a stacked deal, a few hinted steps."""

from __future__ import annotations

import random
from typing import Any

from app.practice.scenarios import Scenario, Step, stacked
from engines.castles.cards import shared_deck
from engines.ember.cards import HEROES

FREE_PLAY = "free"


def rampage_deal(rng: random.Random) -> dict[str, Any]:
    # Dealing: the player's five, the bot's five (round one), the same again (round two),
    # then the player's first draw. Kind names take a free copy; the rest is shuffled below.
    player_one = ["knight", "footman", "squire", "giant", "reinforcements"]
    bot_one = ["footman", "squire", "knight", "mercenary", "reinforcements"]
    player_two = ["knight", "footman", "axe_man", "crossbowman", "palisade"]
    bot_two = ["footman", "knight", "axe_man", "archer", "palisade"]
    first_draw = ["axe_man"]
    return {"deck": player_one + bot_one + player_two + bot_two + first_draw}


RAMPAGE_MOVES = {
    "setup": "Split your five cards: 2 under your Gate, 2 under your Castle, one to your hand.",
    "defend": "You may hide one hand card under your Gate or Castle this turn.",
    "play": "Play a card from your hand, or end your turn.",
    "end_turn": "Nothing more to do? Press End turn.",
}

RAMPAGE = Scenario(
    game="rampage",
    title="Castle Rampage: a guided start",
    intro="Build your Gate and Castle, defend once, attack, end the turn.",
    seats=2,
    build=rampage_deal,
    moves=RAMPAGE_MOVES,
    steps=(
        Step(
            "split-one",
            "Build your defences. Each card shows two defence values: the Gate's (bottom left) "
            "and the Castle's (bottom right). Choose 2 cards for your Gate and 2 for your "
            "Castle; the fifth goes to your hand. Strong Castle cards matter most: when your "
            "Castle's last card falls, you lose.",
            {"event": "setup_chosen", "by": "me"},
            act=("setup",),
            wait="The bot is choosing its split…",
        ),
        Step(
            "split-two",
            "Once more with five new cards: 2 more under your Gate, 2 more under your Castle, "
            "one to your hand. Keep an attack card (a red number top left), such as a Knight.",
            {"event": "setup_chosen", "by": "me"},
            act=("setup",),
            wait="Waiting for the bot's second split…",
        ),
        Step(
            "defend",
            "Your turn: you drew a card (the first player draws one, later turns two). Once a "
            "turn you may strengthen a structure: put one hand card under your Gate or Castle, "
            "without its effect or cost. Try it now.",
            {"event": "defended", "by": "me"},
            act=("defend",),
            wait="Waiting for your turn…",
        ),
        Step(
            "attack",
            "Attack: play a card with an attack value, the Axe man (attack 2, then draw 1) or "
            "a Knight. The bot's Gate reveals its top card: a lower defence is destroyed and "
            "the rest of your strength goes on to the next card; a higher one holds.",
            {"event": "attack", "by": "me"},
            act=("play",),
        ),
        Step(
            "end-turn",
            "Play as many cards as you like, then press End turn. The bot attacks next.",
            {"event": "turn_ended", "by": "me"},
            act=("end_turn",),
        ),
        Step(
            FREE_PLAY,
            "You know a turn now: draw, defend once, play any number of cards, end. Empty the "
            "bot's Castle to win; the How to play page lists every card.",
            {},
        ),
    ),
)


def castles_deal(rng: random.Random) -> dict[str, Any]:
    # One shared pile: the player's five, then the bot's five; the first turn draws nothing.
    player = ["spearman", "archer", "builder", "spearman", "medic"]
    bot = ["spearman", "archer", "mason", "spearman", "medic"]
    return {"deck": stacked(player + bot, shared_deck(), rng)}


CASTLES_MOVES = {
    "play": "Play a card from your hand into one of your zones.",
    "act": "A card in play may use its Action: select it, then its target.",
    "move": "A card in play may move: select it, then a glowing zone.",
    "trap": "An enemy entered your Middle Zone: spring a Trap, or let it pass.",
    "end_turn": "Nothing more to do? Press End turn.",
}

CASTLES = Scenario(
    game="castles",
    title="Castles: a guided start",
    intro="Play a Soldier, use your Wizard's Action, move the General, end the turn.",
    seats=2,
    build=castles_deal,
    moves=CASTLES_MOVES,
    steps=(
        Step(
            "play",
            "Play a card from your hand: choose a Spearman, then your Middle Zone, where your "
            "Castle's walls stand. You may play any number of cards each turn.",
            {"event": "played", "by": "me"},
            act=("play",),
        ),
        Step(
            "act",
            "A card in play may use its Action once a turn, but not on the turn it arrived. "
            "Your Wizard started in play: it deals 2 damage to any card that is not Special. "
            "Aim it at the bot's Castle (50 HP; destroy it to win).",
            {"event": "damaged", "by": "me"},
            act=("act",),
        ),
        Step(
            "move",
            "Each card in play may also move once a turn, one zone (the Spy and the Assassin "
            "two). Move your General forward: Soldiers in his zone may then move two zones.",
            {"event": "moved", "by": "me"},
            act=("move",),
        ),
        Step(
            "end-turn",
            "Done for now: press End turn. The bot draws a card and plays.",
            {"event": "turn_ended", "by": "me"},
            act=("end_turn",),
        ),
        Step(
            FREE_PLAY,
            "From now on each turn starts with a draw. March Soldiers to the Front and the "
            "enemy Middle Zone to hit its Castle; keep Civilians home to mend. The How to play "
            "page has every card.",
            {},
        ),
    ),
)


def ember_deal(rng: random.Random) -> dict[str, Any]:
    # Per deck: 4 arcane cards, the 5-card hand, then the draw pile (top first).
    player_hand = ["ember_shard", "blade_dancer", "cleave", "glimmer", "war_cry"]
    player_draws = ["ember_cache", "ember_shard", "war_cry"]
    player_top = ["ember_cluster", "glimmer", "martyr", "kindling", *player_hand, *player_draws]
    bot_hand = ["ember_shard", "glimmer", "tidal_recall", "ember_cluster", "martyr"]
    # The bot's first draws hold no attack: the first turns never open a response window.
    bot_top = ["tidestone", "glimmer", "riptide", "kindling", *bot_hand, "tidestone", "ember_shard"]
    player = stacked(player_top, HEROES["rowl"].card_list(), rng)
    bot = stacked(bot_top, HEROES["yvera"].card_list(), rng)
    return {"heroes": ["rowl", "yvera"], "decks": [player, bot]}


EMBER_MOVES = {
    "mode": "Mode phase: put a card on your mode pile, or keep your mode.",
    "play": "Play one card from your hand.",
    "arcane": "Play your arcane card.",
    "respond": "You are attacked: answer with a response card, or let it happen.",
    "discard": "Over the hand limit: discard down to 9 cards.",
}

EMBER = Scenario(
    game="ember",
    title="Ember: a guided start",
    intro="You play Rowl, Swordsman of the East; the bot plays Yvera, the Water Master.",
    seats=2,
    build=ember_deal,
    moves=EMBER_MOVES,
    steps=(
        Step(
            "mode",
            "Mode phase. Your mode pile is empty, so put a hand card on it: its mode symbol "
            "(top right) sets your mode, and its own text does nothing there. Try the Ember "
            "Shard: Hasty mode, your emberscape is full with only 3 cards.",
            {"event": "mode_set", "by": "me"},
            act=("mode",),
        ),
        Step(
            "play",
            "You drew a card. Play phase: play one card, which goes into your emberscape and "
            "does what it says. Blade Dancer holds 2 ember stones (the orange gems) and draws "
            "you a card.",
            {"event": "played", "by": "me"},
            act=("play",),
        ),
        Step(
            "bot-turn",
            "The bot's turn. If it attacks you, a response window opens: answer with a "
            "response card from your hand (Martyr stops an attack) or pass.",
            {"event": "turn_started", "by": "me"},
            act=("respond",),
            wait="The bot is playing…",
        ),
        Step(
            "keep-mode",
            "Each turn you may keep your mode (Pass) or put another card on the mode pile.",
            {"event": "drew", "by": "me"},
            act=("mode", "pass"),
        ),
        Step(
            "play-again",
            "Play a card again. Stones count only once collected: when your emberscape is "
            "full, your next turn collects it into your collection pile and flips an arcane "
            "card.",
            {"event": "played", "by": "me"},
            act=("play",),
        ),
        Step(
            FREE_PLAY,
            "The game ends when someone plays their last arcane card; the most ember stones "
            "collected wins. Play on, or read the How to play page for every card.",
            {},
        ),
    ),
)
