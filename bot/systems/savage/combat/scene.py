"""Shared plumbing of the combat and chase handlers: the game of this chat, refusals (a
handler's own `Refusal` is the shared one), who is meant, and running an encounter command
(service -> events text -> board)."""

from __future__ import annotations

from aiogram import Bot
from aiogram.dispatcher.event.telegram import TelegramEventObserver
from aiogram.types import Message

from bot.middlewares.flood import step_and_its_chat
from bot.middlewares.refusals import Refusal, Refusals
from bot.systems.call import Call as SceneCall
from bot.systems.filters import game_of
from bot.systems.savage.combat import names
from bot.systems.savage.combat.tell import Step, steps_of, tell_steps
from bot.systems.savage.render.rule_errors import (
    chase_error_text,
    combat_error_text,
    unknown_name,
    which_one,
    whose,
)
from engine import savage
from engine.dice.rng import Rng
from engine.savage.chase import ChaseError
from engine.services import GameInfo, NoGame, get_game
from engine.services.savage import (
    CHASE,
    ENCOUNTER,
    EncounterView,
    NoEncounter,
    current_encounter,
    encounter_command,
)
from engine.services.savage.encounters import EncounterOutcome
from engine.services.scenes import Caused

REFUSALS = Refusals(
    {
        savage.RuleError: lambda error: combat_error_text(error.code, error.params),
        ChaseError: lambda error: chase_error_text(error.code, error.params),
    }
)


def guard(router_observer: TelegramEventObserver) -> None:
    router_observer.middleware(REFUSALS)


# --- the game and the encounter ------------------------------------------------------------


async def game_here(message: Message) -> GameInfo:
    game = await game_of(message)
    if game is None:
        raise NoGame()
    return game


async def game_by_id(game_id: int) -> GameInfo:
    return await get_game(game_id)


async def encounter_of(game: GameInfo) -> EncounterView:
    view = await current_encounter(game.id)
    if view is None:
        raise NoEncounter(game_id=game.id)
    return view


def is_gm(game: GameInfo, user_id: int) -> bool:
    return game.gm_id == user_id


# --- who is meant ----------------------------------------------------------------------------


def default_ref(state: savage.Encounter, user_id: int, gm: bool) -> names.Ref | None:
    """Without a name: the acting combatant if it is the user's (or the user is the GM),
    else the player's only character."""
    acting = state.acting
    if acting is not None:
        owners = state.owners(acting.id)
        if gm or user_id in owners:
            mine = [m for m in acting.members if gm or m.owner == user_id]
            if len(mine) == 1 or len(acting.members) > 1:
                return names.Ref(acting, mine[0] if len(mine) == 1 else None)
    if not gm:
        own = names.owned_by(state, user_id)
        if len(own) == 1:
            return own[0]
    return None


def actor_ref(
    state: savage.Encounter, words: list[str], user_id: int, gm: bool
) -> tuple[names.Ref, list[str]]:
    """A leading name, or the default actor."""
    ref, rest = names.take(state, words)
    if ref is not None:
        return ref, rest
    fallback = default_ref(state, user_id, gm)
    if fallback is None:
        raise Refusal(unknown_name(words[0]) if words else whose())
    return fallback, words


def character_id(ref: names.Ref) -> str:
    found = ref.character_id
    if found is None:
        raise Refusal(which_one(ref.combatant.name))
    return found


def target_ref(state: savage.Encounter, words: list[str]) -> tuple[names.Ref, list[str]]:
    ref, rest = names.take(state, words)
    if ref is None:
        raise Refusal(unknown_name(words[0]) if words else whose())
    return ref, rest


# --- running a command -----------------------------------------------------------------------


async def perform(
    bot: Bot,
    game: GameInfo,
    user_id: int,
    command: savage.Command,
    rng: Rng,
    *,
    reply_to: Message | None = None,
    before: savage.Encounter | None = None,
    expected_seq: int | None = None,
    append_to: Message | None = None,
) -> EncounterOutcome:
    """Run one encounter command (with the chase steps it causes, in one transaction), tell
    the chat what happened, refresh the board and the chase row — the step and what it
    tells the chat in one transaction."""
    async with step_and_its_chat(bot):
        out = await encounter_command(
            game.id, command, actor_id=user_id, rng=rng, expected_seq=expected_seq
        )
        before = before or out.before
        await report(bot, game, out, before=before, reply_to=reply_to, append_to=append_to)
    return out


async def report(
    bot: Bot,
    game: GameInfo,
    out: EncounterOutcome,
    *,
    before: savage.Encounter | None = None,
    reply_to: Message | None = None,
    append_to: Message | None = None,
) -> None:
    """Tell the chat what a stored encounter step did and what it caused, in one message
    (the boards from the step's own states: nothing is read again); `append_to`: add it
    to that message of the bot's instead (a Soak under its attack's result)."""
    own = Step("encounter", out.events, out.state, out.view(game.id))
    steps = [own, *steps_of(game.id, out.followed)]
    await tell_steps(
        bot, game, steps, before=before, reply_to=reply_to, append_to=append_to,
        chase_open=CHASE.name in out.open_kinds,
    )  # fmt: skip


async def tell_followed(
    bot: Bot, game: GameInfo, followed: tuple[Caused, ...], fight: savage.Encounter | None = None
) -> None:
    """The steps another stream took because of this one (the chase following the fight,
    the fight taking a chase step's Fatigue), told in one message."""
    if followed:
        await tell_steps(bot, game, steps_of(game.id, followed), fight=fight, caused=True)


# --- a command in chat ------------------------------------------------------------------------


class Call(SceneCall[savage.Encounter]):
    """One combat command typed in chat: the game, the sender, the encounter, the words."""

    kind = ENCOUNTER.name

    def actor(self) -> tuple[names.Ref, list[str]]:
        return actor_ref(self.state, self.words, self.user_id, self.gm)

    async def run(self, bot: Bot, command: savage.Command, rng: Rng) -> EncounterOutcome:
        before = self.view.state if self.view is not None else None
        return await perform(
            bot, self.game, self.user_id, command, rng, reply_to=self.message, before=before
        )


async def call_of(
    message: Message, args: str | None, *, encounter: bool = True, read: bool = True
) -> Call:
    """The command's game and words, and the encounter as stored now — unless `read` is
    False: a command that needs no name resolved (`/next`) is decided on the state its own
    transaction reads, and the outcome tells the chat the state it was decided on."""
    game = await game_here(message)
    if not read:
        return Call(message, game, None, args)
    view = await encounter_of(game) if encounter else await current_encounter(game.id)
    return Call(message, game, view, args)
