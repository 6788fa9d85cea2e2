"""One group message per attack (issue 25, item 4, a first piece): the notice that the GM
reviews an attack is edited into its result when published; an undo strikes the result
through above the notice («Отменено ведущим»), and a re-publication edits it again — never a
second message for the attack."""

from __future__ import annotations

from tests.bot.conftest import ALICE, GROUP, VERA
from tests.bot.systems.storyteller.test_fight import BOARD, Table, set_up
from tests.support.telegram import TelegramDriver


async def test_an_attack_is_one_group_message_through_publish_undo_and_publish(
    tg: TelegramDriver,
) -> None:
    table = Table(tg)
    await set_up(table)
    await table.say(ALICE, "/init", [3, 6, 3, 5, 5, 2])  # Vera 10, Max 10, …
    mark = tg.api.mark()
    feed = await table.say(VERA, "/attack Макс Бандит 2 Кулак", [2, 2, 2, 2, 2])  # a miss
    [notice] = [c for c in feed.sent(GROUP.id) if not c.text.startswith(BOARD)]
    assert notice.text.startswith("⏳ Атака")
    (review,) = feed.sent(ALICE.id)
    await table.press(ALICE, review, "Опубликовать")
    await table.say(ALICE, "/undo")
    back = [
        c
        for c in tg.api.calls
        if c.chat_id == ALICE.id and c.method in ("sendMessage", "editMessageText") and c.buttons()
    ][-1]  # the GM's review, edited back in place with the fight's new seq
    await table.press(ALICE, back, "Опубликовать")

    notice_id = notice.result["message_id"]
    group = [c for c in tg.api.since(mark) if c.chat_id == GROUP.id]
    attack_posts = [c for c in group if c.method == "sendMessage" and "Атака" in c.text]
    assert attack_posts == [notice]  # one message for the attack
    texts = [
        c.text
        for c in group
        if c.method == "editMessageText" and c.params["message_id"] == notice_id
    ]
    # published, struck through by the undo («отменено ведущим») over the notice, published
    # again: the same message
    assert [t.split(":")[0] for t in texts] == ["⚔️ Атака", "<s>⚔️ Атака", "⚔️ Атака"], texts
    undone = texts[1].split("\n")
    assert "↩️ Отменено ведущим." in undone and undone[-1].startswith("⏳ Атака")
    assert texts[1].split("</s>")[0] == "<s>" + texts[0]  # the result as it was published

    # undone twice: the proposal is gone, its message struck through — «отменено ведущим»
    await table.say(ALICE, "/undo")
    await table.say(ALICE, "/undo")
    assert (await table.fight()).proposal is None
    last = [
        c
        for c in tg.api.since(mark)
        if c.method == "editMessageText"
        and c.chat_id == GROUP.id
        and c.params.get("message_id") == notice_id
    ][-1]
    assert last.text.startswith("<s>⏳ Атака") and "Ведущий отменил атаку" in last.text
    posts = [c for c in tg.api.since(mark) if c.method == "sendMessage" and c.chat_id == GROUP.id]
    assert [c for c in posts if "Атака" in c.text] == [notice]  # still one message
