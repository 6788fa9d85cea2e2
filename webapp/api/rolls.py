"""POST /api/games/{token}/roll (GM and players) and POST .../rolls/{id}/reveal (GM only).

A roll is stored through engine.services (`log_roll`, or `create_hidden_roll` with its
receipt) — the service's change notification pushes it live to every open board (each
viewer gets their projection; webapp/bridge.py), as it does for a roll made in the chat —
and handed to the ON_ROLL hook, which posts it to the game's chat: both in the app's
CHAT_STEP, so the roll and what it tells the chat are stored together (the bot journals its
chat calls in the roll's transaction) and the page does not wait for Telegram."""

from __future__ import annotations

import logging
from typing import Annotated

from aiohttp import web
from pydantic import AfterValidator, AliasChoices, Field

from engine.dice import DiceError
from engine.dice.commands import BY_CODE, BY_NAME
from engine.services import create_hidden_roll, get_roll, log_roll, reveal_roll, touch_user
from engine.services.types import RollRecord
from webapp.bodies import Body, parse_body, read_json
from webapp.errors import ApiError
from webapp.feed import roll_views
from webapp.i18n import N_, describe_text, gettext
from webapp.keys import CHAT_STEP, ON_REVEAL, ON_ROLL, RNG, RollHook
from webapp.projection import Viewer
from webapp.roles import GM_ONLY, WRITE, init_data, require_active, require_role

log = logging.getLogger(__name__)
MAX_ARGS = 500


def _roller(name: str) -> str:
    """An API name, or its alias: the roll-log code (engine/dice/commands.py)."""
    if name not in BY_NAME and name in BY_CODE:
        name = BY_CODE[name].name
    if name not in BY_NAME:
        raise ValueError(f"not one of {sorted(BY_NAME)}")
    return name


class RollBody(Body):
    """``command`` (or the older ``system``): a roller or its alias; ``args`` the notation
    (at most MAX_ARGS characters: 413 ``payload_too_large``)."""

    command: Annotated[str, AfterValidator(_roller)] = Field(
        validation_alias=AliasChoices("command", "system")
    )
    args: str = ""
    hidden: bool = False


def dice_message(error: DiceError, locale: str) -> str:
    """The notation error's sentence (the chat's too: the shared catalog) and its fragment."""
    sentence = describe_text(locale, error.description)
    if not error.fragment:
        return sentence
    return gettext(locale, N_("{sentence} (in {fragment})")).format(
        sentence=sentence, fragment=f"«{error.fragment}»"
    )


async def tell_chat(app: web.Application, hook: RollHook | None, record: RollRecord) -> None:
    """Inside the step's CHAT_STEP: what the chat is told of it (nothing without a bot)."""
    if hook is not None:
        await hook(record)


@require_role(*WRITE)
async def post_roll(request: web.Request, viewer: Viewer) -> web.Response:
    body = parse_body(RollBody, await read_json(request))
    if len(body.args) > MAX_ARGS:
        raise ApiError("payload_too_large")
    require_active(viewer)
    command = BY_NAME[body.command]
    args = body.args.strip()
    try:
        result = command.roll(args, request.app[RNG])
    except DiceError as exc:
        raise ApiError(
            "bad_dice",
            dice_message(exc, viewer.locale),
            description=exc.description.to_dict(),
            dice_code=exc.code,
            position=exc.position,
            fragment=exc.fragment,
        ) from None
    user = init_data(request).user
    await touch_user(user.id, user.display_name, user.username)
    game = viewer.game
    store = create_hidden_roll if body.hidden else log_roll
    async with request.app[CHAT_STEP]():
        record = await store(
            user_id=user.id,
            game_id=game.id,
            chat_id=game.chat_id,
            topic_id=game.topic_id,
            command=command.code,
            args=args,
            result=result.to_dict(),
        )
        await tell_chat(request.app, request.app.get(ON_ROLL), record)
    (view,) = await roll_views([record], viewer)
    return web.json_response({"ok": True, "roll": view})


@require_role(*GM_ONLY)
async def post_reveal(request: web.Request, viewer: Viewer) -> web.Response:
    try:
        roll_id = int(request.match_info["roll_id"])
    except ValueError:
        raise ApiError("not_found") from None
    record = await get_roll(roll_id)
    if record.game_id != viewer.game.id:
        raise ApiError("not_found")
    async with request.app[CHAT_STEP]():
        record = await reveal_roll(roll_id, actor_id=viewer.user_id)
        await tell_chat(request.app, request.app.get(ON_REVEAL), record)
    (view,) = await roll_views([record], viewer)
    return web.json_response({"ok": True, "roll": view})
