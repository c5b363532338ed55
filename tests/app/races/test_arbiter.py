"""The grab-race arbiter on scripted timelines: holds, windows, tie-breaks, flags."""

from __future__ import annotations

from typing import Any

from app.races.arbiter import Arbiter
from app.races.claims import Claim, Decision
from app.races.links import LOCAL, LinkStats

CALL_VERSION = 10
CALL_AT = 1000.0
FAST = LinkStats(rtt_min=20.0, jitter=0.0, samples=16)  # cap 40
SLOW = LinkStats(rtt_min=200.0, jitter=0.0, samples=16)  # cap 220
X, Y = [1, 0], [0, 1]


def race(seats: dict[int, LinkStats], seed: int = 7) -> Arbiter:
    arbiter = Arbiter(seed)
    for seat, link in seats.items():
        arbiter.update_link(seat, link)
    arbiter.start_race(CALL_VERSION, CALL_AT, seats)
    return arbiter


def grab(
    arbiter: Arbiter,
    seat: int,
    cell: list[int],
    *,
    reaction: float,
    one_way: float,
    dt: float | None = None,
    ref: int = CALL_VERSION,
    s_ref: float = CALL_AT,
    extra_delay: float = 0.0,
) -> Decision | None:
    """The seat saw broadcast ``ref`` (sent at ``s_ref``) after ``one_way`` ms, tapped after
    ``reaction`` ms and reported ``dt`` (honest: the reaction); the grab took ``one_way`` back."""
    arrival = s_ref + one_way + reaction + one_way + extra_delay
    return arbiter.submit(
        seat=seat,
        cell=cell,
        arrival=arrival,
        ref=ref,
        dt=reaction if dt is None else dt,
        s_ref=s_ref,
        s_call=CALL_AT,
        link=arbiter.links[seat],
        client_seq=seat * 100,
        token=f"peer{seat}",
    )


def accept_all(claim: Claim) -> str | None:
    return None


def settle(arbiter: Arbiter, now: float) -> list[Decision]:
    decisions: list[Decision] = []
    while (batch := arbiter.decide(now, accept_all)) != []:
        decisions += batch
    return decisions


def outcomes(decisions: list[Decision]) -> dict[int, tuple[str, str | None]]:
    return {d.claim.seat: (d.outcome, d.code) for d in decisions}


def test_the_truly_faster_player_wins_although_its_grab_arrives_later() -> None:
    arbiter = race({0: FAST, 1: SLOW})
    assert grab(arbiter, 0, X, reaction=300, one_way=10) is None  # arrives 1320, V 1300
    # Held: seat 1 could still bring an earlier claim until 1302 + its cap (220).
    assert arbiter.due_at() == 1522
    assert settle(arbiter, 1400) == []
    assert grab(arbiter, 1, X, reaction=250, one_way=100) is None  # arrives 1450, V 1250
    # Everyone who could claim X has: settled as soon as the last claim is in.
    assert arbiter.due_at() == 1450
    decided = settle(arbiter, 1450)
    assert outcomes(decided) == {1: ("won", None), 0: ("lost", "ambush/empty_cell")}
    record = decided[0].record
    assert record["winner"] == 1 and [c["v"] for c in record["claims"]] == [1250, 1300]
    assert record["claims"][0]["arrival"] == 1450 and record["claims"][0]["rtt_min"] == 200


def test_first_arrival_would_have_given_it_to_the_slower_reaction() -> None:
    arbiter = race({0: FAST, 1: SLOW})
    grab(arbiter, 0, X, reaction=300, one_way=10)
    grab(arbiter, 1, X, reaction=250, one_way=100)
    claims = sorted(arbiter.pending, key=lambda c: c.arrival)
    assert [c.seat for c in claims] == [0, 1]  # seat 0 arrived first, reacted later


def test_a_lone_claim_waits_for_the_window_then_wins() -> None:
    arbiter = race({0: FAST, 1: SLOW})
    grab(arbiter, 0, X, reaction=300, one_way=10)
    assert settle(arbiter, 1521) == []
    assert outcomes(settle(arbiter, 1522)) == {0: ("won", None)}
    assert arbiter.due_at() is None


def test_claims_within_2_ms_are_settled_by_the_seeded_rng() -> None:
    winners = []
    for seed in range(40):
        arbiter = race({0: FAST, 1: FAST}, seed=seed)
        grab(arbiter, 0, X, reaction=300, one_way=10)
        grab(arbiter, 1, X, reaction=302, one_way=10)
        decided = settle(arbiter, 2000)
        winner = next(d.claim.seat for d in decided if d.won)
        assert decided[0].record["ties"][0]["seats"] == [0, 1]
        winners.append(winner)
    assert set(winners) == {0, 1}
    # The same seed and inputs give the same decision: the log replays.
    again = race({0: FAST, 1: FAST}, seed=3)
    grab(again, 0, X, reaction=300, one_way=10)
    grab(again, 1, X, reaction=302, one_way=10)
    assert next(d.claim.seat for d in settle(again, 2000) if d.won) == winners[3]


def test_three_ms_apart_is_not_a_tie() -> None:
    arbiter = race({0: FAST, 1: FAST})
    grab(arbiter, 1, X, reaction=303, one_way=10)
    grab(arbiter, 0, X, reaction=300, one_way=10)
    decided = settle(arbiter, 2000)
    assert outcomes(decided)[0] == ("won", None) and decided[0].record["ties"] == []


def test_a_dt_claiming_more_than_the_measured_link_is_clamped() -> None:
    arbiter = race({0: FAST, 1: SLOW})
    # Seat 1 reacted in 250 ms but reports 0: V may not be more than rtt_cap before arrival.
    grab(arbiter, 1, X, reaction=250, one_way=100, dt=0)
    claim = arbiter.pending[0]
    assert claim.v_raw == CALL_AT and claim.v == 1450 - 220 and claim.clamps == ["rtt_cap"]


def test_a_dt_longer_than_the_elapsed_time_is_clamped_to_arrival() -> None:
    arbiter = race({0: FAST})
    grab(arbiter, 0, X, reaction=300, one_way=10, dt=5000)
    assert arbiter.pending[0].v == 1320 and arbiter.pending[0].clamps == ["late"]


def test_no_first_grab_sooner_than_100_ms_after_the_call() -> None:
    arbiter = race({0: FAST})
    grab(arbiter, 0, X, reaction=50, one_way=10)  # within the link budget, but inhuman
    claim = arbiter.pending[0]
    assert claim.v == CALL_AT + 100 and claim.clamps == ["min_reaction"]


def test_a_players_times_only_increase() -> None:
    arbiter = race({0: FAST, 1: SLOW})
    grab(arbiter, 1, X, reaction=300, one_way=100)  # V 1300
    # Sent after the first, but link jitter lets its own V fall before the first one's.
    grab(arbiter, 1, Y, reaction=285, one_way=100, extra_delay=16)
    assert [c.v for c in arbiter.pending] == [1300, 1301]
    assert arbiter.pending[1].clamps == ["monotone"]


def test_one_hand_cooldown_on_arbitrated_times() -> None:
    arbiter = race({0: FAST, 1: FAST})
    grab(arbiter, 0, X, reaction=300, one_way=10)  # V 1300
    grab(arbiter, 1, X, reaction=320, one_way=10)  # V 1320, loses X
    assert outcomes(settle(arbiter, 1400)) == {0: ("won", None), 1: ("lost", "ambush/empty_cell")}
    # Seat 0's hand is busy until 1550 on arbitrated time, whatever the arrival.
    busy = grab(arbiter, 0, Y, reaction=200, one_way=10, ref=11, s_ref=1340)  # V 1540
    assert busy is not None and (busy.outcome, busy.code) == ("refused", "ambush/hand_busy")
    # The loser's hand is free at once.
    assert grab(arbiter, 1, Y, reaction=10, one_way=10, ref=11, s_ref=1340) is None
    assert outcomes(settle(arbiter, 1500)) == {1: ("won", None)}
    # After the cooldown seat 0 may grab again.
    assert grab(arbiter, 0, [2, 0], reaction=230, one_way=10, ref=11, s_ref=1340) is None


def test_a_held_claim_inside_the_cooldown_of_an_earlier_win_is_refused() -> None:
    arbiter = race({0: FAST, 1: FAST})
    grab(arbiter, 0, X, reaction=300, one_way=10)  # V 1300
    grab(arbiter, 0, Y, reaction=350, one_way=10)  # V 1350, sent before X was decided
    decided = settle(arbiter, 2000)
    assert outcomes(decided) == {0: ("refused", "ambush/hand_busy")}
    assert [d.outcome for d in decided] == ["won", "refused"]


def test_a_grab_that_arrives_after_the_window_loses() -> None:
    arbiter = race({0: FAST, 1: FAST, 2: SLOW})
    grab(arbiter, 0, X, reaction=300, one_way=10)
    grab(arbiter, 1, X, reaction=310, one_way=10)
    assert outcomes(settle(arbiter, 1522))[0] == ("won", None)
    # Seat 2's link got slower than measured: its honest V (1290) is clamped to 1530, and the
    # cell is gone anyway; the decision is final.
    late = grab(arbiter, 2, X, reaction=290, one_way=220)
    assert late is not None and (late.outcome, late.code) == ("lost", "ambush/empty_cell")
    assert late.claim.clamps == ["rtt_cap"]


def test_grabs_before_the_call_or_outside_a_race_are_refused() -> None:
    arbiter = Arbiter(1)
    arbiter.update_link(0, FAST)
    assert (grab(arbiter, 0, X, reaction=300, one_way=10) or _none()).code == "ambush/no_race"
    arbiter.start_race(CALL_VERSION, CALL_AT, [0])
    stale = grab(arbiter, 0, X, reaction=300, one_way=10, ref=CALL_VERSION - 1)
    assert stale is not None and stale.code == "ambush/before_call"
    grab(arbiter, 0, X, reaction=300, one_way=10)
    [ended] = arbiter.end_race(1400)
    assert (ended.outcome, ended.code) == ("refused", "ambush/race_over")
    late = grab(arbiter, 0, Y, reaction=300, one_way=10)
    assert late is not None and late.code == "ambush/race_over"


def test_an_engine_refusal_passes_the_cell_to_the_next_claim() -> None:
    arbiter = race({0: FAST, 1: FAST})
    grab(arbiter, 0, X, reaction=300, one_way=10)
    grab(arbiter, 1, X, reaction=320, one_way=10)

    def engine(claim: Claim) -> str | None:
        return "ambush/hand_busy" if claim.seat == 0 else None

    decided = arbiter.decide(2000, engine)
    assert outcomes(decided) == {0: ("refused", "ambush/hand_busy"), 1: ("won", None)}


def test_the_race_end_waits_for_grabs_still_on_the_wire() -> None:
    arbiter = race({0: FAST, 1: SLOW})
    assert arbiter.safe_after(3000) == 3000 + 220
    arbiter.update_link(1, LOCAL)  # a bot seat is timed exactly
    assert arbiter.safe_after(3000) == 3000 + 40


def test_a_bot_seat_grabs_at_its_exact_time() -> None:
    arbiter = race({0: FAST, 1: LOCAL})
    assert arbiter.submit_exact(seat=1, cell=X, at_ms=1290, arrival=1290) is None
    grab(arbiter, 0, X, reaction=300, one_way=10)
    assert outcomes(settle(arbiter, 1320)) == {1: ("won", None), 0: ("lost", "ambush/empty_cell")}


def test_a_seat_that_keeps_hitting_the_clamp_is_flagged() -> None:
    arbiter = race({0: FAST, 1: FAST})
    for k in range(10):
        arbiter.start_race(CALL_VERSION + k, CALL_AT, [0, 1])
        grab(arbiter, 0, X, reaction=300, one_way=10, ref=CALL_VERSION + k)
        grab(arbiter, 1, X, reaction=300, one_way=10, dt=150, ref=CALL_VERSION + k)
        settle(arbiter, 5000)
    flags = arbiter.flags()
    assert flags["flagged"] == [1]
    assert flags["seats"]["1"]["reasons"] == ["clamped"]
    assert flags["seats"]["0"]["clamped_share"] == 0.0


def test_a_seat_with_inhumanly_fast_reactions_is_flagged() -> None:
    arbiter = race({0: FAST})
    for k in range(6):
        arbiter.start_race(CALL_VERSION + k, CALL_AT, [0])
        grab(arbiter, 0, X, reaction=120, one_way=10, ref=CALL_VERSION + k)
    assert arbiter.flags()["seats"]["0"]["reasons"] == ["fast_reactions"]


def _none() -> Any:
    raise AssertionError("expected a refusal")


def test_a_seat_that_keeps_hitting_the_clamp_loses_its_tolerance() -> None:
    arbiter = race({0: FAST, 1: FAST})
    for k in range(9):
        arbiter.start_race(CALL_VERSION + k, CALL_AT, [0, 1])
        grab(arbiter, 1, X, reaction=300, one_way=10, dt=150, ref=CALL_VERSION + k)
    # 9 of 9 clamped: from now on seat 1 may claim its minimum round trip, no tolerance.
    arbiter.start_race(CALL_VERSION + 9, CALL_AT, [0, 1])
    grab(arbiter, 1, X, reaction=300, one_way=10, dt=150, ref=CALL_VERSION + 9)
    claim = arbiter.pending[-1]
    assert claim.v == 1320 - 20 and claim.clamps == ["probation", "rtt_cap"]
    # An honest seat is untouched.
    grab(arbiter, 0, X, reaction=300, one_way=10, ref=CALL_VERSION + 9)
    assert arbiter.pending[-1].clamps == []


def test_an_honest_seat_on_probation_climbs_out() -> None:
    arbiter = race({0: FAST})
    for k in range(9):  # a bad spell: every grab past the budget
        arbiter.start_race(CALL_VERSION + k, CALL_AT, [0])
        grab(arbiter, 0, X, reaction=300, one_way=10, extra_delay=40, ref=CALL_VERSION + k)
    assert arbiter.flags()["flagged"] == [0]
    for k in range(9, 40):  # then the link is fine again, a few ms above its minimum
        arbiter.start_race(CALL_VERSION + k, CALL_AT, [0])
        grab(arbiter, 0, X, reaction=300, one_way=10, extra_delay=5, ref=CALL_VERSION + k)
    clamps = arbiter.pending[-1].clamps
    assert arbiter.flags()["flagged"] == [] and clamps == []


def test_a_seat_out_of_the_game_cannot_grab() -> None:
    arbiter = race({0: FAST, 1: FAST})
    arbiter.start_race(CALL_VERSION, CALL_AT, [1])  # seat 0's castle is destroyed
    refused = grab(arbiter, 0, X, reaction=300, one_way=10)
    assert refused is not None and refused.code == "ambush/seat_out"
