"""The Mini App's static files, loaded into memory at start with gzip copies and ETags.

No build step: the files under webapp/static/ are served as they are (ES modules). The page
(``/app/``, always revalidated) refers to the files under a versioned prefix,
``/app/v/<version>/...``, where ``<version>`` hashes every file: those answers are cached for
a year (``immutable``), and the modules' relative imports stay inside the same version. The
same files without the prefix (``/app/app/main.js``) are revalidated (ETag, 304).

The page's strings are static files too: ``i18n/<locale>.json`` (what ``/api/i18n/<locale>``
answers; public text) is built from the catalogs at start and versioned with the rest, so the
page gets it like its code: gzipped (~9 KB instead of ~70 KB of escaped JSON), without an
initData check, from the cache on a later opening.

Not aiohttp's ``add_static(append_version=True)``: its ``?v=<hash>`` is per URL built with
``url_for`` (the modules' relative imports would drop it), it sets no Cache-Control, gzips
only pre-built ``.gz`` files and serves nothing generated (the catalogs)."""

from __future__ import annotations

import gzip
import hashlib
import json
import mimetypes
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from aiohttp import web

from webapp import systems  # noqa: F401  (the installed systems' error codes join ERRORS)
from webapp.errors import ERRORS
from webapp.i18n import LOCALES, descriptions, gettext, messages

STATIC_DIR = Path(__file__).resolve().parent / "static"
INDEX = "index.html"
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
REVALIDATE = "no-cache"
IMMUTABLE = "public, max-age=31536000, immutable"
# src/href of the page that point at our files (not data: URLs or absolute ones).
LOCAL_REF = re.compile(r'\b(src|href)="((?:app|vendor)/[^"]+)"')


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    content_type: str
    etag: str


def make_asset(name: str, body: bytes) -> Asset:
    suffix = Path(name).suffix.lower()
    content_type = TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
    gzipped = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSIBLE else None
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    return Asset(body, gzipped, content_type, etag)


def files_version(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        if name != INDEX:
            digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()[:12]


def versioned_index(body: bytes, version: str) -> bytes:
    text = LOCAL_REF.sub(lambda m: f'{m[1]}="v/{version}/{m[2]}"', body.decode())
    return text.encode()


@cache
def catalogs() -> dict[str, bytes]:
    """``i18n/<locale>.json``: the page's strings and error messages, the payload of
    webapp/api/i18n.py (keep the two in step)."""
    files = {}
    for locale in LOCALES:
        errors = {code: gettext(locale, msgid) for code, (_, msgid) in ERRORS.items()}
        data = {"ok": True, "locale": locale, "messages": messages(locale), "errors": errors}
        data["descriptions"] = descriptions(locale)
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        files[f"i18n/{locale}.json"] = text.encode()
    return files


def load_assets(root: Path = STATIC_DIR) -> dict[str, Asset]:
    files = {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(p for p in root.rglob("*") if p.is_file())
        if not path.name.startswith(".")
    }
    files.update(catalogs())
    if INDEX in files:
        files[INDEX] = versioned_index(files[INDEX], files_version(files))
    return {name: make_asset(name, body) for name, body in files.items()}


def static_handler(assets: dict[str, Asset]) -> Callable[[web.Request], Awaitable[web.Response]]:
    version = files_version({name: asset.body for name, asset in assets.items()})

    async def serve(request: web.Request) -> web.Response:
        name = request.match_info.get("path") or INDEX
        cache = REVALIDATE
        wanted = request.match_info.get("version")
        if wanted is not None and name != INDEX:
            # A page of an older deployment may still ask: it gets today's file, revalidated.
            cache = IMMUTABLE if wanted == version else REVALIDATE
        asset = assets.get(name)
        if asset is None or name.endswith("/"):
            raise web.HTTPNotFound()
        headers = {"ETag": asset.etag, "Cache-Control": cache, "Vary": "Accept-Encoding"}
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
    app.router.add_get(prefix + "v/{version:[0-9a-f]+}/{path:.+}", handler)
    app.router.add_get(prefix + "{path:.+}", handler)
