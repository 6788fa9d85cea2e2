"""Attacks and defenses by tapping (issue 25, items 1 and 2).

The board's «⚔️ Attack» opens the picker for the presser's fighter who is up: a player's in
the group (the message then becomes the attack's one message), an NPC's in the GM's private
chat (its weapons are the GM's). Target, weapon, options, «Attack» — the same `Attack` the
typed /attack makes, so every refusal is the engine's. An attack on a player's character
asks that player for a defense on the attack's group message (decide.defense_choices)."""

from __future__ import annotations

import logging

from aiogram import Bot, html
from aiogram.exceptions import TelegramAPIError, TelegramBadRequest, TelegramForbiddenError
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message
from aiogram.utils.i18n import gettext as _
from aiogram.utils.i18n import ngettext

from bot import background
from bot.board_message import post_in_game
from bot.middlewares.flood import if_refused, step_and_its_chat
from bot.render.keyboards import callback_button, keyboard
from bot.systems.storyteller import names
from bot.systems.storyteller.board import tell
from bot.systems.storyteller.callbacks import AttackCallback, DefendCallback
from bot.systems.storyteller.defense import defense_choices
from engine.dice.rng import Rng
from engine.services import GameInfo, ServiceError, get_game
from engine.services.storyteller import FightView, NoFight, current_fight, fight_command
from engine.services.storyteller.fights import overdue_fights, pass_defense_time
from engine.storyteller import commands as cmd
from engine.storyteller.character import FIST
from engine.storyteller.combat import attack_pool
from engine.storyteller.errors import StorytellerError
from engine.storyteller.fight import Fight, Fighter
from engine.storyteller.maneuvers import FLANK, REAR, Situation
from engine.storyteller.options import AimTarget
from engine.storyteller.pools import Pool, multiple_actions

log = logging.getLogger(__name__)
FLANK_BIT, REAR_BIT, WILLPOWER_BIT = 1, 2, 4


class Refused(Exception):
    """A press the picker refuses, in the presser's words (an alert)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _weapons(f: Fighter) -> list[str]:
    return list(dict.fromkeys([w.name for w in f.character.weapons] + [FIST.name]))


def _targets(fight: Fight, attacker: Fighter) -> list[int]:
    return [
        i
        for i, f in enumerate(fight.fighters)
        if f.id != attacker.id and not f.dead and fight.can_fight(f.id)
    ]


def picker_text(fight: Fight, data: AttackCallback, numbers: bool = True) -> str:
    """The picker's question; at the options step with the pool they make (``numbers``
    False: an NPC's picker in the group, whose pools the table does not see)."""
    attacker = fight.fighters[data.a]
    name = html.bold(html.quote(attacker.character.name))
    if data.t < 0:
        return _("⚔️ {attacker} attacks. Whom?").format(attacker=name)
    target = html.bold(html.quote(fight.fighters[data.t].character.name))
    if data.w < 0:
        return _("⚔️ {attacker} → {target}. With what?").format(attacker=name, target=target)
    weapon = html.quote(_weapons(attacker)[data.w])
    text = _("⚔️ {attacker} → {target}, {weapon}. Anything else? Then «Attack».").format(
        attacker=name, target=target, weapon=weapon
    )
    if not numbers:
        return text
    pool = _pool(fight, data, _penalty(fight, attacker, data.n))
    return (
        text
        + "\n"
        + _("🎲 {dice} d., difficulty {difficulty}.").format(
            dice=pool.dice, difficulty=pool.difficulty
        )
    )


def _situation(fight: Fight, data: AttackCallback, penalty: int = 0) -> Situation:
    side = FLANK if data.o & FLANK_BIT else REAR if data.o & REAR_BIT else None
    aim = fight.options.aim_targets[data.m].code if data.m >= 0 else None
    willpower = bool(data.o & WILLPOWER_BIT)
    return Situation(side=side, aim=aim, willpower=willpower, actions_penalty=penalty)


def _pool(fight: Fight, data: AttackCallback, penalty: int) -> Pool:
    """The attack's pool as the engine will build it (combat.attack_pool)."""
    attacker = fight.fighters[data.a].character
    arm = attacker.weapon(_weapons(fight.fighters[data.a])[data.w])
    return attack_pool(attacker, arm, _situation(fight, data, penalty), fight.options)


def _penalty(fight: Fight, attacker: Fighter, declared: int) -> int:
    """The dice this attack loses to the multiple actions: those ``declared`` with it, else
    those the fighter declared with /actions (0 where the engine will refuse the count)."""
    count = declared or attacker.actions
    try:
        return multiple_actions(count, fight.options)[0 if declared else attacker.actions_used]
    except (StorytellerError, IndexError):
        return 0


def _splits(fight: Fight, attacker: Fighter) -> range:
    """The counts of actions the picker offers to declare with the attack: before the
    fighter's first action of the turn, up to the game's limit (`max_actions`)."""
    if attacker.actions_used:
        return range(0)
    return range(2, fight.options.max_actions + 1)


def split_label(fight: Fight, data: AttackCallback, count: int, numbers: bool) -> str:
    """«✌️ 2 actions: 4+3 d.»: each action's dice with this weapon (DESIGN.md: «the first
    pool loses N dice and each next one one die more»)."""
    if not numbers:
        return ngettext("✌️ {count} action", "✌️ {count} actions", count).format(count=count)
    base = _pool(fight, data, 0).dice
    dice = "+".join(str(max(0, base - p)) for p in multiple_actions(count, fight.options))
    return ngettext("✌️ {count} action: {split} d.", "✌️ {count} actions: {split} d.", count).format(
        count=count, split=dice
    )


def aim_label(target: AimTarget) -> str:
    """«Маленькая: difficulty +2, damage +1» — the game's aim table row (the seed's
    «Цель: Сложность // Повреждение»); the keyboard marks it 🎯, or ☑️ when chosen."""
    if target.damage:
        return _("{target}: difficulty +{difficulty}, damage +{damage}").format(
            target=target.name, difficulty=target.difficulty, damage=target.damage
        )
    return _("{target}: difficulty +{difficulty}").format(
        target=target.name, difficulty=target.difficulty
    )


def picker_keyboard(
    fight: Fight, data: AttackCallback, numbers: bool = True
) -> InlineKeyboardMarkup:
    def button(label: str, **changes: object) -> list[InlineKeyboardButton]:
        packed = data.model_copy(update=changes).pack()
        return [InlineKeyboardButton(text=label, callback_data=packed)]

    def mark(on: bool) -> str:
        return "☑️ " if on else "▫️ "

    attacker = fight.fighters[data.a]
    rows: list[list[InlineKeyboardButton]] = []
    if data.t < 0:
        rows = [button(fight.fighters[i].character.name, t=i) for i in _targets(fight, attacker)]
    elif data.w < 0:
        rows = [button("🗡 " + name, w=i) for i, name in enumerate(_weapons(attacker))]
    else:
        toggles = [(FLANK_BIT, _("from the flank")), (REAR_BIT, _("from the rear"))]
        if attacker.character.willpower_points > 0:
            toggles.append((WILLPOWER_BIT, _("Willpower point: +1 success")))
        for bit, label in toggles:
            rows.append(button(mark(bool(data.o & bit)) + label, o=data.o ^ bit))
        # «Прицеливаясь, сложность броска на меткий выстрел или удар увеличивается.
        # Прицелившись, ваш персонаж может обойти броню и другую защиту, а также нанести
        # дополнительный урон» — one row of the game's aim table, or none
        for i, target in enumerate(fight.options.aim_targets):
            aim = ("☑️ " if data.m == i else "🎯 ") + aim_label(target)
            rows.append(button(aim, m=-1 if data.m == i else i))
        for count in _splits(fight, attacker):
            label = split_label(fight, data, count, numbers)
            rows.append(button(mark(data.n == count) + label, n=0 if data.n == count else count))
        rows.append(button(_("⚔️ Attack"), go=True))
    rows.append(button(_("✖️ Cancel"), stop=True))
    return keyboard(rows)


def attack_of(fight: Fight, data: AttackCallback) -> cmd.Attack:
    """The very Attack a typed /attack makes (with `/actions N` before it for a split)."""
    attacker = fight.fighters[data.a]
    return cmd.Attack(
        attacker.id,
        fight.fighters[data.t].id,
        _weapons(attacker)[data.w],
        situation=_situation(fight, data),
        actions=data.n,
    )


def _offered(data: list[tuple[str, AttackCallback]], said: str) -> InlineKeyboardMarkup | None:
    """One button a line for each name ``said`` may have meant (bot/systems/storyteller/
    names.offered); None when there is none."""
    meant = set(names.offered(said, [label for label, _data in data]))
    rows = [
        [callback_button(label, packed)]
        for label, packed in data
        if label in meant and len(packed.pack().encode()) <= 64
    ]
    return keyboard(rows) if rows else None


def meant_targets(
    game_id: int, fight: Fight, attacker: Fighter, said: str
) -> InlineKeyboardMarkup | None:
    """Under a typed /attack's unknown target: the fighters it may have meant, each the
    picker with attacker and target chosen (a tap edits the refusal into it)."""
    a = fight.fighters.index(attacker)
    return _offered(
        [
            (fight.fighters[i].character.name, AttackCallback(game_id=game_id, a=a, t=i))
            for i in _targets(fight, attacker)
        ],
        said,
    )


def meant_weapons(
    game_id: int, fight: Fight, attacker: Fighter, target: Fighter, said: str
) -> InlineKeyboardMarkup | None:
    """Under a typed /attack's unknown weapon: the attacker's weapons it may have meant, each
    the picker ready to attack with it."""
    a, t = fight.fighters.index(attacker), fight.fighters.index(target)
    return _offered(
        [
            (name, AttackCallback(game_id=game_id, a=a, t=t, w=w))
            for w, name in enumerate(_weapons(attacker))
        ],
        said,
    )


async def open_picker(bot: Bot, game: GameInfo, view: FightView, fighter: Fighter) -> None:
    """The picker for ``fighter``: in the group for a player's, to the GM for an NPC's (in
    the group when the GM has no private chat with the bot)."""
    fight = view.state
    data = AttackCallback(game_id=game.id, a=fight.fighters.index(fighter))

    async def in_group() -> None:
        numbers = not fighter.npc
        text, markup = picker_text(fight, data, numbers), picker_keyboard(fight, data, numbers)
        await post_in_game(bot, game, text, markup=markup)

    async def not_sent(error: TelegramAPIError) -> None:  # now, or once the queue learns it
        if not isinstance(error, TelegramForbiddenError | TelegramBadRequest):
            raise error
        await in_group()

    if fighter.npc and game.gm_id is not None:
        async with if_refused(not_sent):  # the press does not wait for the GM's chat
            markup = picker_keyboard(fight, data)
            await bot.send_message(game.gm_id, picker_text(fight, data), reply_markup=markup)
        return
    await in_group()


async def on_picker_button(
    query: CallbackQuery, callback_data: AttackCallback, bot: Bot, rng: Rng
) -> None:
    game = await get_game(callback_data.game_id)
    view = await current_fight(game.id)
    if view is None:
        raise NoFight(game_id=game.id)
    fight, user = view.state, query.from_user.id
    data = callback_data
    changed = not 0 <= data.a < len(fight.fighters) or data.t >= len(fight.fighters)
    changed = changed or data.m >= len(fight.options.aim_targets)
    if changed or data.w >= len(_weapons(fight.fighters[data.a])):
        raise Refused(_("This fight has changed: open the attack again from the board."))
    attacker = fight.fighters[data.a]
    if game.gm_id != user and attacker.owner != user:
        raise StorytellerError("not_your_character", {"id": attacker.id})
    message = query.message if isinstance(query.message, Message) else None
    in_group = message is not None and message.chat.id == game.chat_id
    numbers = not (attacker.npc and in_group)  # an NPC's pools stay the GM's
    if data.stop:
        if message is not None:
            await message.delete()
        await query.answer()
        return
    if not data.go:
        if message is not None:
            markup = picker_keyboard(fight, data, numbers)
            await message.edit_text(picker_text(fight, data, numbers), reply_markup=markup)
        await query.answer()
        return
    async with step_and_its_chat(bot):  # the attack and what it tells the chat, one transaction
        out = await fight_command(game.id, attack_of(fight, data), actor_id=user, rng=rng)
        notice = message.message_id if in_group and message is not None else None
        if message is not None and not in_group:
            await message.edit_text(picker_text(fight, data) + "\n" + _("✔️ Sent."))
        await tell(bot, game, out.events, out.view(game.id), before=out.before, notice=notice)
    await query.answer()


# --- the defender's choice -----------------------------------------------------------------


async def on_defend_button(
    query: CallbackQuery, callback_data: DefendCallback, bot: Bot, rng: Rng
) -> None:
    game = await get_game(callback_data.game_id)
    view = await current_fight(game.id)
    p = view.state.proposal if view is not None else None
    if view is None or p is None or not p.asking or view.seq != callback_data.seq:
        raise Refused(_("This attack no longer waits for a defense."))
    choices = defense_choices(view.state)
    if not 0 <= callback_data.i < len(choices):
        raise Refused(_("This attack no longer waits for a defense."))
    command = choices[callback_data.i].command()
    async with step_and_its_chat(bot):  # the defense and what it tells the chat, one transaction
        out = await fight_command(
            game.id, command, actor_id=query.from_user.id, rng=rng, expected_seq=callback_data.seq
        )
        await tell(bot, game, out.events, out.view(game.id), before=out.before)
    await query.answer()


# --- the time to choose runs out ----------------------------------------------------------

EVERY = 5.0  # seconds between two looks at the pending defenses


async def pass_overdue(bot: Bot, now: float | None = None) -> int:
    """Make the default defense of every attack whose defender's time ran out (each once:
    a pass made meanwhile is refused by its seq and skipped); how many were made here."""
    passed = 0
    for game_id in await overdue_fights(now):
        game = await get_game(game_id)
        try:
            async with step_and_its_chat(bot):  # the pass and what it tells, one transaction
                out = await pass_defense_time(game_id, now=now)
                if out is not None:
                    await tell(bot, game, out.events, out.view(game.id), before=out.before)
        except (StorytellerError, ServiceError):
            continue
        passed += out is not None
    return passed


async def defenses_forever(bot: Bot, every: float = EVERY) -> None:
    await background.every(every, lambda: pass_overdue(bot), "the Storyteller defenses' time")
