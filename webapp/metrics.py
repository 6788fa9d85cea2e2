"""`GET /metrics`: the worker's counters in Prometheus' text format (engine/services/metrics.py).

Served only when METRICS_TOKEN is set, and only to a scraper that sends it
(`Authorization: Bearer <token>`): the web server is the public one (the Mini App, the
webhook), and the counters tell who is busy when; a token keeps one port and one process
while leaving the page closed to everyone else (Prometheus sends it with `authorization:`
in its scrape config, docs/deploy.md)."""

from __future__ import annotations

import hmac

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from webapp.errors import ApiError

METRICS_PATH = "/metrics"
METRICS_TOKEN: web.AppKey[str] = web.AppKey("metrics_token", str)


async def metrics(request: web.Request) -> web.Response:
    given = request.headers.get("Authorization", "")
    expected = "Bearer " + request.app[METRICS_TOKEN]
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise ApiError("unauthorized")
    body = generate_latest(REGISTRY)
    response = web.Response(body=body)
    response.content_type = CONTENT_TYPE_LATEST.split(";")[0]
    response.charset = "utf-8"
    return response


def setup_metrics(app: web.Application, token: str) -> None:
    app[METRICS_TOKEN] = token
    app.router.add_get(METRICS_PATH, metrics)
