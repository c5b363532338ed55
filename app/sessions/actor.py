"""A single-writer actor: one command in hand at a time, a queue, a task that sleeps until due.

``GameSession`` is one (each match's one writer, as lila-ws keeps one actor per game). The
rules, all here:

- A command is *in hand* (``busy``) from the moment it is taken until it is finished: its
  change logged and announced, or its answer sent. Only one is in hand at a time; whatever
  arrives meanwhile waits in the inbox, in order.
- Work that must go before any queued command (finishing a match once its last move is
  logged, restoring a failed state, failing the task) goes to ``urgent``.
- The subclass may finish a command without the task (the *fast lane*: ``take_if_idle``, and
  ``release`` once done, from a callback if need be). Everything else goes through ``enqueue``
  to the task, which handles the urgent work and the inbox, then fires what is due, then sleeps
  until something is queued or the next thing is due (``next_due``, in event-loop time).
- The task ends once ``done()`` and nothing is queued; a failure raised in it ends it too (the
  owner, the hub, then rebuilds the match from its log).
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

from app.sessions.commands import Command

Job = Callable[[], Awaitable[None]]


class Actor:
    """The inbox, the urgent work and the task of a single writer; subclasses say how to
    ``handle`` a command, what time makes due (``next_due``, ``fire_due``) and when they are
    ``done``."""

    def __init__(self) -> None:
        self._inbox: deque[Command] = deque()
        self._urgent: deque[Job] = deque()
        self._busy = False
        self._wake = asyncio.Event()
        self._armed_for: float | None = None  # what the sleeping task's timer is set for
        self._running = False

    # ----- what the subclass provides ------------------------------------------------------

    async def handle(self, command: Command) -> None:
        raise NotImplementedError

    async def fire_due(self) -> None:
        """Do whatever is due now (called by the task once the queues are empty)."""

    def next_due(self) -> float | None:
        """The event-loop time of the next thing due (None: nothing is)."""
        return None

    def done(self) -> bool:
        """Whether the task may end once nothing is queued."""
        return False

    # ----- for the subclass ----------------------------------------------------------------

    def idle(self) -> bool:
        """Nothing in hand, nothing queued: a command may be taken at once (the fast lane)."""
        return not (self._busy or self._inbox or self._urgent)

    def waits(self) -> bool:
        """Whether anything would run the next command: the task, or a command in hand."""
        return self._running or self._busy or bool(self._inbox)

    def take_if_idle(self) -> bool:
        """Take a command in hand outside the task (the fast lane) if nothing is in hand or
        queued (``idle``): True when taken; everything else queues until ``release``."""
        if self._busy or self._inbox or self._urgent:
            return False
        self._busy = True
        return True

    def release(self) -> None:
        """The fast lane's command is finished: wake the task if it has work, or if the
        command moved what it sleeps until (a deadline, a bot's turn)."""
        self._busy = False
        if self._inbox or self._urgent or self.next_due() != self._armed_for:
            self._wake.set()

    def enqueue(self, command: Command) -> None:
        self._inbox.append(command)
        self._wake.set()

    def urgently(self, job: Job, *, first: bool = False) -> None:
        """Run ``job`` (awaited by the task) before any queued command."""
        if first:
            self._urgent.appendleft(job)
        else:
            self._urgent.append(job)
        self._wake.set()

    def fail(self, error: BaseException) -> None:
        """A failure outside the task ends the task as a failure in it would."""

        async def raise_it() -> None:
            raise error

        self.urgently(raise_it, first=True)
        self._busy = False

    def urgent_pending(self) -> bool:
        return bool(self._urgent)

    # ----- the task ------------------------------------------------------------------------

    async def run(self) -> None:
        """Handle what is queued, fire what is due, sleep until the next thing is due or a
        command comes; end once ``done`` with nothing queued."""
        self._running = True
        try:
            await self._run()
        finally:
            self._running = False

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if not self._busy:
                self._busy = True
                try:
                    while self._urgent or self._inbox:
                        if self._urgent:
                            await self._urgent.popleft()()
                        else:
                            await self.handle(self._inbox.popleft())
                    await self.fire_due()
                finally:
                    self._busy = False
                if self._urgent or self._inbox:
                    continue
                if self.done():
                    return
            # While the fast lane has a command in hand nothing is due: its end wakes us.
            due = None if self._busy else self.next_due()
            self._armed_for = due
            self._wake.clear()
            timer = None
            if due is not None:
                timer = loop.call_at(max(loop.time(), due), self._wake.set)
            try:
                await self._wake.wait()
            finally:
                if timer is not None:
                    timer.cancel()
