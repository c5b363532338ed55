"""The standing websocket fuzz campaign at CI size (``bench/fuzz_ws.py`` runs it at full size):
hypothesis-drawn hostile messages on match sockets of all four games and the raw-frame cases,
against a real server, while an honest match plays on: no session crash, no traceback, every
message answered with a coded error (or its ack), every bad frame closed as RFC 6455 asks;
floods of cheap requests from another address meanwhile all meet their limits; the side doors
(a spectator's chat, a ticket while seated, a banned lobby hello) stay shut."""

from __future__ import annotations

from pathlib import Path

from bench.floods import FloodSize
from bench.fuzz_ws import GAMES, SERVER_ENV, campaign
from tests.fault.chaos_support import serving

# The floods at CI size: enough to pass every limit of ``SERVER_ENV`` once.
CI_FLOODS = FloodSize(
    accounts=125, tables=12, reads=105, silent_sockets=104, slowloris=10, deadline_s=5.0
)


async def test_a_fuzzed_server_keeps_every_match_alive_and_answers_every_message(
    tmp_path: Path,
) -> None:
    async with serving(tmp_path, **SERVER_ENV) as (server, _api):
        report = await campaign(
            server, messages=4000, seed_value=20, games=GAMES, pool_size=300, floods=CI_FLOODS
        )
    summary = "\n".join(report.lines())
    assert report.ok, summary
    assert report.sent == 4000 and report.honest_moves > 0, summary
    assert not report.crashes and report.tracebacks == 0, summary
    assert set(report.matches) == set(GAMES), summary
    assert report.floods is not None and not report.floods.problems, summary
    assert report.side_doors is not None and not report.side_doors.leaks, summary
    assert report.side_doors.codes["spectator chat: chat/spectator"] == 20 * len(GAMES), summary
