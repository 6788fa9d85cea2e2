"""The game's readings of the duel seed in the Mini App (the «Правила» tab), as the chat's
`/duel правила` sets them (engine/services/duel/rules.py): ``GET .../duel/rules`` for everyone
in the game, spectators included — each reading with its seed sentence, its choices and the
game's current one, and the readings each running duel keeps; ``POST`` ``{"name", "value"}``
is the GM's alone (403 ``forbidden`` for anyone else). New duels take the game's readings; a
running duel keeps those it started with."""

from __future__ import annotations

from typing import Annotated, Any

from aiohttp import web

from engine.duel import DuelOptions
from engine.duel.options import NEW_GAME_OPTIONS, SEED_SENTENCES
from engine.services import ServiceError
from engine.services.duel import NAMES, choices, game_rules, open_duels, set_rule, thread_of
from engine.services.notify import origin
from webapp.bodies import Body, one_of, parse_body, read_json
from webapp.errors import ApiError, refusal
from webapp.projection import GM, Viewer
from webapp.roles import GM_ONLY, READ, require_active
from webapp.systems.registry import Route


class RuleBody(Body):
    """One reading and its new value (one of its choices: a code, a yes/no, a number or
    null for «no cap»)."""

    name: Annotated[str, one_of(NAMES)]
    value: str | bool | int | None


def readings_json(rules: DuelOptions) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "value": getattr(rules, name),
            "default": getattr(NEW_GAME_OPTIONS, name),  # what a new game starts with
            "choices": list(choices(name)),
            "seed": SEED_SENTENCES[name],
        }
        for name in NAMES
    ]


async def _answer(viewer: Viewer, rules: DuelOptions) -> web.Response:
    running = [
        {
            "thread": thread_of(view.stream),
            "names": [f.fighter.name for f in view.state.fighters],
            "rules": {name: getattr(view.state.options, name) for name in NAMES},
        }
        for view in await open_duels(viewer.game.id)
        if not view.state.over
    ]
    return web.json_response(
        {
            "ok": True,
            "readings": readings_json(rules),
            "running": running,
            "can_change": viewer.role == GM and viewer.game.active,
        }
    )


async def get_rules(request: web.Request, viewer: Viewer) -> web.Response:
    return await _answer(viewer, game_rules(viewer.game))


async def post_rule(request: web.Request, viewer: Viewer) -> web.Response:
    body = parse_body(RuleBody, await read_json(request))
    require_active(viewer)
    try:
        with origin("webapp"):
            rules = await set_rule(viewer.game.id, body.name, body.value, actor_id=viewer.user_id)
    except ValueError:  # not one of the reading's values
        raise ApiError("bad_request", field="value") from None
    except ServiceError as exc:
        raise refusal(exc, viewer.locale) from None
    return await _answer(viewer, rules)


RULE_ROUTES = (
    Route("GET", "duel/rules", get_rules, READ),
    Route("POST", "duel/rules", post_rule, GM_ONLY),
)
