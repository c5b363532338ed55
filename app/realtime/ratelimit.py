"""A per-connection token bucket: floods are answered with an error, never with a close."""

from __future__ import annotations

import time


class TokenBucket:
    """``rate`` messages per second on average, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.updated = time.monotonic()
        self.refused = 0
        self._warned_at = 0.0

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False

    def wait_ms(self) -> int:
        """Milliseconds until the bucket holds a whole token again (0: it does now)."""
        missing = 1.0 - self.tokens
        return 0 if missing <= 0 else int(missing / self.rate * 1000) + 1

    def should_warn(self) -> bool:
        """At most one ``rate/limited`` error per second for messages that carry no
        ``client_seq`` (an action's or a grab's refusal is always answered: the client must
        know to send it again), so refusals cannot amplify a flood."""
        now = time.monotonic()
        if now - self._warned_at >= 1.0:
            self._warned_at = now
            return True
        return False
