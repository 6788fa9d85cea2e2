"""``start_param`` tokens that open the Mini App on a game (and optionally a screen).

A token is ``g<game_id>-<mac>[-<screen>]``, e.g. ``g12-k3j5p2q7m4xa-roll``: the MAC (60 bits,
base32) is an HMAC of the game id under a key derived from the bot token, so game ids cannot
be enumerated by strangers; the screen is a hint and is not signed. Telegram allows
``[A-Za-z0-9_-]{1,64}`` in ``startapp``.

Knowing a game's token is what grants spectator (read-only) access: the token travels in the
group chat's link, and initData from a group cannot prove membership of that group.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from urllib.parse import quote

# A screen is a word: the page opens it when the game's rule system has it, else the roller
# (webapp/static/app/main.js), so the links need not know the systems' screens.
SCREEN = re.compile(r"[a-z]{1,16}")
_TOKEN = re.compile(r"g([1-9][0-9]{0,11})-([a-z2-7]{12})(?:-([a-z]{1,16}))?")


@dataclass(frozen=True, slots=True)
class StartTarget:
    game_id: int
    screen: str | None
    game_token: str  # the token without the screen: used in API paths


@cache  # one bot token per process: every board's button would derive it again
def link_secret(bot_token: str) -> bytes:
    return hmac.new(b"kosti-startapp", bot_token.encode(), hashlib.sha256).digest()


@lru_cache(maxsize=4096)  # the games of the boards being shown
def _mac(secret: bytes, game_id: int) -> str:
    digest = hmac.new(secret, f"game:{game_id}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode()[:12].lower()


def game_token(secret: bytes, game_id: int, screen: str | None = None) -> str:
    if game_id <= 0:
        raise ValueError("game_id must be positive")
    if screen is not None and not SCREEN.fullmatch(screen):
        raise ValueError(f"a screen is a word of 1 to 16 letters a-z, not {screen!r}")
    token = f"g{game_id}-{_mac(secret, game_id)}"
    return f"{token}-{screen}" if screen else token


def startapp_token(game_id: int, screen: str | None = None, *, bot_token: str) -> str:
    """The ``startapp`` value for a game: ``startapp_token(12, "roll", bot_token=...)``."""
    return game_token(link_secret(bot_token), game_id, screen)


def parse_token(secret: bytes, token: str) -> StartTarget | None:
    """The game (and screen) of a token, or None if it is malformed or not ours."""
    match = _TOKEN.fullmatch(token or "")
    if match is None:
        return None
    game_id = int(match.group(1))
    if not hmac.compare_digest(_mac(secret, game_id), match.group(2)):
        return None
    screen = match.group(3)
    return StartTarget(game_id=game_id, screen=screen, game_token=f"g{game_id}-{match.group(2)}")


def direct_link(bot_username: str, app_short_name: str, token: str | None = None) -> str:
    """``https://t.me/<bot>/<app>?startapp=<token>``: the Mini App's direct link (works in
    groups, where inline web_app buttons do not)."""
    base = f"https://t.me/{bot_username.lstrip('@')}/{app_short_name}"
    return f"{base}?startapp={quote(token, safe='')}" if token else base
