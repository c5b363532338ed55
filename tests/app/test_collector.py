"""The garbage collector policy: survivors frozen without a scan, cycles collected when the heap
has grown, and a full collection that found nothing makes the next one wait for more growth."""

from __future__ import annotations

import ctypes.util
import gc
import platform
import weakref
from collections.abc import Iterator

import pytest

from app.collector import (
    OLDEST_THRESHOLD,
    YOUNG_THRESHOLD,
    CollectorPolicy,
    heap_blocks,
    malloc_trimmer,
)


class Node:
    """A container the collector tracks; two of them pointing at each other form a cycle."""

    def __init__(self) -> None:
        self.other: Node | None = None
        self.payload = [0]


def cycle() -> weakref.ref[Node]:
    """Unreachable cyclic garbage that only the cyclic collector can free."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return weakref.ref(first)


def grow(policy: CollectorPolicy, times: float) -> list[Node]:
    """Live objects until the heap is ``times`` its size after the last full collection."""
    kept: list[Node] = []
    while heap_blocks() < policy.baseline * times:
        kept.extend(Node() for _ in range(10_000))
    return kept


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
    assert policy.baseline > 1  # the heap start-up built, measured


def test_a_tick_freezes_survivors_without_a_collection(policy: CollectorPolicy) -> None:
    kept = [[index] for index in range(1000)]
    frozen_before = gc.get_freeze_count()
    assert policy.tick() is False
    assert gc.get_freeze_count() >= frozen_before + len(kept)
    assert gc.get_count()[0] == 0
    assert policy.full_collections == 0


def test_cycles_wait_for_the_heap_to_grow_then_are_collected(policy: CollectorPolicy) -> None:
    garbage = cycle()
    policy.tick()  # frozen: no young collection will look at it
    gc.collect(1)
    assert garbage() is not None
    # The heap doubles: the next tick runs a full collection.
    grown = grow(policy, 2.0)
    assert policy.tick() is True
    assert garbage() is None
    assert policy.full_collections == 1
    assert policy.baseline >= len(grown)


def test_objects_frozen_then_freed_do_not_make_a_full_collection_due(
    policy: CollectorPolicy,
) -> None:
    # Churn: far more than the heap lives through a freeze, then dies. The heap did not grow:
    # no full collection, however much passed through.
    for _ in range(5):
        churn = grow(policy, 1.6)
        assert policy.tick() is False
        del churn
    assert policy.full_collections == 0


def test_a_full_collection_that_finds_nothing_makes_the_next_wait_longer(
    policy: CollectorPolicy,
) -> None:
    # A server filling up: the heap doubles with live objects only.
    live = grow(policy, 2.0)
    assert policy.tick() is True
    assert policy.due_growth == 4.0
    # Doubling again is no longer enough: it waits for four times the heap.
    more = grow(policy, 2.0)
    assert policy.tick() is False
    assert policy.full_collections == 1
    even_more = grow(policy, 4.0)
    assert policy.tick() is True
    assert policy.due_growth == policy.max_growth == 4.0  # capped: garbage cannot pile up
    assert live and more and even_more


def test_a_full_collection_that_finds_garbage_puts_the_rule_back(
    policy: CollectorPolicy,
) -> None:
    policy.due_growth = 4.0
    garbage = [cycle() for _ in range(20_000)]
    policy.tick()  # frozen before a young collection can free it
    live = grow(policy, 4.0)
    assert policy.tick() is True
    assert all(ref() is None for ref in garbage)
    assert policy.due_growth == 2.0
    assert live


def test_memory_goes_back_to_the_system_after_a_collection_that_freed_much(
    policy: CollectorPolicy,
) -> None:
    """The allocator is asked to give freed memory back (``malloc_trim``) after a full
    collection that freed a worthwhile share of the heap, not after one that found nothing."""
    trims: list[int] = []
    policy.trim = lambda: trims.append(policy.full_collections)
    policy.due_growth = 0.0  # a full collection at the next tick, whatever the heap
    assert policy.tick() is True
    assert trims == [] and policy.trims == 0  # nothing was freed: nothing to give back
    garbage = [cycle() for _ in range(50_000)]
    policy.due_growth = 0.0
    assert policy.tick() is True
    assert all(ref() is None for ref in garbage)
    assert trims == [2] and policy.trims == 1


def test_the_c_librarys_trim_is_found_on_glibc() -> None:
    trim = malloc_trimmer()
    if ctypes.util.find_library("c") and "glibc" in platform.libc_ver()[0]:
        assert trim is not None
        trim()
