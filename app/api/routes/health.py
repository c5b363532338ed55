"""``GET /api/health``: the process is up and its database answers (compose health check)."""

from __future__ import annotations

from fastapi import APIRouter
from sqlalchemy import text

from app.api.deps import HubDep, SessionDep

router = APIRouter(prefix="/api", tags=["health"])


@router.get("/health")
async def health(db: SessionDep, hub: HubDep) -> dict[str, object]:
    await db.execute(text("SELECT 1"))
    return {"status": "ok", "live_matches": len(hub.tasks)}
