"""The acting character's turn as buttons: the menu (attack, trait roll, Support, Test,
Defend, Hold, end of turn; «Снять Шок» first for a Shaken Wild Card) and its steps (a
target, the weapon, a trait). A group of Extras first picks the member who acts."""

from __future__ import annotations

from collections.abc import Iterable

from aiogram.types import InlineKeyboardButton
from aiogram.utils.i18n import gettext as _

from bot.render.keyboards import board_down_button, callback_button
from bot.systems.savage.callbacks import BoardDownCallback, TurnCallback
from bot.systems.savage.render.combat_labels import trait_label
from engine.savage import Character, Combatant, Encounter
from engine.savage.actions import default_damage
from engine.savage.chase import ChaseState
from engine.savage.traits import ATTRIBUTES

ATTACK_SKILLS = ("fighting", "shooting", "throwing")
Row = list[InlineKeyboardButton]


class Menu:
    """Builds the buttons of one character's turn (``index`` in `Encounter.characters`)."""

    def __init__(
        self,
        state: Encounter,
        game_id: int,
        index: int,
        *,
        board: bool,
        chase: ChaseState | None = None,
    ) -> None:
        self.state, self.game_id, self.index, self.board = state, game_id, index, board
        self.character = state.characters[index]
        self.chase = chase

    def button(
        self, text: str, step: str, target: int = -1, option: int = -1
    ) -> InlineKeyboardButton:
        data = TurnCallback(
            g=self.game_id,
            r=self.state.round,
            c=self.index,
            k=step,
            t=target,
            w=option,
            b=self.board,
        )
        return callback_button(text, data)

    def back(self) -> Row:
        return [self.button(_("← Back"), "m")]

    def main(self) -> list[Row]:
        me = self.character
        rows: list[Row] = []
        if me.status.shaken and me.wild and me.bennies > 0:  # Shaken first (line 69)
            rows.append([self.button(_("💫 Remove Shaken (benny)"), "u")])
        if self.chase is not None and in_chase(self.chase, me.id):  # seed 001 lines 14, 45
            rows.append(
                [
                    self.button(_("🏃 Forward"), "cf"),
                    self.button(_("🏃 Back"), "cb"),
                    self.button(_("💨 Flee"), "cl"),
                ]
            )
        rows.append([self.button(_("⚔️ Attack"), "a"), self.button(_("🎲 Trait roll"), "t")])
        rows.append([self.button(_("🤝 Support"), "s"), self.button(_("🎭 Test"), "x")])
        rows.append([self.button(_("🛡 Defend"), "d"), self.button(_("⏸ Hold"), "h")])
        rows.append([self.button(_("⏭ End turn"), "n"), *self.board_down()])
        return rows

    def board_down(self) -> Row:
        """On the turn's message (not on the board itself): «⬇️ Доска вниз», as /board."""
        return [] if self.board else [board_down_button(BoardDownCallback(g=self.game_id))]

    def targets(self, step: str, *, allies: bool) -> list[Row]:
        """Others in the fight: foes first for an attack or a Test, allies for Support."""
        mine = self.character.owner is None
        found = [
            (i, c)
            for i, c in enumerate(self.state.characters)
            if i != self.index and not c.status.out and in_fight(self.state, c)
        ]
        friends = [(i, c) for i, c in found if (c.owner is None) == mine]
        foes = [(i, c) for i, c in found if (c.owner is None) != mine]
        ordered = friends + foes if allies else foes + friends
        buttons = [self.button(c.name[:24], step, target=i) for i, c in ordered]
        return [*pairs(buttons), self.back()]

    def weapons(self, target: int) -> list[Row]:
        """The attack skills the character has (each with its default damage); Fighting
        unskilled when it has none."""
        skills = attack_skills(self.character)
        buttons = [
            self.button(f"{trait_label(s)}: {damage_label(s)}", "A", target=target, option=i)
            for i, s in enumerate(skills)
        ]
        return [*pairs(buttons), self.back()]

    def traits(self, step: str, target: int = -1) -> list[Row]:
        buttons = [
            self.button(trait_label(code), step, target=target, option=i)
            for i, code in enumerate(traits_of(self.character))
        ]
        return [*threes(buttons), self.back()]


def in_chase(chase: ChaseState, character_id: str) -> bool:
    p = chase.find(character_id)
    return p is not None and p.active and p.leader is None and chase.ended is None


def in_fight(state: Encounter, character: Character) -> bool:
    return state.combatant_of(character.id).in_fight


def attack_skills(character: Character) -> list[str]:
    own = [s for s, _die in character.skills if s in ATTACK_SKILLS]
    return own or ["fighting"]


def traits_of(character: Character) -> list[str]:
    """The sheet's skills, then the attributes: the options of a trait roll."""
    return [s for s, _die in character.skills] + list(ATTRIBUTES)


def damage_label(skill: str) -> str:
    return default_damage(skill).replace("str", _("Str"))


def member_rows(
    state: Encounter,
    game_id: int,
    combatant: Combatant,
    *,
    board: bool,
    chase: ChaseState | None = None,
) -> list[Row]:
    """A group's turn: one button per member still in the fight, then the end of turn."""
    buttons = []
    for member in combatant.active_members:
        index = state.characters.index(member)
        buttons.append(Menu(state, game_id, index, board=board).button(member.name[:24], "g"))
    lead = Menu(state, game_id, state.characters.index(combatant.members[0]), board=board)
    rows = threes(buttons)
    if chase is not None and in_chase(chase, combatant.members[0].id):  # the group moves
        lead.chase = chase
        rows += [r for r in lead.main() if r and r[0].text == _("🏃 Forward")]
    return [*rows, [lead.button(_("⏭ End turn"), "n"), *lead.board_down()]]


def turn_rows(
    state: Encounter, game_id: int, *, board: bool, chase: ChaseState | None = None
) -> list[Row]:
    """The menu of the acting combatant (its members' buttons for a group); none between
    turns or for a combatant who is out."""
    acting = state.acting
    if acting is None or not acting.active_members:
        return []
    if len(acting.members) > 1:
        return member_rows(state, game_id, acting, board=board, chase=chase)
    index = state.characters.index(acting.members[0])
    return Menu(state, game_id, index, board=board, chase=chase).main()


def pairs(buttons: Iterable[InlineKeyboardButton]) -> list[Row]:
    return chunks(list(buttons), 2)


def threes(buttons: Iterable[InlineKeyboardButton]) -> list[Row]:
    return chunks(list(buttons), 3)


def chunks(buttons: list[InlineKeyboardButton], size: int) -> list[Row]:
    return [buttons[i : i + size] for i in range(0, len(buttons), size)]
