"""The garbage collector policy: survivors frozen without a scan, cycles collected on growth,
and a full collection that found nothing makes the next one wait for more growth."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from app.collector import OLDEST_THRESHOLD, YOUNG_THRESHOLD, CollectorPolicy


class Node:
    """A container the collector tracks; two of them pointing at each other form a cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    """Unreachable cyclic garbage that only the cyclic collector can free."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


@pytest.fixture
def policy() -> Iterator[CollectorPolicy]:
    thresholds = gc.get_threshold()
    policy = CollectorPolicy(growth=2.0)
    policy.install()
    try:
        yield policy
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)
        gc.collect()


def test_install_sets_the_thresholds(policy: CollectorPolicy) -> None:
    assert gc.get_threshold() == (YOUNG_THRESHOLD, 20, OLDEST_THRESHOLD)
    assert policy.baseline > 0  # what start-up built is frozen


def test_a_tick_freezes_survivors_without_a_collection(policy: CollectorPolicy) -> None:
    kept = [[index] for index in range(1000)]
    frozen_before = gc.get_freeze_count()
    assert policy.tick() is False
    assert gc.get_freeze_count() >= frozen_before + len(kept)
    assert gc.get_count()[0] == 0
    assert policy.full_collections == 0
    assert policy.grown >= len(kept)


def test_cycles_wait_for_the_heap_to_grow_then_are_collected(policy: CollectorPolicy) -> None:
    garbage = cycle()
    policy.tick()  # frozen: no young collection will look at it
    gc.collect(1)
    assert garbage() is not None
    # The frozen heap doubles: the next tick runs a full collection.
    grown = [Node() for _ in range(policy.baseline + 10)]
    assert policy.tick() is True
    assert garbage() is None
    assert policy.full_collections == 1
    assert policy.grown == 0
    assert policy.baseline >= len(grown)


def test_growth_counts_objects_young_collections_moved_on(policy: CollectorPolicy) -> None:
    # More new objects than a young collection's threshold: some reach the older generations
    # before the tick, and must still count as growth.
    kept = [[index] for index in range(3 * YOUNG_THRESHOLD)]
    policy.baseline = 10 * len(kept)  # keep the full collection out of this test
    policy.tick()
    assert policy.grown >= len(kept) * 0.9


def test_a_full_collection_that_finds_nothing_makes_the_next_wait_longer(
    policy: CollectorPolicy,
) -> None:
    # A server filling up: the heap doubles with live objects only.
    live = [Node() for _ in range(policy.baseline + 10)]
    assert policy.tick() is True
    assert policy.due_growth == 4.0
    # Doubling again is no longer enough: it waits for four times the heap.
    more = [Node() for _ in range(policy.baseline + 10)]
    assert policy.tick() is False
    assert policy.full_collections == 1
    even_more = [Node() for _ in range(2 * policy.baseline)]
    assert policy.tick() is True
    assert policy.due_growth == policy.max_growth == 4.0  # capped: garbage cannot pile up
    assert len(live) + len(more) + len(even_more) > 0


def test_a_full_collection_that_finds_garbage_puts_the_rule_back(
    policy: CollectorPolicy,
) -> None:
    policy.due_growth = 4.0
    garbage = [cycle() for _ in range(policy.baseline // 10)]  # 5 % of the heap after
    policy.tick()  # frozen before a young collection can free it
    live = [Node() for _ in range(3 * policy.baseline)]
    assert policy.tick() is True
    assert all(ref() is None for ref in garbage)
    assert policy.due_growth == 2.0
    assert live


def test_objects_frozen_then_freed_do_not_make_a_full_collection_due(
    policy: CollectorPolicy,
) -> None:
    # Churn: objects live through a freeze, then die. The running sum passes the baseline,
    # but the frozen heap did not grow that much: no full collection.
    churn = [Node() for _ in range(policy.baseline // 2 + 10)]
    assert policy.tick() is False
    del churn
    churn = [Node() for _ in range(policy.baseline // 2 + 10)]
    assert policy.tick() is False
    assert policy.full_collections == 0
    assert policy.grown < policy.baseline  # started again from the true count
    assert churn
