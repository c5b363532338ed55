"""Schemathesis hooks for ``bench/fuzz_rest.py`` (loaded through ``SCHEMATHESIS_HOOKS``): the
check that a request the schema accepts passes the server's validation.

Schemathesis's own ``positive_data_acceptance`` counts every 400 and 422 against a valid
request, but here those statuses also carry refusals no schema can state (a name in two
scripts, a seat count the game does not have, a table already full: each with its own code).
The validator's refusal is the one with the code ``request/invalid``: a schema-valid request
answered with it means the schema and the validation disagree.
"""

from __future__ import annotations

import json
from typing import Any

import schemathesis

VALIDATION_CODE = "request/invalid"


@schemathesis.check
def positive_data_validated(ctx: Any, response: Any, case: Any) -> None:
    """A request generated to fit the schema is never refused ``request/invalid``."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    if response.status_code != 422:
        return
    try:
        error = json.loads(response.content)["error"]
    except (ValueError, KeyError, TypeError):
        return
    if error.get("code") == VALIDATION_CODE:
        details = "; ".join(
            f"{'.'.join(d.get('loc', []))}: {d.get('msg', '')}" for d in error.get("details") or []
        )
        raise AssertionError(f"Schema-valid request refused {VALIDATION_CODE}: {details}")
