"""bench/transport_cost.py: every transport it compares answers every move, the same way."""

from __future__ import annotations

import argparse

import pytest

from bench import transport_cost


@pytest.mark.parametrize("variant", transport_cost.VARIANTS)
def test_each_transport_answers_every_move_with_an_ack_and_four_patches(variant: str) -> None:
    """A short run of each server: every action sent is acked to its mover and patched to the
    table's four seats, so the CPU per move the bench prints is for the same work."""
    args = argparse.Namespace(tables=5, period_ms=100, warmup=0.5, seconds=1.0)
    result = transport_cost.one_run(variant, args)
    assert result["variant"] == variant
    assert result["moves_per_s"] > 0
    assert result["answered"], result


def test_a_move_sends_the_mover_two_messages_and_the_others_one() -> None:
    sent: dict[str, list[bytes]] = {}

    class Seat:
        def __init__(self, name: str) -> None:
            self.name = name

        def send_move(self, texts: list[bytes]) -> None:
            sent[self.name] = texts

    tables = transport_cost.Tables()
    seats = [Seat(f"s{n}") for n in range(4)]
    for seat in seats:
        tables.join(7, seat)
    tables.move(7, seats[2], 41)
    assert [len(sent[f"s{n}"]) for n in range(4)] == [1, 1, 2, 1]
    assert transport_cost.client_seq_of(sent["s2"][0]) == 41
    assert len({texts[-1] for texts in sent.values()}) == 1  # one patch, the same for all
