"""Complications of a chase played through the fake Bot API (issue 4, seed 001 lines
19-30): a Clubs action card dealt by /next rolls the free maneuvering roll at once; the
suit of the participant's chase card sets the modifier and the failure; the row message
(edited in place) offers the indirect Bump (the opposing side or the GM chooses, line 35)
and the critical-failure outcomes (the GM chooses, line 30) as buttons.

The chase row is stacked with scripted faces (`stack_faces` runs Fisher-Yates backwards
over the 54-card chase deck), the fight's deal with `Table.shuffle`, and the maneuvering
dice follow the deal's faces: Ichigo's Athletics d8, then his Wild Die d6.
"""

from __future__ import annotations

import pytest

from engine.savage.cards import full_deck
from tests.bot.conftest import ALICE, BORIS, VERA
from tests.bot.systems.savage.test_combat import (
    GRIMMJOW,
    ICHIGO,
    RUKIA,
    Table,
    board_edits,
    text_of,
)
from tests.engine.savage.helpers import stack_faces
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import Feed, TelegramDriver

ROW_TITLE = "🏃 <b>"
# The chase row, card 1 to card 9: every suit of the Complication table (lines 24-28).
ROW = ("QS", "QH", "QD", "QC", "JokerR", "KS", "KH", "KD", "KC")
ROW_LINES = ("Q♠", "Q♥", "Q♦", "Q♣", "🃏", "K♠", "K♥", "K♦", "K♣")
NOT_GM = "Это может только ведущий игры."
OPPOSING_ONLY = "Это направление выбирает только противная сторона."
CRIT_BUTTONS = ["теряет остаток хода", "получает Усталость", "описывает ведущий"]
TAIL_BUTTONS = ["↩️ Отменить", "📱 Открыть Mini App"]


def row(table: Table) -> ApiCall:
    """The latest version of the chase row (sent or edited)."""
    calls = [
        c
        for c in table.api.calls
        if c.method in ("sendMessage", "editMessageText")
        and c.text.startswith(ROW_TITLE)
        and c.result is not None
    ]
    return calls[-1]


def row_edits(feed: Feed) -> list[ApiCall]:
    return [c for c in feed.calls if c.method == "editMessageText" and c.text.startswith(ROW_TITLE)]


def labels(call: ApiCall) -> list[str]:
    return [b["text"] for b in call.buttons()]


def toasts(feed: Feed) -> list[str]:
    return [c.params.get("text", "") for c in feed.calls if c.method == "answerCallbackQuery"]


def cards_line(table: Table, card: int) -> str:
    """The row's line of card `card` (counted from 1): the card and who stands on it."""
    lines = [line for line in row(table).text.splitlines() if line.startswith("<code>")]
    return lines[card - 1]


async def set_up_chase(table: Table, ichigo_at: int, *, rukia_at: int = 7) -> int:
    """Alice is the GM with Grimmjow; Boris plays Ichigo (the fugitive), Vera plays Rukia
    (a pursuer). The stacked row is ROW. Returns the row message's id."""
    await table.say(ALICE, "/newgame дикий Пустые земли")
    await table.say(BORIS, "/join")
    await table.say(VERA, "/join")
    await table.say(BORIS, "/char " + ICHIGO)
    await table.say(VERA, "/char " + RUKIA)
    await table.say(ALICE, "/fight")
    for name in ("Ичиго", "Рукия", GRIMMJOW):
        await table.say(ALICE, "/add " + name)
    # Line 7: a separate chase deck, nine cards in a row (stacked here).
    await table.say(ALICE, "/chase", stack_faces(full_deck(), ROW))
    row_id = row(table).result["message_id"]
    assert [cards_line(table, n).split()[2] for n in range(1, 10)] == list(ROW_LINES)
    await table.say(ALICE, f"/chase add Ичиго беглецы {ichigo_at}")
    await table.say(ALICE, f"/chase add Рукия преследователи {rukia_at}")
    await table.say(ALICE, "/chase add Гриммджо преследователи 9")
    return row_id


async def deal_clubs_to_ichigo(table: Table, dice: list[int]) -> Feed:
    """/next deals round 1: Ichigo (Level Headed) keeps K♣ and acts first, Rukia Q♥,
    Grimmjow 3♥; the Clubs card rolls Ichigo's Complication with `dice`."""
    faces = await table.shuffle("KC", "2S", "QH", "3H")
    return await table.say(ALICE, "/next", faces + dice)


# --- every suit of the table ---------------------------------------------------------------

SUITS = [
    # (seed line, Ichigo's chase card, dice d8 + Wild d6, the roll, the result, the buttons)
    pytest.param(
        24,
        1,
        [2, 1],
        "d8=2 <s>Дикий d6=1</s> = <b>2</b> против 4 → <b>провал</b>",
        "критический провал",
        CRIT_BUTTONS,
        "⏳ Ичиго: критический провал — последствие выбирает ведущий.",
        id="spades-critical-failure",
    ),
    pytest.param(
        25,
        2,
        [3, 2],
        "d8=3 <s>Дикий d6=2</s> = <b>3</b> против 4 → <b>провал</b>",
        "провал: Сдвиг",
        ["⬅️ 1", "1 ➡️"],
        "⏳ Ичиго: Сдвиг на карты (до 1), направление выбирает противная сторона.",
        id="hearts-bump",
    ),
    pytest.param(
        26,
        3,
        [5, 3],
        "d8=5 <s>Дикий d6=3</s> −2 Осложнение = <b>3</b> против 4 → <b>провал</b>",
        "провал: Сдвиг",
        ["⬅️ 1", "1 ➡️"],
        "⏳ Ичиго: Сдвиг на карты (до 1), направление выбирает противная сторона.",
        id="diamonds-minus-two-bump",
    ),
    pytest.param(
        27,
        4,
        [5, 3],
        "d8=5 <s>Дикий d6=3</s> −2 Осложнение = <b>3</b> против 4 → <b>провал</b>",
        "критический провал",
        CRIT_BUTTONS,
        "⏳ Ичиго: критический провал — последствие выбирает ведущий.",
        id="clubs-minus-two-critical-failure",
    ),
]


@pytest.mark.parametrize(("line", "card", "dice", "roll", "result", "buttons", "waits"), SUITS)
async def test_a_failed_complication_by_the_suit_of_the_chase_card(
    tg: TelegramDriver,
    line: int,
    card: int,
    dice: list[int],
    roll: str,
    result: str,
    buttons: list[str],
    waits: str,
) -> None:
    """Seed 001 line 21 (a Clubs action card: an immediate free maneuvering roll) and the
    row of lines 24-27 for the suit of the participant's current chase card."""
    table = Table(tg)
    row_id = await set_up_chase(table, ichigo_at=card)
    dealt = await deal_clubs_to_ichigo(table, dice)
    text = text_of(dealt)
    assert "ходит по карте" not in text  # the row shows whose chase turn it is (item 1)
    complication = f"♣ Ичиго, осложнение на {ROW_LINES[card - 1]}: {roll} — {result}"
    assert complication in text.splitlines(), (line, text)
    # The row is edited in place; the choice that waits is shown and offered as buttons.
    assert {c.params["message_id"] for c in row_edits(dealt)} == {row_id}
    assert row(table).text.endswith("\n" + waits)
    assert labels(row(table)) == buttons + TAIL_BUTTONS


async def test_a_passed_complication_changes_nothing(tg: TelegramDriver) -> None:
    """Seed 001 line 26: Diamonds −2; a success has no consequence (lines 21-28 name only
    the failure)."""
    table = Table(tg)
    await set_up_chase(table, ichigo_at=3)
    before = (
        row(table)
        .text.replace(" Q♦ Ичиго", " Q♦ <b>Ичиго</b>▶️")
        .replace("Погоня</b> — раунд ещё не начался", "Погоня · раунд 1</b>")
    )
    text = text_of(await deal_clubs_to_ichigo(table, [6, 2]))
    assert (
        "♣ Ичиго, осложнение на Q♦: d8=6 <s>Дикий d6=2</s> −2 Осложнение = <b>4</b> "
        "против 4 → <b>успех</b> — пройдено"
    ) in text.splitlines()
    assert row(table).text == before
    assert labels(row(table)) == TAIL_BUTTONS


async def test_the_joker_card_gives_plus_two_and_a_shift_of_up_to_two_cards(
    tg: TelegramDriver,
) -> None:
    """Seed 001 line 28: on the Joker, +2 to the roll; the failure shifts the participant up
    to two chase cards, in the direction the opposing side (here the GM) chooses (line 35)."""
    table = Table(tg)
    row_id = await set_up_chase(table, ichigo_at=5)
    # A standing −2 (line 17: the GM's explicit modifier) so that a Wild Card can fail at +2.
    assert "Ичиго: постоянный модификатор -2." in text_of(
        await table.say(ALICE, "/chase mod Ичиго -2")
    )
    text = text_of(await deal_clubs_to_ichigo(table, [2, 1]))
    assert (
        "♣ Ичиго, осложнение на 🃏: d8=2 <s>Дикий d6=1</s> +2 Осложнение −2 постоянный "
        "= <b>2</b> против 4 → <b>провал</b> — провал: сдвиг до двух карт"
    ) in text.splitlines()
    assert row(table).text.endswith(
        "\n⏳ Ичиго: Сдвиг на карты (до 2), направление выбирает противная сторона."
    )
    assert labels(row(table)) == ["⬅️ 2", "⬅️ 1", "1 ➡️", "2 ➡️", *TAIL_BUTTONS]

    # The fugitive's own player may not choose; the GM shifts him two cards back.
    refused = await table.press(BORIS, row(table), "⬅️ 2")
    assert toasts(refused) == [OPPOSING_ONLY]
    assert not row_edits(refused)
    shifted = await table.press(ALICE, row(table), "⬅️ 2")
    assert text_of(shifted) == "↔️ Сдвиг на 2 карты назад.\nИчиго — на карте 3."
    assert {c.params["message_id"] for c in row_edits(shifted)} == {row_id}
    assert cards_line(table, 3) == "<code> 3</code> Q♦ <b>Ичиго</b>▶️"
    assert "⏳" not in row(table).text
    assert labels(row(table)) == TAIL_BUTTONS


# --- the indirect Bump's buttons -------------------------------------------------------------


async def test_the_opposing_side_chooses_the_indirect_bump(tg: TelegramDriver) -> None:
    """Seed 001 line 35: «Если Сдвиг вызван косвенно, например Осложнением, направление
    выбирает противостоящая сторона» — Vera (Rukia, a pursuer) chooses; Boris, whose Ichigo
    is bumped, gets a toast refusal; a button of an outdated row is refused too."""
    table = Table(tg)
    row_id = await set_up_chase(table, ichigo_at=2)
    await deal_clubs_to_ichigo(table, [2, 1])  # Hearts: the failure is a Bump (line 25)
    pending_row = row(table)

    refused = await table.press(BORIS, pending_row, "1 ➡️")
    assert toasts(refused) == [OPPOSING_ONLY]
    assert not refused.sent() and not row_edits(refused)

    bumped = await table.press(VERA, pending_row, "⬅️ 1")
    assert text_of(bumped) == "↔️ Сдвиг на 1 карту назад.\nИчиго — на карте 1."
    assert {c.params["message_id"] for c in row_edits(bumped)} == {row_id}
    assert toasts(bumped) == [""]
    assert cards_line(table, 1) == "<code> 1</code> Q♠ <b>Ичиго</b>▶️"
    assert cards_line(table, 2) == "<code> 2</code> Q♥ "
    assert "Ичиго ↔ Рукия: 6" in row(table).text
    assert labels(row(table)) == TAIL_BUTTONS

    # The same button again: the row has moved on.
    again = await table.press(VERA, pending_row, "⬅️ 1")
    assert toasts(again) == ["Табло уже изменилось — взгляните ещё раз."]
    assert not again.sent()
    assert cards_line(table, 1) == "<code> 1</code> Q♠ <b>Ичиго</b>▶️"

    # /chase undo takes the choice back: the Bump waits again, with its buttons.
    undone = await table.say(ALICE, "/chase undo")
    assert text_of(undone) == "↩️ Последний шаг погони отменён."
    assert {c.params["message_id"] for c in row_edits(undone)} == {row_id}
    assert cards_line(table, 2) == "<code> 2</code> Q♥ <b>Ичиго</b>▶️"
    assert labels(row(table)) == ["⬅️ 1", "1 ➡️", *TAIL_BUTTONS]
    bumped = await table.press(ALICE, row(table), "1 ➡️")
    assert text_of(bumped) == "↔️ Сдвиг на 1 карту вперёд.\nИчиго — на карте 3."


# --- critical failure: the GM chooses -------------------------------------------------------


async def test_critical_failure_on_foot_the_gm_gives_fatigue(tg: TelegramDriver) -> None:
    """Seed 001 lines 24 and 30: on Spades the failure counts as a critical failure; on foot
    the GM chooses between losing the rest of the turn and Fatigue. Until then Ichigo cannot
    move; the Fatigue weighs on his next maneuvering roll (seed 000 line 79). Ichigo in the
    fight is the same person: he gains the level there too, once (docs/rules/chase.md
    «Wounds and Fatigue»)."""
    table = Table(tg)
    row_id = await set_up_chase(table, ichigo_at=1)
    await deal_clubs_to_ichigo(table, [2, 1])
    waiting = text_of(await table.say(BORIS, "/move вперёд"))
    assert waiting == "Сначала ведущий должен выбрать последствие критического провала."

    refused = await table.press(BORIS, row(table), "получает Усталость")
    assert toasts(refused) == [NOT_GM]
    assert not refused.sent() and not row_edits(refused)

    chosen = await table.press(ALICE, row(table), "получает Усталость")
    assert text_of(chosen) == "Критический провал: получает Усталость.\nИчиго: Усталость 1."
    assert {c.params["message_id"] for c in row_edits(chosen)} == {row_id}
    assert [c for c in board_edits(chosen) if "Ичиго" in c.text and "Усталость 1" in c.text]
    assert "⏳" not in row(table).text and labels(row(table)) == TAIL_BUTTONS

    moved = text_of(await table.say(BORIS, "/move вперёд", [4, 3]))
    assert moved == (
        "🏃 Ичиго меняет позицию: d8=4 <s>Дикий d6=3</s> −1 усталость = <b>3</b> против 4 "
        "→ <b>провал</b> — остаётся на месте"
    )


async def test_critical_failure_the_gm_takes_the_rest_of_the_turn(tg: TelegramDriver) -> None:
    """Seed 001 lines 27 and 30: Clubs −2, the failure counts as a critical failure; the GM
    chooses «loses the rest of the turn»: no Change Position, drop-back or Bump this turn."""
    table = Table(tg)
    await set_up_chase(table, ichigo_at=4)
    await deal_clubs_to_ichigo(table, [5, 3])
    chosen = await table.press(ALICE, row(table), "теряет остаток хода")
    assert text_of(chosen) == "Критический провал: теряет остаток хода."
    lost = "Ичиго: остаток хода уже потерян."
    assert text_of(await table.say(BORIS, "/move вперёд")) == lost
    assert text_of(await table.say(BORIS, "/back")) == lost
    assert text_of(await table.say(BORIS, "/bump Рукия назад")) == lost
    assert cards_line(table, 4) == "<code> 4</code> Q♣ <b>Ичиго</b>▶️"


# --- Wounds from the fight ------------------------------------------------------------------


async def test_a_wound_taken_in_the_fight_weighs_on_the_maneuvering_roll(
    tg: TelegramDriver,
) -> None:
    """Seed 000 line 3 (Wounds follow standard SWADE) and line 73: «Каждая Рана даёт −1 к
    Темпу и проверкам параметров, максимум −3». A maneuvering roll is a trait roll: Ichigo,
    wounded in the fight, rolls his Change Position with «−1 Раны» (docs/rules/chase.md
    «Wounds and Fatigue»); the chase says nothing of its own about the Wound."""
    table = Table(tg)
    await set_up_chase(table, ichigo_at=5)
    await table.say(ALICE, "/next", await table.shuffle("KD", "2S", "QH", "3H"))
    hit = await table.say(ALICE, "/hit Ичиго 12")  # Toughness 8: +4 — one Wound, Shaken
    assert "🏃" not in text_of(hit)
    taken = await table.say(ALICE, "/take Ичиго")  # no Soak: the Wound lands
    assert "Ичиго" in text_of(taken) and "🏃" not in text_of(taken)

    moved = text_of(await table.say(BORIS, "/move вперёд", [5, 3]))
    assert moved == (
        "🏃 Ичиго меняет позицию: d8=5 <s>Дикий d6=3</s> −1 Раны = <b>4</b> против 4 "
        "→ <b>успех</b> — 1 карту вперёд\nИчиго — на карте 6."
    )
