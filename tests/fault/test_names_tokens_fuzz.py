"""The names and tokens fuzz at CI size (``bench/fuzz_names_tokens.py`` runs it at full
size): impostors of held names (invisible characters, look-alike letters, case) are all
refused with a name code, castle names hiding invisible characters too, and malformed bearer
tokens are a 401 on REST and a coded error on both sockets, which stay open; no traceback."""

from __future__ import annotations

from pathlib import Path

from bench.fuzz_names_tokens import SERVER_ENV, campaign
from tests.fault.chaos_support import serving


async def test_impostor_names_and_malformed_tokens_are_refused_cleanly(tmp_path: Path) -> None:
    async with serving(tmp_path, **SERVER_ENV) as (server, _api):
        report = await campaign(server, names=200, tokens_count=120, seed_value=20)
    summary = "\n".join(report.lines())
    assert report.ok, summary
    assert report.names >= 200 and report.tokens >= 240, summary
    # Both kinds of refusal were reached: look-alikes taken, invisible characters invalid.
    assert report.codes["name account/name_taken"] > 0, summary
    assert report.codes["name account/name_invalid"] > 0, summary
    assert report.codes["rest auth/bad_token"] > 0 and report.codes["lobby auth/bad_token"] > 0
    assert report.codes["relay 101"] > 0, summary
