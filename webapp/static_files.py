"""The Mini App's static files, loaded into memory at start with gzip copies and ETags.

No build step: the files under webapp/static/ are served as they are (ES modules)."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

STATIC_DIR = Path(__file__).resolve().parent / "static"
TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".md": "text/plain; charset=utf-8",
}
COMPRESSIBLE = (".js", ".css", ".html", ".svg", ".json", ".txt", ".md")


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    content_type: str
    etag: str


def load_assets(root: Path = STATIC_DIR) -> dict[str, Asset]:
    assets: dict[str, Asset] = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        if path.name.startswith("."):
            continue
        body = path.read_bytes()
        suffix = path.suffix.lower()
        content_type = (
            TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        )
        gzipped = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSIBLE else None
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        assets[path.relative_to(root).as_posix()] = Asset(body, gzipped, content_type, etag)
    return assets


def static_handler(assets: dict[str, Asset]):  # type: ignore[no-untyped-def]
    async def serve(request: web.Request) -> web.Response:
        name = request.match_info.get("path") or "index.html"
        asset = assets.get(name)
        if asset is None or name.endswith("/"):
            raise web.HTTPNotFound()
        headers = {"ETag": asset.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        if request.headers.get("If-None-Match") == asset.etag:
            return web.Response(status=304, headers=headers)
        body = asset.body
        if asset.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
            body, headers["Content-Encoding"] = asset.gzipped, "gzip"
        return web.Response(body=body, headers={**headers, "Content-Type": asset.content_type})

    return serve


def setup_static(app: web.Application, prefix: str = "/app/") -> None:
    handler = static_handler(load_assets())
    app.router.add_get(prefix, handler)
    app.router.add_get(prefix + "{path:.+}", handler)
