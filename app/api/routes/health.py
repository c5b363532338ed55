"""``GET /api/health``: the process is up and its database answers (compose health check)."""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import text

from app.api.deps import ClusterDep, HubDep, SessionDep
from app.api.responses.misc import HealthOut
from app.realtime.relay import RelayCount

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health", response_model=HealthOut, response_model_exclude_unset=True)
async def health(db: SessionDep, hub: HubDep, cluster: ClusterDep) -> dict[str, object]:
    """``live_matches`` running in this process; with several processes, ``node`` names it
    and ``relayed_sockets`` counts the match sockets it pipes to other processes."""
    await db.execute(text("SELECT 1"))
    reply: dict[str, object] = {"status": "ok", "live_matches": len(hub.tasks)}
    if cluster is not None:
        reply["node"] = cluster.node_id
        reply["relayed_sockets"] = RelayCount.active
    return reply
