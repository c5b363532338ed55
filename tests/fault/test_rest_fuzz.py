"""The REST schema fuzz at CI size: schemathesis against ``/openapi.json`` of a real
server, logged in, over seeded tables, matches, tournaments and ladders (``bench/fuzz_rest.py``,
which runs it at full size): no 5xx, no undeclared status, no body off its schema, no
schema-valid request refused ``request/invalid`` and no schema-invalid one taken, ``OPTIONS``
naming the schema's methods, no traceback in the server's log."""

from __future__ import annotations

from bench.fuzz_rest import fuzz


def test_schemathesis_finds_no_server_error_and_no_schema_mismatch() -> None:
    figures = fuzz(examples=3, workers=1, seed_value=20)
    report = "\n".join([str(figures.as_json()), *figures.examples])
    assert figures.server_errors == 0, report
    assert not figures.failures, report
    assert figures.tracebacks == 0, report
    # Reached: the requests were many, authenticated writes succeeded, and seeded rows were
    # found behind their ids (not only 404s and 422s).
    assert figures.requests > 500, report
    assert figures.statuses[201] > 0 and figures.deep_ok > 20, report
