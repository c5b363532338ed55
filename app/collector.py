"""The cyclic garbage collector's policy for a long-running server: no long stalls on the move path.

CPython's collector scans every object of a generation it collects, with the event loop
stopped. A loaded server holds hundreds of thousands of long-lived objects (each websocket
connection keeps its coroutines, frames and buffers), and with the default policy they sit in
the young generations until a collection promotes them: one such collection can stop the loop
for over half a second, and every young collection rescans tens of thousands of survivors.
Whether one of them fell inside a benchmark's window decided its p99 (the figures are in
bench/PERF.md, "The collector's stalls" and "The collector policy's figures").

This policy keeps scans short:

* Every ``freeze_every_s`` the survivors are frozen (``gc.freeze``): moved into the permanent
  generation without being scanned, in constant time. The young generations therefore hold at
  most a second's worth of objects, and a young collection (still automatic, after 50,000 new
  tracked objects) stays short.
* Objects freed by reference counting (nearly everything a move allocates) are freed as
  before, frozen or not. Only cyclic garbage waits: a full collection (``unfreeze``, collect,
  freeze again) runs when the heap has grown ``growth`` times since the last full one.
  Like CPython's own rule for its oldest generation (collect when it grew by a quarter), the
  cost is amortised over the objects that caused it; a doubling rule makes the stalls rarer,
  and a steady server (matches and connections coming and going at a constant level) only
  reaches it through the garbage it leaves in cycles.
* The heap is measured by the allocator's count of blocks in use (``sys.getallocatedblocks``,
  cheap enough for every tick). It goes down when frozen objects are freed, which no count of
  frozen objects kept cheaply does: ``gc.get_freeze_count`` walks the whole frozen list (a
  stall of its own in a loaded server), and a running sum of what each tick froze only ever
  grows, so a busy server's churn alone made full collections due.
* A full collection that freed less than ``worthwhile`` of the heap doubles the growth the
  next one waits for, up to ``max_growth``; one that freed more puts it back to ``growth``.
  A server that is filling up (thousands of sockets joining) grows its heap without making
  garbage: its full collections during set-up free nothing and grow longer with the heap.
  Cyclic garbage still cannot pile up beyond ``max_growth`` times the live heap before it is
  collected.
* After a full collection that freed a worthwhile share of the heap, the C allocator is asked
  to give free memory back to the system (glibc's ``malloc_trim``; skipped where there is
  none). Freed memory otherwise stays in the process, and a full collection alone hardly
  lowers the RSS (``bench/socket_churn.py --collect`` shows both).
"""

from __future__ import annotations

import ctypes
import gc
import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

YOUNG_THRESHOLD = 50_000
MIDDLE_THRESHOLD = 20
# Never start a full collection on CPython's own count: ``tick`` decides when.
OLDEST_THRESHOLD = 1_000_000_000


def heap_blocks() -> int:
    """The allocator's blocks in use: the heap's size, objects frozen or not, garbage included.
    Without pymalloc (``PYTHONMALLOC=malloc``, for a memory checker) there is no such count:
    the frozen objects are counted instead, slowly but correctly."""
    return sys.getallocatedblocks() or gc.get_freeze_count()


def malloc_trimmer() -> Callable[[], object] | None:
    """``malloc_trim(0)`` of the C library (glibc: free memory at the heap's top and whole
    free pages inside it go back to the system); None where the C library has none."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return lambda: trim(0)


@dataclass
class CollectorPolicy:
    """Freeze survivors often; collect everything only when the heap has grown."""

    freeze_every_s: float = 1.0
    growth: float = 2.0
    max_growth: float = 4.0
    # A full collection that freed less than this share of the heap found nothing worth its
    # stall: the next one waits for more growth.
    worthwhile: float = 0.01
    # The heap (``heap_blocks``) after the last full collection, and the growth the next one
    # waits for (``growth`` until one finds nothing).
    baseline: int = 0
    due_growth: float = 0.0
    full_collections: int = 0
    last_full_ms: float = 0.0
    # Gives freed memory back to the system after a worthwhile full collection (None: never).
    trim: Callable[[], object] | None = field(default_factory=malloc_trimmer)
    trims: int = 0
    last_trim_ms: float = 0.0

    def install(self) -> None:
        """Collect and freeze what start-up built, then set the thresholds."""
        gc.collect()
        gc.freeze()
        self.baseline = max(heap_blocks(), 1)
        self.due_growth = self.growth
        gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLDEST_THRESHOLD)

    def tick(self) -> bool:
        """Freeze the survivors; run a full collection when the heap has grown enough since
        the last one. True if it ran."""
        gc.freeze()
        before = heap_blocks()
        if before < self.baseline * self.due_growth:
            return False
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.last_full_ms = (time.perf_counter() - started) * 1000
        self.full_collections += 1
        self.baseline = max(heap_blocks(), 1)
        trim_ms = 0.0
        if before - self.baseline < before * self.worthwhile:
            self.due_growth = min(self.due_growth * 2, self.max_growth)
        else:
            self.due_growth = self.growth
            if self.trim is not None:
                started = time.perf_counter()
                self.trim()  # a ctypes call: the event loop's thread runs meanwhile
                self.last_trim_ms = trim_ms = (time.perf_counter() - started) * 1000
                self.trims += 1
        log.info(
            "full collection: %d objects freed, heap %d -> %d blocks, %.1f ms (+%.1f ms "
            "trim); the next at %.0fx",
            freed,
            before,
            self.baseline,
            self.last_full_ms,
            trim_ms,
            self.due_growth,
        )
        return True

    def run_in_background(self) -> threading.Thread:
        """Tick every ``freeze_every_s`` on a daemon thread (it holds the GIL only to tick)."""

        def loop() -> None:
            while True:
                time.sleep(self.freeze_every_s)
                try:
                    self.tick()
                except Exception:  # the policy must never take the server down
                    log.exception("garbage collector policy failed")

        thread = threading.Thread(target=loop, name="gc-policy", daemon=True)
        thread.start()
        return thread
