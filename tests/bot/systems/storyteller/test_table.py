"""A Storyteller fight at a real table, tapped (issue 25, «Done when»): the GM and two
players, two characters pasted as sheets, three NPCs entered in the GM's private chat; then
four turns with nothing typed — initiative, attacks, defenses, a delayed action, a full
defense, the GM's review and an undo all by buttons — with a block, dodges, a parry with
counter-damage, lethal wounds, Willpower interrupts (a roll and a point), an NPC
Incapacitated, an aimed shot and two actions declared with it. Counted: the group's new
messages per turn (≤ one per attack + one per turn), and no group message or edit carries
an NPC's hidden number."""

from __future__ import annotations

import time
from collections.abc import Iterable

from bot.systems.storyteller.picker import pass_overdue
from engine.services import find_game
from engine.services.storyteller import current_fight
from engine.storyteller.combat import DODGE
from engine.storyteller.fight import Fight
from engine.storyteller.sheet import format_sheet
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.bot.systems.storyteller.test_fight import BOARD
from tests.bot.systems.storyteller.test_private import npc_leaks
from tests.engine.storyteller import test_fight as scripted
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import Feed, TelegramDriver, TgUser, private

PCS = ((scripted.VERA, BORIS), (scripted.MAX, VERA))  # Вероника (Boris), Макс (Vera)
NPCS = (scripted.BOSS, scripted.THUG1, scripted.THUG3)  # Босс, Бандит 1, Бандит 3


class Dice:
    """The scripted faces first, then 2s (a failure, never a 1): only the dice that matter
    are written out."""

    def __init__(self, faces: Iterable[int]) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return min(max(self.faces.pop(0) if self.faces else 2, a), b)


class Taps:
    def __init__(self, tg: TelegramDriver) -> None:
        self.tg = tg
        self.set_up = False  # the game, sheets, NPCs and fighters are in
        self.typed = 0  # commands typed after the set-up

    async def say(self, user: TgUser, text: str, chat_id: int = GROUP.id) -> Feed:
        chat = GROUP if chat_id == GROUP.id else private(user)
        self.typed += self.set_up
        self.tg.dp["rng"] = Dice([])
        return await self.tg.send(user, chat, text)

    def showing(self, chat_id: int, label: str) -> ApiCall:
        """The newest message of the chat (sent or edited) with a button holding `label`."""
        for c in reversed(self.tg.api.calls):
            if c.method not in ("sendMessage", "editMessageText") or c.chat_id != chat_id:
                continue
            if c.result is not None and any(label in b["text"] for b in c.buttons()):
                return c
        raise AssertionError(f"no message with «{label}» in {chat_id}")

    async def tap(
        self, user: TgUser, label: str, faces: Iterable[int] = (), chat_id: int = GROUP.id
    ) -> Feed:
        call = self.showing(chat_id, label)
        self.tg.dp["rng"] = Dice(faces)
        index = next(i for i, b in enumerate(call.buttons()) if label in b["text"])
        feed = await self.tg.press(user, call, index)
        alerts = [
            c
            for c in feed.calls
            if c.method == "answerCallbackQuery" and c.params.get("show_alert")
        ]
        assert not alerts, (label, [a.params["text"] for a in alerts])
        return feed

    async def attack(
        self, user: TgUser, target: str, weapon: str, faces: Iterable[int] = ()
    ) -> Feed:
        """The board's «Атака», then the picker: in the group for a player, in the GM's
        private chat for an NPC."""
        chat = ALICE.id if user == ALICE else GROUP.id
        await self.tap(user, "⚔️ Атака")
        await self.tap(user, target, chat_id=chat)
        await self.tap(user, weapon, chat_id=chat)
        return await self.tap(user, "⚔️ Атака", faces, chat_id=chat)

    async def publish(self) -> Feed:
        return await self.tap(ALICE, "Опубликовать", chat_id=ALICE.id)

    async def fight(self) -> Fight:
        game = await find_game(GROUP.id, None)
        assert game is not None
        view = await current_fight(game.id)
        assert view is not None
        return view.state


async def set_up(t: Taps) -> None:
    await t.say(ALICE, "/newgame сказитель Ночной город")
    for character, player in PCS:
        await t.say(player, "/join")
        await t.say(player, "/char " + format_sheet(character))
    # the GM's preparation in the private chat, for the game chosen there
    [menu] = (await t.say(ALICE, "/games", ALICE.id)).sent()
    await t.tg.press(ALICE, menu)
    for npc in NPCS:
        saved = await t.say(ALICE, "/npc " + format_sheet(npc), ALICE.id)
        assert [c.chat_id for c in saved.sent()] == [ALICE.id]
    await t.say(ALICE, "/fight")
    for character, _ in PCS:
        await t.say(ALICE, f"/add {character.name}")
    for npc in NPCS:
        await t.say(ALICE, f"/add {npc.name}")


def group_text(feed: Feed) -> str:
    """What the group was sent or shown in the step (the board aside)."""
    return "\n".join(
        c.text
        for c in feed.calls
        if c.chat_id == GROUP.id
        and c.method in ("sendMessage", "editMessageText")
        and not c.text.startswith(BOARD)
    )


def group_posts(t: Taps, mark: int) -> list[ApiCall]:
    return [c for c in t.tg.api.since(mark, "sendMessage") if c.chat_id == GROUP.id]


async def test_four_turns_tapped(tg: TelegramDriver) -> None:
    await play_table(tg)


async def play_table(tg: TelegramDriver) -> None:
    """The session, its assertions included (the keyboard-fit test draws its keyboards)."""
    t = Taps(tg)
    await set_up(t)
    t.set_up = True
    setup_done = tg.api.mark()
    per_turn: list[tuple[int, int]] = []  # (new group messages, attacks) of each turn

    # --- turn 1: Вероника 4+3+9=16, Босс 3+3+8=14, Макс 2+2+5=9, Бандит 1 2+2+3=7,
    # Бандит 3 2+2+1=5
    mark = tg.api.mark()
    await t.tap(ALICE, "🎲 Инициатива", [9, 5, 8, 3, 1])
    # Вероника shoots Бандит 1: Dex 4 + Firearms 3, three successes; the pistol's 4 dice
    # and two more do four lethal levels the NPC cannot soak. An NPC target: no question,
    # its defense is the GM's in the review
    await t.attack(BORIS, "Бандит 1", "Пистолет", [9, 9, 9, 2, 2, 2, 2, 9, 9, 9, 9, 2, 2])
    shot = t.showing(ALICE.id, "Опубликовать")
    assert "4 уровня летальных" in shot.text  # the GM sees the levels, the table will not
    first = await t.publish()
    notice_id = next(
        c.params["message_id"]
        for c in first.calls
        if c.method == "editMessageText" and c.chat_id == GROUP.id and "Атака" in c.text
    )
    # the GM takes it back and publishes again: the same message, edited
    await t.tap(ALICE, "↩️ Отменить")
    assert (await t.fight()).proposal is not None
    again = await t.publish()
    assert not [c for c in again.sent(GROUP.id) if "Атака" in c.text]
    assert any(
        c.params.get("message_id") == notice_id
        for c in again.calls
        if c.method == "editMessageText"
    )
    # Босс shoots Макс, who has not acted: Макс is asked, and interrupts — a Willpower roll
    # (the proposal's first die, a 9), then a dodge; the attack's successes are gone
    feed = await t.attack(ALICE, "Макс", "Пистолет", [9, 2, 2, 2, 2, 2])
    asking = t.showing(GROUP.id, "Без защиты")
    assert "выберите защиту" in asking.text and asking.result["message_id"] in [
        c.result["message_id"] for c in feed.sent(GROUP.id)
    ]
    labels = [b["text"] for b in asking.buttons()]
    assert not any("Блок" in label for label in labels)  # «Блокировать дальнобойные … нельзя»
    # the GM's review waits for the choice
    assert not [c for c in feed.calls if c.chat_id == ALICE.id and "Предложение" in c.text]
    refused = await tg.press(BORIS, asking, 1)  # not Boris's character
    assert any("не ваш" in (c.params.get("text") or "") for c in refused.calls)
    await t.tap(VERA, "Уворот · 2 куб. · бросок воли")
    dodged = group_text(await t.publish())
    assert "прерывает действие ради защиты" in dodged and "Макс</b> уклоняется" in dodged
    # Бандит 1 (wounded, −2) punches Вероника, who has acted: nobody is asked
    punch = await t.attack(ALICE, "Вероника", "Кулак")
    assert [c.text.split(":")[0] for c in punch.sent(GROUP.id)] == ["⏳ Атака"]
    await t.publish()
    # Бандит 3 knifes Макс (he gave up his action): two successes, five dice, three lethal
    await t.attack(ALICE, "Макс", "Нож", [9, 9, 2, 2, 9, 9, 9, 2, 2])
    await t.publish()
    assert (await t.fight()).fighter("maks").character.health == ("lethal",) * 3
    per_turn.append((len(group_posts(t, mark)), 4))

    # --- turn 2 (the first turn's dice kept): Вероника takes a full defense
    mark = tg.api.mark()
    await t.tap(ALICE, "🎲 Инициатива")
    quiet = await t.tap(BORIS, "🛡 Полная защита")
    assert not quiet.sent(GROUP.id)  # the board tells it
    # Босс shoots her: she may dodge (Dex 4 + Dodge 3 − 1 for the vest) or parry, no interrupt
    # Boris does not tap in time: the default, her largest pool that spends nothing
    await t.attack(ALICE, "Вероника", "Пистолет")
    assert "потом — «💨 Уворот · 6 куб.»" in t.showing(GROUP.id, "Уворот · 6").text
    assert await pass_overdue(tg.bot, now=time.time() + 30) == 0  # not yet
    assert await pass_overdue(tg.bot, now=time.time() + 61) == 1
    proposal = (await t.fight()).proposal
    assert proposal is not None and proposal.attack.defense == DODGE and not proposal.asking
    await t.publish()
    # Макс (−1) slashes Бандит 3: four successes, the sword's eight dice, seven levels
    await t.attack(VERA, "Бандит 3", "Меч", [9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 2])
    slashed = group_text(await t.publish())
    assert "Бандит 3</b> теряет дееспособность" in slashed  # an NPC Incapacitated
    # Бандит 1 punches Вероника, still on full defense: she blocks (her next defense)
    await t.attack(ALICE, "Вероника", "Кулак")
    block = t.showing(GROUP.id, "Блок")
    assert "Уворот · 5" in "\n".join(b["text"] for b in block.buttons())  # a die fewer
    await t.tap(BORIS, "Блок")
    await t.publish()
    per_turn.append((len(group_posts(t, mark)), 3))

    # --- turn 3: Вероника delays; Босс shoots Макс, who spends his Willpower point to dodge
    mark = tg.api.mark()
    await t.tap(ALICE, "🎲 Инициатива")
    await t.tap(BORIS, "⏸ Отложить")
    # the proposal's dice: three successes, then the damage's; after the choice they are
    # replayed (a point draws no die): his one die of dodge fails, four lethal levels more
    await t.attack(ALICE, "Макс", "Пистолет", [9, 9, 9, 2, 2, 2, 9, 9, 9, 9, 2, 2])
    await t.tap(VERA, "Уворот · 1 куб. · очко воли")
    shot = group_text(await t.publish())
    assert "Макс</b> тратит очко Силы воли" in shot
    assert "Макс</b> получает 4 уровня летальных" in shot  # a player's wounds are public
    assert "Макс</b> теряет дееспособность" in shot
    # Бандит 1 knifes the delayed Вероника: she interrupts with a roll and parries with
    # her knife — six successes against none, the surplus cuts him
    await t.attack(ALICE, "Вероника", "Нож", [9, 2, 2, 2, 2, 2])
    await t.tap(BORIS, "Парирование · 5 куб. · бросок воли", [2, 9, 9, 9, 9, 9, 9, 9, 9, 9])
    parried = group_text(await t.publish())
    assert "Вероника</b> парирует" in parried
    assert "Ответный удар парированием" in parried and "Бандит 1</b> погибает" in parried
    per_turn.append((len(group_posts(t, mark)), 2))

    # --- turn 4: Вероника declares two actions with her first shot, aimed at Босс's head;
    # the picker shows what each choice does to the pool
    mark = tg.api.mark()
    await t.tap(ALICE, "🎲 Инициатива")
    await t.tap(BORIS, "⚔️ Атака")
    await t.tap(BORIS, "Босс")
    await t.tap(BORIS, "Пистолет")
    # «Маленькая (кисть руки, голова, оружие): +2 // +1»
    await t.tap(BORIS, "Маленькая: сложн. +2, урон +1")
    # DESIGN.md: «declare N actions, the first pool loses N dice and each next one one die
    # more» — Dex 4 + Firearms 3 − 1 for the vest: 4 dice, then 3
    split = await t.tap(BORIS, "2 действия: 4+3 куб.")
    [picker] = [c for c in split.calls if c.method == "editMessageText"]
    assert "Запас: 4 куб., сложность 8" in picker.text, picker.text
    # three successes at 8; the pistol's 4 dice, two more and the aim's one: two hit, no
    # armor soaks an aimed shot («может обойти броню»)
    await t.tap(BORIS, "⚔️ Атака", [9, 9, 9, 2, 9, 9, 2, 2, 2, 2, 2])
    aimed = group_text(await t.publish())
    assert "Вероника</b> заявляет 2 действия" in aimed, aimed
    # no soak: the armor is bypassed, and a mortal soaks no lethal damage without it
    assert "поглощает" not in aimed and "сложность 8" in aimed
    assert (await t.fight()).fighter("boss").character.health == ("lethal", "lethal")
    # the second shot: no split left to declare, a die fewer
    await t.tap(BORIS, "⚔️ Атака")
    await t.tap(BORIS, "Босс")
    chosen = await t.tap(BORIS, "Пистолет")
    [picker] = [c for c in chosen.calls if c.method == "editMessageText"]
    assert "Запас: 3 куб., сложность 6" in picker.text
    assert not [b for b in picker.buttons() if "действия" in b["text"]]
    await t.tap(BORIS, "⚔️ Атака")  # a miss (the 2s)
    assert "заявляет" not in group_text(await t.publish())
    per_turn.append((len(group_posts(t, mark)), 2))

    # nothing typed after the set-up; the counts the issue asks for
    assert t.typed == 0
    for posts, attacks in per_turn:
        assert posts <= attacks + 1, per_turn
    group = [
        c
        for c in tg.api.since(setup_done)
        if c.chat_id == GROUP.id and c.method in ("sendMessage", "editMessageText")
    ]
    leaks = [ln for c in group for ln in npc_leaks(c.text, tuple(n.name for n in NPCS))]
    assert leaks == []
    assert any(c.text.startswith(BOARD) for c in group)
