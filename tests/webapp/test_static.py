"""Static Mini App files, security headers, links, development mode and the catalogs."""

from __future__ import annotations

import base64
import hashlib
import re
from urllib.parse import parse_qs, unquote, urlsplit

import pytest
from babel.messages.pofile import read_po

from bot.settings import Settings
from tests.webapp.conftest import TOKEN
from webapp.app import create_app
from webapp.auth import validate_init_data
from webapp.config import WebAppConfig
from webapp.dev import DEV_BOT_TOKEN
from webapp.i18n import LOCALES, extract_template, po_path
from webapp.links import direct_link, link_secret, parse_token, startapp_token
from webapp.middleware import CSP
from webapp.static_files import load_assets, static_imports


async def test_the_app_is_served_with_a_strict_csp(aiohttp_client, make_app):
    client = await aiohttp_client(make_app())
    response = await client.get("/app/")
    assert response.status == 200
    assert response.headers["Content-Type"].startswith("text/html")
    assert "script-src 'self';" in CSP and "unsafe" not in CSP
    # The page's own CSP allows its one inline script, boot.js, by its hash and nothing else.
    boot = (await (await client.get("/app/app/boot.js")).read()).decode()
    digest = base64.b64encode(hashlib.sha256(boot.encode()).digest()).decode()
    page_csp = CSP.replace("script-src 'self'", f"script-src 'self' 'sha256-{digest}'")
    assert response.headers["Content-Security-Policy"] == page_csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    html = await response.text()
    assert re.findall(r"<script[^>]*>(.*?)</script>", html, re.S) == [boot, ""]  # boot, main.js
    assert "<script>" not in html and "style=" not in html  # nothing else inline
    other = await client.get("/app/app/main.js")
    assert other.headers["Content-Security-Policy"] == CSP
    # A revalidated page keeps its CSP: a 304's headers replace those of the cached answer.
    again = await client.get("/app/", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status == 304 and again.headers["Content-Security-Policy"] == page_csp
    for src in re.findall(r'(?:src|href)="([^"]+)"', html):
        if src.startswith("data:"):
            continue
        asset = await client.get("/app/" + src)
        assert asset.status == 200, src
        assert asset.headers.get("Content-Encoding") == "gzip"


def test_the_page_preloads_its_whole_static_module_graph():
    page = load_assets()["index.html"].body.decode()
    preloaded = re.findall(r'<link rel="modulepreload" href="v/[0-9a-f]{12}/([^"]+)">', page)
    # main.js's imports, theirs (a system's registration), and theirs (its dice) ...
    for module in ("app/i18n.js", "app/systems/index.js", "app/systems/savage/system.js",
                   "app/systems/savage/dice.js", "app/dice-kit.js"):  # fmt: skip
        assert module in preloaded, module
    assert preloaded[0] == "vendor/htm-preact-standalone.module.js"  # nearest first
    # ... not what loads on demand (a system's screens) or after the first render (the SDK)
    assert not [m for m in preloaded if m.endswith(("/index.js", "board.js")) and "systems/" in m
                and m != "app/systems/index.js"]  # fmt: skip
    assert len(preloaded) == len(set(preloaded)) and "app/main.js" not in preloaded


def test_static_imports_follow_relative_paths(tmp_path):
    files = {
        "app/main.js": b'import { a } from "./a.js";\nimport "./b/c.js";\nimport("./lazy.js");',
        "app/a.js": b'import {\n  c,\n} from "./b/c.js";\nexport const a = 1;',
        "app/b/c.js": b'import { v } from "../../vendor/v.js";\nconst c = "import \'./no.js\'";',
        "vendor/v.js": b"export const v = 1;",
        "app/lazy.js": b"",
    }
    assert static_imports(files, "app/main.js") == ["app/a.js", "app/b/c.js", "vendor/v.js"]


async def test_static_etags_and_misses(aiohttp_client, make_app):
    client = await aiohttp_client(make_app())
    first = await client.get("/app/app/main.js")
    assert first.headers["Content-Type"].startswith("text/javascript")
    again = await client.get("/app/app/main.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status == 304
    for path in ("/app/nope.js", "/app/../webapp/app.py", "/app/app/"):
        response = await client.get(path)
        assert response.status == 404, path
        assert (await response.json())["error"]["code"] == "not_found"
    root = await client.get("/", allow_redirects=False)
    assert root.status == 302 and root.headers["Location"] == "/app/"


async def test_the_page_refers_to_versioned_files_cached_for_a_year(aiohttp_client, make_app):
    client = await aiohttp_client(make_app())
    page = await client.get("/app/")
    assert page.headers["Cache-Control"] == "no-cache" and page.headers["ETag"]
    html = await page.text()
    refs = re.findall(r'(?:src|href)="(v/([0-9a-f]{12})/[^"]+)"', html)
    assert {version for _, version in refs} == {refs[0][1]}  # one version for every file
    assert {"app/boot.js", "app/main.js", "app/app.css"} <= {r.split("/", 2)[2] for r, _ in refs}
    assert "telegram-web-apps.js" not in {r.rsplit("/", 1)[-1] for r, _ in refs}  # loaded later
    for ref, _ in refs:
        asset = await client.get("/app/" + ref)
        assert asset.status == 200, ref
        assert asset.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert asset.headers["Content-Encoding"] == "gzip" and asset.headers["ETag"]
        assert asset.headers["Vary"] == "Accept-Encoding"
    # A module's relative imports stay under the same version (and so are cached too).
    version = refs[0][1]
    imported = await client.get(f"/app/v/{version}/vendor/telegram-web-apps.js")
    assert imported.status == 200 and "immutable" in imported.headers["Cache-Control"]
    # A page of another deployment gets today's file, revalidated; unknown files are 404.
    old = await client.get("/app/v/000000000000/app/main.js")
    assert old.status == 200 and old.headers["Cache-Control"] == "no-cache"
    assert (await client.get(f"/app/v/{version}/app/nope.js")).status == 404
    assert (await client.get(f"/app/v/{version}/index.html")).headers["Cache-Control"] == (
        "no-cache"
    )


async def test_static_files_without_gzip_and_revalidated(aiohttp_client, make_app):
    client = await aiohttp_client(make_app())
    plain = await client.get("/app/app/main.js", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers
    assert plain.headers["Cache-Control"] == "no-cache"
    body = await plain.read()
    zipped = await client.get("/app/app/main.js", headers={"Accept-Encoding": "gzip, br"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert await zipped.read() == body  # the client undoes the gzip
    assert zipped.headers["ETag"] == plain.headers["ETag"]
    again = await client.get("/app/", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status == 200  # another file's ETag
    page = await client.get("/app/")
    same = await client.get("/app/", headers={"If-None-Match": page.headers["ETag"]})
    assert same.status == 304 and await same.read() == b""


def test_the_version_follows_the_files(tmp_path):
    (tmp_path / "app").mkdir()
    (tmp_path / "index.html").write_text(
        '<link rel="icon" href="data:,"><script src="app/a.js"></script>'
        '<link rel="stylesheet" href="app/a.css"><a href="https://x/app/y">'
    )
    (tmp_path / "app" / "a.js").write_text("1")
    (tmp_path / "app" / "a.css").write_text("b{}")
    first = load_assets(tmp_path)["index.html"].body.decode()
    version = re.search(r"v/([0-9a-f]{12})/app/a\.js", first)[1]  # type: ignore[index]
    assert f'href="v/{version}/app/a.css"' in first
    assert 'href="data:,"' in first and 'href="https://x/app/y"' in first
    (tmp_path / "app" / "a.js").write_text("2")
    second = load_assets(tmp_path)["index.html"].body.decode()
    assert version not in second and "v/" in second


async def test_vendored_files_keep_their_licenses(aiohttp_client, make_app):
    client = await aiohttp_client(make_app())
    licenses = await (await client.get("/app/vendor/LICENSES.txt")).text()
    assert "MIT License" in licenses and "Apache License" in licenses
    assert "Artur Stambultsian" in licenses and "Jason Miller" in licenses


async def test_without_a_token_the_api_is_not_configured(aiohttp_client):
    client = await aiohttp_client(
        create_app(Settings(bot_token=None), webapp_config=WebAppConfig())
    )
    response = await client.get("/api/me", headers={"Authorization": "tma x"})
    assert response.status == 503
    assert (await response.json())["error"]["code"] == "not_configured"
    assert (await client.get("/dev/open")).status == 404  # dev mode is off by default


def test_dev_mode_is_off_by_default(monkeypatch):
    monkeypatch.delenv("KOSTI_DEV_INIT_DATA", raising=False)
    assert WebAppConfig(_env_file=None).dev_init_data is False
    monkeypatch.setenv("KOSTI_DEV_INIT_DATA", "1")
    monkeypatch.setenv("INIT_DATA_MAX_AGE", "3600")
    config = WebAppConfig(_env_file=None)
    assert config.dev_init_data is True and config.init_data_max_age == 3600


async def test_dev_mode_signs_init_data_for_a_local_browser(aiohttp_client, db):
    app = create_app(Settings(bot_token=None), webapp_config=WebAppConfig(dev_init_data=True))
    client = await aiohttp_client(app)
    response = await client.get(
        "/dev/open?user=77&name=Тест&game=5&screen=roll", allow_redirects=False
    )
    assert response.status == 302
    fragment = parse_qs(urlsplit(response.headers["Location"]).fragment)
    raw = fragment["tgWebAppData"][0]
    data = validate_init_data(raw, DEV_BOT_TOKEN, max_age=60)
    assert data.user.id == 77 and data.user.first_name == "Тест"
    target = parse_token(link_secret(DEV_BOT_TOKEN), data.start_param or "")
    assert target is not None and (target.game_id, target.screen) == (5, "roll")
    me = await client.get("/api/me", headers={"Authorization": "tma " + raw})
    assert me.status == 200


def test_start_tokens():
    token = startapp_token(12, bot_token=TOKEN)
    assert re.fullmatch(r"g12-[a-z2-7]{12}", token)
    with_screen = startapp_token(12, "roll", bot_token=TOKEN)
    assert with_screen == token + "-roll" and len(with_screen) <= 64
    secret = link_secret(TOKEN)
    assert parse_token(secret, with_screen).screen == "roll"  # type: ignore[union-attr]
    assert parse_token(secret, token).game_token == token  # type: ignore[union-attr]
    # any word: the page opens the roller for a screen its system lacks (tests/webapp/test_links.py)
    assert parse_token(secret, token + "-unknown").screen == "unknown"  # type: ignore[union-attr]
    assert parse_token(secret, "g13-" + token.split("-")[1]) is None
    assert parse_token(secret, startapp_token(12, bot_token="1:other")) is None
    assert parse_token(secret, "g12") is None and parse_token(secret, "") is None
    with pytest.raises(ValueError):
        startapp_token(12, "no-sense", bot_token=TOKEN)


def test_direct_links():
    assert direct_link("@kosti_bot", "app", "g1-abcdefghijkl") == (
        "https://t.me/kosti_bot/app?startapp=g1-abcdefghijkl"
    )
    assert direct_link("kosti_bot", "app") == "https://t.me/kosti_bot/app"
    assert unquote(direct_link("b", "a", "g1-x")).endswith("startapp=g1-x")


def test_the_catalogs_cover_every_string():
    extracted = {m.id for m in extract_template() if m.id}
    for locale in LOCALES:
        with po_path(locale).open("rb") as fp:
            catalog = read_po(fp, locale=locale)
        ids = {m.id for m in catalog if m.id}
        assert extracted <= ids, (locale, sorted(extracted - ids))
        # fuzzy guesses of the merge are never served (webapp/i18n.py): they count as missing
        untranslated = [m.id for m in catalog if m.id and (not m.string or m.fuzzy)]
        assert untranslated == [], locale
    assert "Roll the dice" in extracted and "Number of dice" in extracted


async def test_a_systems_screens_in_subfolders_are_versioned_too(aiohttp_client, make_app):
    """The modules and stylesheets of a rule system live under app/systems/<code>/: served
    under the page's version (immutable), gzipped, with their types; their relative imports
    resolve inside the version."""
    client = await aiohttp_client(make_app())
    version = re.search(r'src="v/([0-9a-f]{12})/', await (await client.get("/app/")).text())[1]  # type: ignore[index]
    for path, kind in (
        ("app/systems/index.js", "text/javascript"),
        ("app/systems/savage/index.js", "text/javascript"),
        ("app/systems/savage/initiative.js", "text/javascript"),
        ("app/systems/savage/savage.css", "text/css"),
    ):
        asset = await client.get(f"/app/v/{version}/{path}")
        assert asset.status == 200, path
        assert asset.headers["Content-Type"].startswith(kind), path
        assert asset.headers["Cache-Control"] == "public, max-age=31536000, immutable", path
        assert asset.headers["Content-Encoding"] == "gzip", path
    screens = await (await client.get(f"/app/v/{version}/app/systems/savage/index.js")).text()
    targets = re.findall(r'import\("\./([^"]+)"\)', screens)  # the boards, the editor
    assert targets
    for target in targets:
        assert (await client.get(f"/app/v/{version}/app/systems/savage/{target}")).status == 200
