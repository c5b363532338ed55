"""Skill ratings per game for matchmaking and seeding: Glicko-2 for duels, OpenSkill for 3-4 seats.

Both are pure functions of the ratings before a match and its placings. They sit beside the
1500-point ledger (``ledger.py``) and never replace it: the ledger is what a ladder or a
tournament ranks by; the skill rating seeds brackets and matches players of like strength.

Each match is its own Glicko-2 rating period (as online servers do), so a player's deviation
shrinks with every rated duel. A rating is *provisional* until the player has
``PROVISIONAL_GAMES`` rated matches in that system and its uncertainty has come down
(Glicko-2 deviation at most ``PROVISIONAL_RD``; OpenSkill sigma at most ``PROVISIONAL_SIGMA``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypeVar

from openskill.models import PlackettLuce

System = Literal["glicko2", "openskill"]
# Whoever holds a seat (``rate_seats``): an entry id, an account, a bot's identity.
P = TypeVar("P", bound=Hashable)

GLICKO_SCALE = 173.7178
GLICKO_START = 1500.0
GLICKO_START_RD = 350.0
GLICKO_START_VOLATILITY = 0.06
GLICKO_TAU = 0.5
GLICKO_EPSILON = 1e-6

PROVISIONAL_GAMES = 5
PROVISIONAL_RD = 110.0
PROVISIONAL_SIGMA = 5.0

_OPENSKILL = PlackettLuce()
OPENSKILL_MU = float(_OPENSKILL.mu)
OPENSKILL_SIGMA = float(_OPENSKILL.sigma)


@dataclass(frozen=True)
class SkillRating:
    """One player's skill in one game and one system.

    ``mu``/``sigma`` are the Glicko-2 rating and deviation (``volatility`` is Glicko-2's sigma)
    or the OpenSkill mu and sigma. ``games`` counts rated matches in this system.
    """

    system: System
    mu: float
    sigma: float
    volatility: float = GLICKO_START_VOLATILITY
    games: int = 0

    @classmethod
    def initial(cls, system: System) -> SkillRating:
        if system == "glicko2":
            return cls("glicko2", GLICKO_START, GLICKO_START_RD)
        return cls("openskill", OPENSKILL_MU, OPENSKILL_SIGMA, 0.0)

    @property
    def provisional(self) -> bool:
        """True until enough games have settled the uncertainty (see the module docstring)."""
        limit = PROVISIONAL_RD if self.system == "glicko2" else PROVISIONAL_SIGMA
        return self.games < PROVISIONAL_GAMES or self.sigma > limit

    @property
    def conservative(self) -> float:
        """A cautious strength for seeding: Glicko-2 ``r - 2 RD``; OpenSkill ``mu - 3 sigma``."""
        if self.system == "glicko2":
            return self.mu - 2 * self.sigma
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The number shown beside the ledger: the Glicko-2 rating, or the OpenSkill ordinal
        mapped onto the same 1500-centred scale (one OpenSkill point is 60 display points)."""
        if self.system == "glicko2":
            return round(self.mu)
        return round(GLICKO_START + 60 * self.conservative)

    def to_json(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "mu": self.mu,
            "sigma": self.sigma,
            "volatility": self.volatility,
            "games": self.games,
            "provisional": self.provisional,
            "display": self.display,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SkillRating:
        system: System = "glicko2" if data["system"] == "glicko2" else "openskill"
        return cls(
            system,
            float(data["mu"]),
            float(data["sigma"]),
            float(data.get("volatility", GLICKO_START_VOLATILITY)),
            int(data.get("games", 0)),
        )


def system_for(seats: int) -> System:
    """Duels are rated with Glicko-2, tables of three or four with OpenSkill."""
    return "glicko2" if seats == 2 else "openskill"


# --- Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) -----------------------------


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the Illinois regula falsi iteration for the new volatility."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > GLICKO_EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def glicko2_update(
    player: SkillRating,
    results: Sequence[tuple[SkillRating, float]],
    *,
    tau: float = GLICKO_TAU,
) -> SkillRating:
    """Rate one period: ``results`` pairs each opponent's pre-period rating with the score
    (1 win, 0.5 draw, 0 loss). An empty period only widens the deviation.

    Refuses (``ValueError``) a non-Glicko rating or a score outside 0..1.
    """
    if player.system != "glicko2" or any(opp.system != "glicko2" for opp, _ in results):
        raise ValueError("glicko2_update rates Glicko-2 ratings only")
    if any(not 0.0 <= score <= 1.0 for _, score in results):
        raise ValueError("a Glicko-2 score lies between 0 and 1")
    mu = (player.mu - GLICKO_START) / GLICKO_SCALE
    phi = player.sigma / GLICKO_SCALE
    if not results:
        widened = min(math.sqrt(phi * phi + player.volatility**2) * GLICKO_SCALE, GLICKO_START_RD)
        return replace(player, sigma=widened)
    v_inverse = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.mu - GLICKO_START) / GLICKO_SCALE
        phi_j = opponent.sigma / GLICKO_SCALE
        expected = _expected(mu, mu_j, phi_j)
        v_inverse += _g(phi_j) ** 2 * expected * (1.0 - expected)
        improvement += _g(phi_j) * (score - expected)
    v = 1.0 / v_inverse
    delta = v * improvement
    volatility = _new_volatility(phi, player.volatility, delta, v, tau)
    phi_star = math.sqrt(phi * phi + volatility * volatility)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return SkillRating(
        "glicko2",
        GLICKO_START + GLICKO_SCALE * new_mu,
        min(GLICKO_SCALE * new_phi, GLICKO_START_RD),
        volatility,
        player.games + len(results),
    )


# --- One match -------------------------------------------------------------------------------


def _rank_of(placings: Sequence[Sequence[int]]) -> dict[int, int]:
    return {seat: index for index, group in enumerate(placings) for seat in group}


def rate_match(
    ratings: Mapping[int, SkillRating],
    placings: Sequence[Sequence[int]],
    system: System | None = None,
) -> dict[int, SkillRating]:
    """New ratings per seat after one match, from the ratings before it (seat -> rating) and
    the outcome's placings (best first, ties share a group).

    Two seats: Glicko-2, each seat rated against the other's pre-match rating. Three or four:
    OpenSkill Plackett-Luce with ties (``system`` says OpenSkill for fewer seats: part of a
    larger table). Seats missing from ``ratings`` start fresh. Refuses (``ValueError``)
    placings that do not cover every rated seat exactly once, and Glicko-2 for more than two.
    """
    rank = _rank_of(placings)
    seats = sorted(rank)
    if len(rank) != sum(len(group) for group in placings) or len(seats) < 2:
        raise ValueError("placings must name at least two seats, each once")
    system = system or system_for(len(seats))
    if system == "glicko2" and len(seats) != 2:
        raise ValueError("Glicko-2 rates duels only")
    current = {seat: ratings.get(seat) or SkillRating.initial(system) for seat in seats}
    if any(rating.system != system for rating in current.values()):
        raise ValueError(f"a {len(seats)}-seat match is rated with {system}")
    if system == "glicko2":
        first, second = seats
        score = 0.5 if rank[first] == rank[second] else float(rank[first] < rank[second])
        return {
            first: glicko2_update(current[first], [(current[second], score)]),
            second: glicko2_update(current[second], [(current[first], 1.0 - score)]),
        }
    teams = [[_OPENSKILL.rating(mu=current[s].mu, sigma=current[s].sigma)] for s in seats]
    rated = _OPENSKILL.rate(teams, ranks=[float(rank[s]) for s in seats])
    return {
        seat: SkillRating(
            "openskill", float(team[0].mu), float(team[0].sigma), 0.0, current[seat].games + 1
        )
        for seat, team in zip(seats, rated, strict=True)
    }


def rate_seats(
    ratings: Mapping[P, SkillRating],
    players: Mapping[int, P],
    placings: Sequence[Sequence[int]],
) -> list[tuple[int, SkillRating, SkillRating]]:
    """One match where a player may hold several seats (a server bot level seated twice):
    ``ratings`` by player before the match, ``players`` the player of each seat. Each seat is
    rated against the seats of the *other* players only, so no player wins or loses rating
    against himself; a player's seats are rated one after the other, each from where the one
    before left him. A seat whose player holds every seat changes nothing.

    Returns ``(seat, before, after)`` in seat order. With one seat per player it is
    ``rate_match`` (in the system of the table's size)."""
    rank = _rank_of(placings)
    system = system_for(len(rank))
    current = dict(ratings)
    rated = []
    for seat in sorted(rank):
        player = players[seat]
        before = current.get(player) or SkillRating.initial(system)
        kept = {seat} | {s for s in rank if players[s] != player}
        if len(kept) < 2:
            rated.append((seat, before, before))
            continue
        apart = [[s for s in group if s in kept] for group in placings]
        start = {
            s: before if s == seat else ratings.get(players[s]) or SkillRating.initial(system)
            for s in kept
        }
        after = rate_match(start, [group for group in apart if group], system)[seat]
        current[player] = after
        rated.append((seat, before, after))
    return rated
