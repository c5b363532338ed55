"""Which registered games this process can actually play (their engine imports cleanly)."""

from __future__ import annotations

import logging

from engines import registry
from engines.base import Engine

log = logging.getLogger(__name__)


def playable() -> dict[str, Engine]:
    """Every registered game whose engine loads; a package still being written is skipped."""
    engines: dict[str, Engine] = {}
    for game_id in registry.ids():
        try:
            engines[game_id] = registry.get(game_id)
        except (ImportError, KeyError, AttributeError) as exc:
            log.debug("game %s is not playable: %r", game_id, exc)
    return engines
