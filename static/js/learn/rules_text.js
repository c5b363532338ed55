// The How to play pages' words: each game's rulebook and the table's house rules, for players.
// Sections: {id, title, text: [paragraphs], list: [points], cards: [card ids drawn beside it]}.

export const RULES = {
  ambush: {
    title: "Ambush!",
    tagline: "2-4 players. Damage your rivals' castles, remember where the Ambush! cards lie, and be the fastest hand when someone shouts.",
    sections: [
      { id: "goal", title: "Goal", text: [
        "Every castle starts at 30 HP, shown on its dial. A castle at 0 HP is destroyed and its player is out. The last castle standing wins.",
      ] },
      { id: "setup", title: "Setting up", list: [
        "The 52-card central deck stands in the middle of the battlefield; everyone is dealt 5 cards.",
        "Everyone names their castle and votes for the best name other than their own. The most votes goes first (a tie is drawn by lot).",
      ] },
      { id: "turn", title: "Your turn", list: [
        "1. Expose: the top card of the central deck is shown to everyone, then placed face down on a free cell next to the battlefield's cards (the first one next to the deck). It is not drawn, and its text does nothing. With an empty deck, skip this.",
        "2. Play: choose a card from your hand and an opponent's castle. The castle takes the card's damage (the red number), then the card's text happens, then the card goes face down onto a free cell you choose.",
        "Or pass instead of playing (the Pass button or P).",
      ], cards: ["knight", "healer", "scout"] },
      { id: "call", title: "Calling Ambush!", text: [
        "When you believe at least two Ambush! cards lie face down on the battlefield, call Ambush! (the button, or the A key). Anyone may call at any moment, also out of turn, except while an effect is still placing cards (Elven Archer).",
      ], cards: ["ambush"] },
      { id: "race", title: "The grab race", list: [
        "After the call everyone grabs face-down cards from the battlefield as fast as they can, one card at a time: you have one hand, so each grab waits a moment for the last.",
        "Captured cards stay face down, even to you, until the check.",
        "The race ends when the battlefield is empty or nobody has grabbed for 2 seconds (at most 15 seconds after the call). Who touched a card first is judged by each player's reaction time, fairly across slow and fast connections.",
      ] },
      { id: "check", title: "The check", text: [
        "The Ambush! cards among everyone's captures and those left on the battlefield are counted. Two or more: the call was true. Fewer: a false call, and the caller's captured cards are shuffled into the deck; everyone else keeps theirs.",
      ] },
      { id: "after", title: "After the race", list: [
        "Captured cards join the hands. A Booby Trap you keep deals 3 damage to your castle; a Treasure Chest you keep restores 3 HP. They resolve from the caller on, and stop as soon as one castle is left standing.",
        "Hand limit: a hand over 10 cards returns the extra cards to the deck; you choose which, within 20 seconds (the most recently captured go back on a time-out).",
        "The battlefield's leftovers are shuffled into the deck, and the interrupted turn goes on.",
      ], cards: ["booby_trap", "treasure"] },
      { id: "house", title: "House rules of this table", list: [
        "The printed card list is not public: Rampart plays its own 52-card house deck (below).",
        "A Shieldbearer's ward absorbs damage from any source, Booby Traps included. Castles destroyed by the same card share their place.",
        "A destroyed castle's hand is shuffled into the deck; if it was that player's turn, the next player starts a fresh turn.",
        "Exhaustion: once the deck is empty, a whole round of turns without a card played from a hand shuffles the battlefield back into the deck.",
        "Stalling: two whole rounds in a row in which nobody plays a card from their hand end the game at once, however many cards the deck still holds (everyone passing stalls it). The highest HP wins; equal HP share a place.",
        "Keys: 1-9 pick a hand card, A calls Ambush!, P passes, Esc cancels.",
      ] },
    ],
  },

  rampage: {
    title: "Castle Rampage",
    tagline: "2 players. Every card is either a defender in your Gate and Castle or an attack on your rival's.",
    sections: [
      { id: "goal", title: "Goal", text: [
        "Each player has two face-down stacks: the Gate in front and the Castle behind it. Destroy the last card of your opponent's Castle and you win, even if their Gate still stands.",
      ] },
      { id: "cards", title: "Reading a card", list: [
        "Bottom left: its defence at the Gate. Bottom right: its defence at the Castle.",
        "Top left, red: its attack strength. Dark tabs top right: how many cards you discard to play it (its cost).",
        "A letter K, A or W above the name: it is a unit (Knight, Archer, Warrior), which Attack Schemes ask you to discard.",
      ], cards: ["knight", "dragon", "siege_scheme"] },
      { id: "setup", title: "Setting up", list: [
        "You are dealt 5 cards: put 2 face down under your Gate, 2 under your Castle, and keep the fifth. Then once more. The two cards you kept are your starting hand.",
        "Nobody may look at the stacks, not even their owner; everyone sees how many cards each holds.",
        "Purple cards (Bomber, Saboteur, Spy, Ogre) are never dealt at set-up.",
      ] },
      { id: "turn", title: "Your turn", list: [
        "Draw 2 cards (the starting player draws 1 on the first turn).",
        "Once a turn you may strengthen your defences: put one card from your hand under your Gate or Castle, without its effect or cost (the Ogre costs 2 discards).",
        "Play any number of cards: pay the cost, carry out the card, discard it. Permanent cards stay in play until destroyed.",
        "End your turn when you are done.",
      ] },
      { id: "attack", title: "Attacks", list: [
        "An attack hits the Gate while it holds cards, then the Castle (the Tunnel Digger goes straight for the Castle).",
        "The top card is revealed. A higher defence holds: the attacker is destroyed (a Veteran returns to your hand, to attack again next turn: one Veteran a turn) and the defender goes back on top. Equal: both are destroyed.",
        "A lower defence is destroyed, and the attack goes on with the rest of its strength against the next card, from the Gate into the Castle.",
        "Purple cards strike back when destroyed in an attack: the Bomber blows up the attacker and a card of their Gate, the Saboteur makes the attacker discard 2, the Spy steals a card.",
      ], cards: ["bomber", "saboteur", "spy", "ogre"] },
      { id: "house", title: "House rules of this table", list: [
        "The 118-card list is Rampart's own, built on the cards the rulebook names (all of them below).",
        "No hand limit. An empty draw pile is refilled by shuffling the discard pile.",
        "Attack strength is fixed when the attack starts. One permanent of each name per player.",
        "The first Castle to fall loses: a Bomber that was the last Castle card ends the game before its blast. Only a Summoner can bring both Castles down at once, and then its player loses.",
        "A siege where both piles run dry ends the game: more Castle cards wins, then more Gate cards.",
      ] },
    ],
  },

  castles: {
    title: "Castles",
    tagline: "2 players or 2 teams. March soldiers across six zones, build, cast spells, and bring down the enemy Castle.",
    sections: [
      { id: "goal", title: "Goal", text: [
        "Your Castle card has 50 HP. Destroy your opponent's Castle and you win; lose yours and you lose.",
      ], cards: ["castle"] },
      { id: "board", title: "The board", list: [
        "Six zones in a row: your Castle Zone, your Middle Zone, your Front, then your opponent's Front, Middle Zone and Castle Zone.",
        "The Castle's walls stand in its Middle Zone: Soldiers there can attack it. Only the Spy and the Assassin may enter the enemy Castle Zone.",
        "You start with your Castle and General in your Middle Zone, and your Wizard, Spy and Assassin in your Castle Zone, and 5 cards in hand.",
      ], cards: ["general", "wizard", "spy", "assassin"] },
      { id: "turn", title: "Your turn", list: [
        "Draw a card (not on the very first turn of the match).",
        "Play any number of cards. Soldiers and Civilians go into your Castle Zone or Middle Zone. Buildings are built by a Builder into its zone. Spells need your Wizard in play; Special Attacks need your General and a Soldier outside your Castle Zone.",
        "Every card in play may move once (one zone; Spy and Assassin two; Soldiers in the General's zone two) and use its Action once, but not on the turn it came into play.",
        "End your turn.",
      ], cards: ["spearman", "archer", "builder", "mason", "medic"] },
      { id: "fight", title: "Fighting", list: [
        "A Spearman deals 3 damage to a card in its zone; an Archer deals 2 in its zone or the next one (never into the enemy Castle Zone).",
        "A card at 0 HP is discarded. Your General, Wizard, Spy and Assassin never come back once destroyed.",
        "A Trap is played out of turn: when an enemy Soldier or Civilian enters your Middle Zone, you get a few seconds to spring it.",
      ], cards: ["trap", "charge", "repair"] },
      { id: "house", title: "House rules of this table", list: [
        "Healing never raises a card above its printed HP.",
        "The General and the Wizard move one zone a turn; a carried Catapult or Cannon moves one zone with its carriers.",
        "A match that stalls ends after 200 turns: more Castle HP wins.",
        "Scoring: the winner of a destroyed Castle gains 100 minus the damage to their own Castle; a resignation moves the damage done.",
      ] },
    ],
  },

  ember: {
    title: "Ember",
    tagline: "2-4 players. Collect the most ember stones to vanquish the shadow demon, and thwart your rivals on the way.",
    sections: [
      { id: "goal", title: "Goal", text: [
        "Only stones in your collection pile count. When someone plays their last arcane card the game ends, and the most ember stones collected wins.",
      ] },
      { id: "setup", title: "Setting up", list: [
        "Each player takes a hero's 30-card deck: 18 cards every deck shares and 12 of the hero's own. Yvera (protection, returning cards), Serephene (stealing), Rowl (attack), Kaldoren (arcane tricks).",
        "Four cards from the top of your deck lie face down as your arcane cards, hidden from everyone, you too. Draw 5 cards.",
      ] },
      { id: "turn", title: "Your turn, in five phases", list: [
        "1. Collection: if your emberscape is full, put all its cards face down into your collection pile, then flip and play your next arcane card.",
        "2. Mode: you may put a hand card on your mode pile (you must while it is empty); its mode symbol becomes your mode. Its text does nothing there.",
        "3. Draw a card.",
        "4. Play one card (you must if you can): it goes where its play symbol says, usually your emberscape, and does what it says.",
        "5. End: over 9 cards in hand, discard down to 9; with none, draw 2.",
      ], cards: ["ember_shard", "glimmer", "blade_dancer"] },
      { id: "modes", title: "Modes", list: [
        "Protection: your cards may not be stolen, destroyed, captured or collected.",
        "Attack: a full emberscape (5 cards) is collected at once, earning an arcane card.",
        "Hasty: your emberscape is full with only 3 cards.",
        "Greedy: draw 2 cards in your draw phase.",
      ], cards: ["martyr", "cleave", "kindling", "tidestone"] },
      { id: "responses", title: "Attacks and responses", text: [
        "A card that attacks you opens a response window: answer with a response card from your hand (Martyr stops the attack, Mist Veil puts you in protection, Vengeance strikes back, Dispel cancels) or with a face-down Shrouded Snare or Hidden Blade, or pass.",
      ], cards: ["mist_veil", "dispel", "shrouded_snare"] },
      { id: "house", title: "House rules of this table", list: [
        "The first player skips the draw of the game's first turn.",
        "Arcane cards are flipped in the order they were dealt.",
        "An empty deck is refilled by shuffling your discard pile.",
        "A response window lasts 10 seconds; the game is scored after 60 rounds at the latest.",
      ] },
    ],
  },
};

export const GAME_IDS = ["ambush", "rampage", "castles", "ember"];
