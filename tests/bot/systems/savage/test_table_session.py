"""The scripted table session (tests/bot/systems/savage/session.py): six fighters with a
group of Extras, three fight rounds, a chase of five rounds — typed, tapped and quiet
(issue 12, items 1 and 2). The figures are printed (`pytest -s`); the baseline measured on
the code before the quiet chat is in docs/rules/chat.md («A quiet chat»)."""

from __future__ import annotations

from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.bot.systems.savage.session import Session, run_session
from tests.bot.systems.savage.test_combat import Table
from tests.support.telegram import TelegramDriver


def _played(tally: object) -> int:
    return sum(v for k, v in tally.messages.items() if k not in ("set-up", "chase-set"))  # type: ignore[attr-defined]


async def test_typed_session(tg: TelegramDriver) -> None:
    tally = await run_session(tg, taps=False)
    print("\n" + tally.report("typed"))
    # one per action and per turn ping; a typed /take is a message of its own
    assert 0 < _played(tally) <= tally.actions + tally.turns + tally.takes


async def test_tapped_session_needs_no_typing(tg: TelegramDriver) -> None:
    tally = await run_session(tg, taps=True)
    print("\n" + tally.report("taps"))
    played = [k for k in tally.typed if k not in ("set-up", "chase-set")]
    assert not [k for k in played if tally.typed[k]], tally.typed  # every turn by taps
    assert tally.takes > 0  # answered under the attack's result: no message
    assert 0 < _played(tally) <= tally.actions + tally.turns


async def test_someone_elses_buttons_are_refused(tg: TelegramDriver) -> None:
    table = Table(tg)
    session = Session(table, taps=True)
    await session.set_up()
    await session.next_turn()
    state = await session.state()
    acting = state.acting
    assert acting is not None
    menu = session.latest("Атака")
    owner = session.owner(acting.members[0])
    stranger = VERA if owner != VERA else BORIS
    feed = await tg.press(stranger, menu, 0)
    (answer,) = [c for c in feed.calls if c.method == "answerCallbackQuery"]
    assert answer.params["text"].startswith("Это не ваш персонаж")
    assert answer.params.get("show_alert")
    assert not feed.sent()


async def test_quiet_session_posts_only_results(tg: TelegramDriver) -> None:
    """«Тихий режим»: no round header, no turn ping; the acting one's buttons on the board."""
    session = Session(Table(tg), taps=True)
    await session.set_up()
    refused = await tg.send(BORIS, GROUP, "/quiet вкл")
    assert refused.only_text() == "Это может только ведущий игры."
    assert "Тихий режим включён" in (await tg.send(ALICE, GROUP, "/quiet вкл")).only_text()
    session.label = "fight 1"
    await session.next_turn()  # the deal: only the board is edited
    assert session.tally.messages["fight 1"] == 0
    board = session.latest("Атака")
    assert board.text.startswith("⚔️ <b>Бой · раунд 1</b>")
    await session.fight_turn()
    assert 0 < session.tally.messages["fight 1"] <= session.tally.actions  # the results
    assert "Тихий режим выключен" in (await tg.send(ALICE, GROUP, "/quiet выкл")).only_text()
    await session.next_turn()
    assert session.tally.messages["fight 1"] <= session.tally.actions + 1  # a ping again
