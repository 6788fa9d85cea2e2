"""Moves in a chase played through the fake Bot API (issue 4, seed 001): a direct /bump and
its one-card-per-attacker-per-turn limit (lines 34, 36), a group moving with its leader
(lines 8, 37), a drop-back that blocks the turn's Change Position (line 16), and
/chase undo with the row's «↩️ Отменить» (issue 4, «Persistence and undo»).

Set-up as in tests/bot/test_chase_complications.py: the stacked row
Q♠ Q♥ Q♦ Q♣ 🃏 K♠ K♥ K♦ K♣, the fight's deal stacked with `Table.shuffle` (the deal goes
in the order the combatants were added; Ichigo, Level Headed, draws two).
"""

from __future__ import annotations

from engine.savage.cards import full_deck
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.bot.systems.savage.test_chase_complications import (
    NOT_GM,
    ROW,
    TAIL_BUTTONS,
    cards_line,
    labels,
    row,
    row_edits,
    toasts,
)
from tests.bot.systems.savage.test_combat import GRIMMJOW, HOLLOW, ICHIGO, RUKIA, Table, text_of
from tests.engine.savage.helpers import stack_faces
from tests.support.telegram import TelegramDriver

LIMIT = "Вы уже сдвигали эту цель в этот ход."


async def set_up(table: Table, *, hollows: bool = False) -> int:
    """Ichigo (Boris) flees from card 5; Rukia (Vera) on card 3 and Grimmjow (the GM) on
    card 2 pursue; with `hollows`, the GM's two Hollows pursue from card 1 as one group
    led by Пустой 1. Returns the row message's id."""
    await table.say(ALICE, "/newgame дикий Пустые земли")
    await table.say(BORIS, "/join")
    await table.say(VERA, "/join")
    await table.say(BORIS, "/char " + ICHIGO)
    await table.say(VERA, "/char " + RUKIA)
    await table.say(ALICE, "/char " + HOLLOW)
    await table.say(ALICE, "/fight")
    for name in ("Ичиго", "Рукия", GRIMMJOW) + (("Пустой ×2",) if hollows else ()):
        await table.say(ALICE, "/add " + name)
    await table.say(ALICE, "/chase", stack_faces(full_deck(), ROW))
    row_id = row(table).result["message_id"]
    await table.say(ALICE, "/chase add Ичиго беглецы 5")
    await table.say(ALICE, "/chase add Рукия преследователи 3")
    await table.say(ALICE, "/chase add Гриммджо преследователи 2")
    if hollows:
        # Line 8: the leader (the first member) moves the whole group.
        added = text_of(await table.say(ALICE, "/chase add Пустой преследователи 1"))
        assert added == (
            "➕ Пустой 1 («преследователи») на карте 1.\n➕ Пустой 2 («преследователи») на карте 1."
        )
        assert cards_line(table, 1) == "<code> 1</code> Q♠ Пустой 1 (Пустой 2)"
    return row_id


# --- direct Bump ----------------------------------------------------------------------------


async def test_direct_bump_one_card_per_attacker_per_turn(tg: TelegramDriver) -> None:
    """Seed 001 line 34 (whoever causes a Bump moves the target one card either way) and
    line 36: «Один атакующий не может сдвинуть конкретную цель более чем на одну карту за
    ход …; другие атакующие могут сдвинуть её отдельно»."""
    table = Table(tg)
    row_id = await set_up(table)
    # Grimmjow K♥ acts first, then Rukia Q♥, then Ichigo 3♦.
    await table.say(ALICE, "/next", await table.shuffle("2S", "3D", "QH", "KH"))
    assert "<b>Гриммджо</b>▶️" in cards_line(table, 2)

    bumped = await table.say(ALICE, "/bump Ичиго назад")  # the GM: the acting Grimmjow
    assert text_of(bumped) == "💢 Гриммджо сдвигает Ичиго назад.\nИчиго — на карте 4."
    assert {c.params["message_id"] for c in row_edits(bumped)} == {row_id}
    assert cards_line(table, 4) == "<code> 4</code> Q♣ Ичиго"
    assert "Ичиго ↔ Гриммджо: 2" in row(table).text

    # A second Bump of the same target by the same attacker this turn: refused, in Russian.
    again = await table.say(ALICE, "/bump Гриммджо Ичиго вперёд")
    assert text_of(again) == LIMIT
    assert not row_edits(again)
    assert cards_line(table, 4) == "<code> 4</code> Q♣ Ичиго"
    # Only opponents are bumped; players bump only with their own characters.
    assert text_of(await table.say(ALICE, "/bump Гриммджо Рукия вперёд")) == (
        "Сдвинуть можно только противника."
    )
    assert text_of(await table.say(BORIS, "/bump Гриммджо Ичиго вперёд")) == (
        "Это не ваш персонаж: менять можно только своих персонажей."
    )

    # Another attacker (Rukia, in her turn) may bump the same target separately.
    await table.say(ALICE, "/next")
    other = await table.say(VERA, "/bump Ичиго назад")
    assert text_of(other) == "💢 Рукия сдвигает Ичиго назад.\nИчиго — на карте 3."
    assert {c.params["message_id"] for c in row_edits(other)} == {row_id}
    assert cards_line(table, 3) == "<code> 3</code> Q♦ Ичиго, <b>Рукия</b>▶️"
    assert text_of(await table.say(VERA, "/bump Ичиго назад")) == LIMIT


# --- a group moves with its leader ----------------------------------------------------------


async def test_a_group_moves_with_its_leader(tg: TelegramDriver) -> None:
    """Seed 001 line 8 (the leader moves the whole group) and line 37 («Группа
    перемещается вместе, когда сдвинут её водитель или лидер»): a Bump of a member moves
    the group and counts as bumping it (line 36); only the leader rolls the Complication
    (line 21) and changes position; the opposing side chooses the indirect Bump (line 35)."""
    table = Table(tg)
    row_id = await set_up(table, hollows=True)
    # Ichigo K♦ acts first, Rukia Q♥, the Hollows 4♣, Grimmjow 3♥.
    await table.say(ALICE, "/next", await table.shuffle("KD", "2S", "QH", "3H", "4C"))

    bumped = await table.say(BORIS, "/bump Пустой 2 вперёд")
    assert text_of(bumped) == "💢 Ичиго сдвигает Пустой 2 вперёд.\nПустой 1 — на карте 2."
    assert {c.params["message_id"] for c in row_edits(bumped)} == {row_id}
    assert cards_line(table, 1) == "<code> 1</code> Q♠ "
    assert cards_line(table, 2) == "<code> 2</code> Q♥ Гриммджо, Пустой 1 (Пустой 2)"
    assert text_of(await table.say(BORIS, "/bump Пустой 1 назад")) == LIMIT

    # The Hollows' turn on 4♣: only the leader rolls (unskilled d4−2, an Extra), on Hearts.
    await table.say(ALICE, "/next")
    told = await table.say(ALICE, "/next", [2])
    turn = "\n".join(c.text for c in told.sent(chat_id=GROUP.id))
    assert turn.splitlines()[-1:] == [  # no «ходит по карте» per member (item 1)
        # the Hollows are the GM's: their die in the GM's private copy only («Dice in the
        # group», docs/rules/savage.md)
        "♣ Пустой 1, осложнение на Q♥: −2 без навыка = <b>0</b> против 4 → "
        "<b>провал</b> — провал: Сдвиг",
    ]
    (copy,) = told.sent(chat_id=ALICE.id)
    assert copy.text.splitlines()[-1] == (
        "♣ Пустой 1, осложнение на Q♥: d4=2 −2 без навыка = <b>0</b> против 4 → "
        "<b>провал</b> — провал: Сдвиг"
    )
    assert cards_line(table, 2) == "<code> 2</code> Q♥ Гриммджо, <b>Пустой 1</b>▶️ (Пустой 2)"
    # Boris, on the opposing side, chooses: the group moves as one.
    chosen = await table.press(BORIS, row(table), "1 ➡️")
    assert text_of(chosen) == "↔️ Сдвиг на 1 карту вперёд.\nПустой 1 — на карте 3."
    assert cards_line(table, 3) == "<code> 3</code> Q♦ Рукия, <b>Пустой 1</b>▶️ (Пустой 2)"

    # A member does not move itself; the leader does, and takes the group along.
    assert text_of(await table.say(ALICE, "/move Пустой 2 вперёд")) == (
        "Пустой 2 движется вместе с лидером группы."
    )
    moved = text_of(await table.say(ALICE, "/move Пустой 1 вперёд", [4, 2]))
    assert moved.splitlines()[-1] == "Пустой 1 — на карте 4."
    assert cards_line(table, 4) == "<code> 4</code> Q♣ <b>Пустой 1</b>▶️ (Пустой 2)"
    assert "Ичиго ↔ Пустой 1: 1" in row(table).text


# --- dropping back --------------------------------------------------------------------------


async def test_drop_back_blocks_change_position_that_turn(tg: TelegramDriver) -> None:
    """Seed 001 line 16: «участник может добровольно отстать на одну или две карты без
    броска, но после этого не выполняет Смену позиции в тот же ход»."""
    table = Table(tg)
    row_id = await set_up(table)
    await table.say(ALICE, "/next", await table.shuffle("KD", "2S", "QH", "3H"))

    assert text_of(await table.say(BORIS, "/back 3")) == "От 1 до 2 карт."
    dropped = await table.say(BORIS, "/back 2")  # no dice: the rng is not touched
    assert text_of(dropped) == "🐢 Ичиго отстаёт на 2 карты.\nИчиго — на карте 3."
    assert {c.params["message_id"] for c in row_edits(dropped)} == {row_id}
    assert cards_line(table, 3) == "<code> 3</code> Q♦ <b>Ичиго</b>▶️, Рукия"

    blocked = "Ичиго отстаёт в этот ход и не может менять позицию."
    assert text_of(await table.say(BORIS, "/move вперёд")) == blocked
    assert text_of(await table.say(BORIS, "/move вперёд действием")) == blocked
    assert text_of(await table.say(BORIS, "/back")) == blocked
    assert cards_line(table, 3) == "<code> 3</code> Q♦ <b>Ичиго</b>▶️, Рукия"


# --- undo -----------------------------------------------------------------------------------


async def test_chase_undo_by_command_and_button(tg: TelegramDriver) -> None:
    """Issue 4 «Persistence and undo»: the GM takes back the last chase step with
    /chase undo or the row's «↩️ Отменить»; a player may not. Undoing the drop-back (line
    16) gives the turn its Change Position back."""
    table = Table(tg)
    row_id = await set_up(table)
    await table.say(ALICE, "/next", await table.shuffle("KD", "2S", "QH", "3H"))
    await table.say(BORIS, "/back 2")

    assert text_of(await table.say(BORIS, "/chase undo")) == NOT_GM
    undone = await table.say(ALICE, "/chase undo")
    assert text_of(undone) == "↩️ Последний шаг погони отменён."
    assert {c.params["message_id"] for c in row_edits(undone)} == {row_id}
    assert cards_line(table, 5) == "<code> 5</code> 🃏 <b>Ичиго</b>▶️"

    moved = text_of(await table.say(BORIS, "/move вперёд", [4, 3]))
    assert moved == (
        "🏃 Ичиго меняет позицию: d8=4 <s>Дикий d6=3</s> = <b>4</b> против 4 → <b>успех</b> "
        "— 1 карту вперёд\nИчиго — на карте 6."
    )
    assert cards_line(table, 6) == "<code> 6</code> K♠ <b>Ичиго</b>▶️"
    assert labels(row(table)) == TAIL_BUTTONS

    refused = await table.press(BORIS, row(table), "Отменить")
    assert toasts(refused) == [NOT_GM]
    assert not refused.sent() and not row_edits(refused)
    pressed = await table.press(ALICE, row(table), "Отменить")
    assert text_of(pressed) == "↩️ Последний шаг погони отменён."
    assert {c.params["message_id"] for c in row_edits(pressed)} == {row_id}
    assert cards_line(table, 5) == "<code> 5</code> 🃏 <b>Ичиго</b>▶️"
    assert cards_line(table, 6) == "<code> 6</code> K♠ "
