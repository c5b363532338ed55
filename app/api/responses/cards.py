"""``GET /api/games/{id}/cards``: a game's card data, field for field as its engine plays it."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.api.responses.common import Out

SOURCE = "`rulebook` (as printed) or `house` (this server's own numbers or text)"


class AmbushCard(Out):
    """One card kind of the Ambush! house deck."""

    id: str = Field(description="the card id views and actions name it by")
    name: str = Field(description="the card's name, for people")
    count: int = Field(description="copies in the deck")
    damage: int = Field(description="its damage value D (an attack on the castle it targets)")
    effect: str = Field(
        description="what playing it does besides the damage: `none`, `ambush`, `archer`, "
        "`splash`, `heal`, `ward`, `look`, `swap` or `steal`"
    )
    amount: int = Field(description="the effect's or the trigger's number (0: none)")
    trigger: str | None = Field(
        description="what capturing and keeping it does (`capture_damage`, `capture_heal`)"
    )
    text: str = Field(description="the card's rule in words")


class AmbushCards(Out):
    """The Ambush! deck."""

    game: Literal["ambush"] = Field(description="the game id")
    cards: list[AmbushCard] = Field(description="every card kind, in the deck's own order")


class RampageScheme(Out):
    """An Attack Scheme's price."""

    needs: list[str] = Field(description="the unit symbols to discard")
    bonus: str = Field(description="the unit one more discard of adds the bonus")
    bonus_strength: int = Field(description="the strength that extra unit adds")


class RampageCard(Out):
    """One card kind of the Castle Rampage deck."""

    kind: str = Field(description="the kind; a card's id in a view is `kind#n`")
    name: str = Field(description="the card's name, for people")
    count: int = Field(description="copies in the deck")
    source: str = Field(description=SOURCE)
    gate: int = Field(description="its defence under a Gate")
    castle: int = Field(description="its defence under a Castle")
    purple: bool = Field(description="a purple card: it only defends, with an effect when lost")
    units: list[str] = Field(description="its unit symbols (`knight`, `archer`, `warrior`)")
    attack: int | None = Field(description="its attack strength (null: it does not attack)")
    star: bool = Field(description="its attack strength is worked out when played")
    cost: int = Field(description="cards to discard to play it")
    permanent: bool = Field(description="it stays in play")
    effect: str = Field(description="the rule it follows when played (`none`: only its attack)")
    amount: int = Field(description="the effect's number (0: none)")
    scheme: RampageScheme | None = Field(description="an Attack Scheme's price, or null")
    text: str = Field(description="the card's rule in words")


class RampageCards(Out):
    """The Castle Rampage deck."""

    game: Literal["rampage"] = Field(description="the game id")
    unit_types: list[str] = Field(description="the unit symbols a card may show")
    cards: list[RampageCard] = Field(description="every card kind, in the deck's own order")


class CastlesCard(Out):
    """One card kind of the Castles deck."""

    id: str = Field(description="the kind views and actions name it by")
    title: str = Field(description="the card's title, for people")
    type: str = Field(description="`building`, `special`, `soldier`, `civilian` or `action`")
    action_class: str = Field(
        description="an action's class: `action`, `attack`, `spell` or `instant` (else empty)"
    )
    hp: int = Field(description="its HP in play (0 for an action)")
    count: int = Field(description="copies in each side's deck")
    source: str = Field(description=SOURCE)
    move: int = Field(description="zones it may move a turn (0: the default)")
    damage: int = Field(description="the damage its action deals")
    range: int = Field(description="how many zones away its action reaches")
    heal: int = Field(description="the HP its action gives")
    carriers: int = Field(description="units that must move with it (a siege engine)")
    placement: str = Field(description="where it is played: `builder`, `middle` or `castle`")
    enters_enemy_castle: bool = Field(description="it may enter the opponent's Castle Zone")
    house_fields: list[str] = Field(description="the fields this server set (a house card)")
    text: str = Field(description="the card's rule in words")


class CastlesCards(Out):
    """The Castles deck."""

    game: Literal["castles"] = Field(description="the game id")
    castle_hp: int = Field(description="the Castle card's HP")
    cards: list[CastlesCard] = Field(description="every card kind, in the data file's order")


class EmberEffect(Out):
    """One effect of an Ember card."""

    effect: str = Field(description="the effect (`draw`, `steal_scape`, `hex`, ...)")
    amount: int = Field(description="its number (cards drawn; 1 for the others)")


class EmberCard(Out):
    """One card kind of Ember."""

    id: str = Field(description="the kind; a card's uid in a view names it")
    name: str = Field(description="the card's name, for people")
    mode: str = Field(description="its mode symbol: `protection`, `attack`, `hasty`, `greedy`")
    stones: int = Field(description="its ember stones")
    play: str = Field(
        description="its play symbol: `emberscape`, `lasting`, `face_down`, `discard`, "
        "`collection` or `mode`"
    )
    effects: list[EmberEffect] = Field(description="what playing it does, in order")
    attack: str | None = Field(description="its attack effect, or null")
    choice: str | None = Field(description="its choice of one of your own cards, or null")
    response: str | None = Field(description="the response it gives, or null")
    lasting: str | None = Field(description="its lasting effect, or null")
    source: str = Field(description=SOURCE)
    text: str = Field(description="the card's rule in words")


class EmberDeckEntry(Out):
    """Copies of one card in a hero's deck."""

    card: str = Field(description="the card kind")
    count: int = Field(description="copies")


class EmberHero(Out):
    """One of Ember's four heroes."""

    id: str = Field(description="the hero id views and actions name it by")
    name: str = Field(description="the hero's name and epithet, for people")
    color: str = Field(description="the hero's colour: `blue`, `yellow`, `green` or `red`")
    strategy: str = Field(description="what the hero's deck is good at")
    deck: list[EmberDeckEntry] = Field(description="the hero's deck: common and unique cards")


class EmberCards(Out):
    """Ember's cards and heroes."""

    game: Literal["ember"] = Field(description="the game id")
    cards: list[EmberCard] = Field(description="every card kind, in the data file's order")
    heroes: list[EmberHero] = Field(description="the four heroes and their decks")


GameCards = Annotated[
    AmbushCards | RampageCards | CastlesCards | EmberCards, Field(discriminator="game")
]
