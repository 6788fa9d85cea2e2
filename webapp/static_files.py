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

import base64
import gzip
import hashlib
import json
import mimetypes
import posixpath
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from aiohttp import web

from webapp import systems  # noqa: F401  (the installed systems' error codes join ERRORS)
from webapp.errors import ERRORS
from webapp.i18n import LOCALES, descriptions, gettext, messages
from webapp.middleware import CSP

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
# The page's module entry, and a module's static imports (`import … from "./x.js";`,
# `import "./x.js";` at a line's start; a dynamic `import()` loads on demand).
MODULE_ENTRY = re.compile(r'<script type="module" src="((?:app|vendor)/[^"]+)"></script>')
# A script the page carries inline (so it runs while the page is parsed, a round trip before
# its file would have come): `<script src="app/x.js" data-inline></script>`.
INLINE_SCRIPT = re.compile(r'<script src="((?:app|vendor)/[^"]+)" data-inline></script>')
STATIC_IMPORT = re.compile(r"""^import\s(?:[^"';]*?\sfrom\s*)?["'](\.{1,2}/[^"']+)["']""", re.M)


@dataclass(frozen=True, slots=True)
class Asset:
    body: bytes
    gzipped: bytes | None
    content_type: str
    etag: str
    csp: str | None = None  # the page's own, with its inline scripts' hashes


def make_asset(name: str, body: bytes, csp: str | None = None) -> Asset:
    suffix = Path(name).suffix.lower()
    content_type = TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
    gzipped = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSIBLE else None
    etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
    return Asset(body, gzipped, content_type, etag, csp)


def files_version(files: dict[str, bytes]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        if name != INDEX:
            digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()[:12]


def static_imports(files: dict[str, bytes], entry: str) -> list[str]:
    """Every module ``entry`` imports statically, directly or not, nearest first."""
    found = [entry]
    for name in found:  # breadth first: the list grows while it is walked
        for spec in STATIC_IMPORT.findall(files.get(name, b"").decode()):
            module = posixpath.normpath(posixpath.join(posixpath.dirname(name), spec))
            if module not in found:
                found.append(module)
    return [name for name in found[1:] if name in files]


def preload_modules(body: bytes, files: dict[str, bytes]) -> bytes:
    """A ``modulepreload`` link after the page's module entry for every module of its static
    import graph: the browser asks for them all with the entry, instead of one level of
    imports per round trip (main.js → systems/index.js → a system.js → its dice.js)."""
    text = body.decode()
    entry = MODULE_ENTRY.search(text)
    if entry is None:
        return body
    links = "".join(
        f'\n<link rel="modulepreload" href="{name}">' for name in static_imports(files, entry[1])
    )
    return (text[: entry.end()] + links + text[entry.end() :]).encode()


def inline_scripts(body: bytes, files: dict[str, bytes]) -> tuple[bytes, str]:
    """The page with its ``data-inline`` scripts inside it (``data-src`` keeps the file's
    path, versioned below, for the script to find its neighbours) and its CSP, which allows
    exactly those scripts by their SHA-256 (no 'unsafe-inline')."""
    hashes = []

    def inline(match: re.Match[str]) -> str:
        code = files[match[1]].decode()
        if "</script" in code.lower():
            raise ValueError(f"{match[1]} cannot be inlined: it contains </script")
        digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
        return f'<script data-src="{match[1]}">{code}</script>'

    text = INLINE_SCRIPT.sub(inline, body.decode())
    csp = CSP.replace("script-src 'self'", " ".join(["script-src 'self'", *hashes]), 1)
    return text.encode(), csp


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
    page_csp = None
    if INDEX in files:
        page, page_csp = inline_scripts(preload_modules(files[INDEX], files), files)
        files[INDEX] = versioned_index(page, files_version(files))
    return {
        name: make_asset(name, body, page_csp if name == INDEX else None)
        for name, body in files.items()
    }


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
        if asset.csp is not None:  # on a 304 too: its headers replace the cached answer's
            headers["Content-Security-Policy"] = asset.csp
        if request.headers.get("If-None-Match") == asset.etag:
            return web.Response(status=304, headers=headers)
        body = asset.body
        if asset.gzipped is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
            body, headers["Content-Encoding"] = asset.gzipped, "gzip"
        headers["Content-Type"] = asset.content_type
        return web.Response(body=body, headers=headers)

    return serve


def setup_static(app: web.Application, prefix: str = "/app/") -> None:
    handler = static_handler(load_assets())
    app.router.add_get(prefix, handler)
    app.router.add_get(prefix + "v/{version:[0-9a-f]+}/{path:.+}", handler)
    app.router.add_get(prefix + "{path:.+}", handler)
