"""Two processes, one database: a sleeping match whose deadline falls due is woken by one
process only, and its deadline fires once."""

from __future__ import annotations

import asyncio
import re

from tests.app.cluster.conftest import NodeFactory, needs_cluster
from tests.app.support import Api

pytestmark = needs_cluster

SLEEPY = {"RAMPART_HIBERNATE_AFTER_S": "0.3", "RAMPART_WAKE_POLL_S": "0.05"}


async def counted(api: Api, name: str) -> int:
    """A counter of the process's ``/metrics``."""
    try:
        text = (await api.get("/metrics")).text
    finally:
        await api.close()
    found = re.search(rf"^{name}_total (\S+)$", text, re.MULTILINE)
    assert found is not None, text
    return int(float(found.group(1)))


async def test_a_due_sleeping_match_is_woken_by_one_process_once(cluster: NodeFactory) -> None:
    one, two = cluster(**SLEEPY), cluster(**SLEEPY)
    api = Api(one)
    try:
        tokens = [await api.guest("nap"), await api.guest("snooze")]
        # 40 s of match time: 2 s of wall time, long after each match fell asleep.
        control = {"turn_ms": 40_000, "on_timeout": "forfeit", "grace_ms": 0}
        matches = [
            await api.table("tally", tokens, options={"target": 9}, time_control=control)
            for _ in range(6)
        ]
        finished: dict[int, dict[str, object]] = {}
        for _ in range(300):
            for match_id in set(matches) - set(finished):
                match = (await api.get(f"/api/matches/{match_id}")).json()
                if match["status"] == "finished":
                    finished[match_id] = match
            if len(finished) == len(matches):
                break
            await asyncio.sleep(0.05)
        assert set(finished) == set(matches)
        assert all(match["forfeits"] == {"0": "time"} for match in finished.values())
        # Each match timed out with nobody connected: it was woken for its deadline, by one
        # process only (twice would count more wake-ups than matches).
        woken = [await counted(Api(node), "rampart_matches_woken") for node in (one, two)]
        assert sum(woken) == len(matches)
        logs = one.log_text() + two.log_text()
        assert "session failed" not in logs and "could not wake" not in logs
    finally:
        await api.close()
