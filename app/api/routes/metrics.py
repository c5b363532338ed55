"""``GET /metrics``: this process's Prometheus metrics in the text exposition format."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.ops.metrics import METRICS

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics() -> Response:
    """Scraped by Prometheus (deploy/prometheus.yml); not part of the public API: the shipped
    nginx configuration does not pass it through."""
    body, content_type = METRICS.exposition()
    return Response(body, media_type=content_type)
