"""GET /api/me: the Telegram user, their locale and their active games (with tokens)."""

from __future__ import annotations

from aiohttp import web

from engine.services import games_of_user, get_language, touch_user
from webapp.i18n import pick_locale
from webapp.keys import LINK_SECRET
from webapp.links import game_token
from webapp.projection import role_of
from webapp.roles import init_data


async def get_me(request: web.Request) -> web.Response:
    user = init_data(request).user
    await touch_user(user.id, user.display_name, user.username)
    locale = pick_locale(await get_language(user.id), user.language_code)
    secret = request.app[LINK_SECRET]
    games = [
        {
            "token": game_token(secret, game.id),
            "name": game.name,
            "system": game.system,
            "chat_title": game.chat_title,
            "role": role_of(game, user.id),
        }
        for game in await games_of_user(user.id)
    ]
    return web.json_response(
        {
            "ok": True,
            "user": {"id": user.id, "name": user.display_name, "username": user.username},
            "locale": locale,
            "start_param": init_data(request).start_param,
            "games": games,
        }
    )
