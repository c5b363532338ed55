"""``engines.base.Rng``: its written-out draws give exactly what the plain SplitMix64 loop gives."""

from __future__ import annotations

from typing import Any

import pytest

import engines.base as base
from engines.base import Rng


class PlainRng:
    """The reference: every draw through ``next_u64``, as the algorithm is usually written."""

    def __init__(self, seed: int, position: int = 0) -> None:
        self.rng = Rng(seed, position)

    def randbelow(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            value = self.rng.next_u64()
            if value < limit:
                return value % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]


def test_randbelow_matches_the_plain_loop_value_and_position() -> None:
    for seed in [0, 1, 7, 2**63 + 11, 2**64 - 1]:
        fast, plain = Rng(seed, seed % 97), PlainRng(seed, seed % 97)
        for n in [1, 2, 3, 7, 52, 201, 1201, 4096, 4097, 10**9, 2**63 + 5]:
            assert fast.randbelow(n) == plain.randbelow(n)
            assert fast.position == plain.rng.position


def test_shuffle_matches_the_plain_loop_order_and_position() -> None:
    for seed in range(30):
        for size in [0, 1, 2, 5, 17, 52, 5000]:
            fast, plain = Rng(seed, size), PlainRng(seed, size)
            a, b = list(range(size)), list(range(size))
            fast.shuffle(a)
            plain.shuffle(b)
            assert a == b and fast.position == plain.rng.position


class RejectOnce(list[int]):
    """Rejection limits that turn down the first draw asked for ``bound``."""

    def __init__(self, limits: list[int], bound: int) -> None:
        super().__init__(limits)
        self.bound = bound

    def __getitem__(self, index: Any) -> Any:
        if index == self.bound:
            self.bound = -1
            return 0
        return super().__getitem__(index)


def test_a_rejected_draw_is_drawn_again_as_randbelow_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # A rejection (a draw at or above the largest multiple of n below 2**64) has odds below
    # 2**-50 for a deck: force one for n = 3 and check the shuffle still follows the loop.
    monkeypatch.setattr(base, "_LIMITS", RejectOnce(base._LIMITS, 3))
    fast, plain = Rng(11), PlainRng(11)
    a, b = ["a", "b", "c", "d"], ["a", "b", "c", "d"]
    fast.shuffle(a)
    j = plain.randbelow(4)
    b[3], b[j] = b[j], b[3]
    plain.rng.next_u64()  # the rejected draw
    j = plain.randbelow(3)
    b[2], b[j] = b[j], b[2]
    j = plain.randbelow(2)
    b[1], b[j] = b[j], b[1]
    assert a == b and fast.position == plain.rng.position == 4
