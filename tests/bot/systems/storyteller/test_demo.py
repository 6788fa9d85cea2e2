"""The Storyteller demo table in the playground: laid out by commands in a group of its own,
it ends with initiative rolled and the first attack — of whoever the dice put up — waiting
for the GM's review in the GM's private chat; the GM's tap publishes it to the group."""

from __future__ import annotations

import itertools

from bot.playground.demo import lay_out
from bot.playground.world import FORUM_ID, GROUP_ID
from engine.services import find_game
from engine.services.storyteller import current_fight
from engine.storyteller.fight import Fight
from tests.bot.playground.conftest import ANYA, BORIS, GM, Served
from tests.bot.playground.conftest import served as served  # the fixture

REPLIES = (  # each command of the demo, and the start of the bot's one reply to it
    ("/newgame", "🎲 Новая игра Ночной город — Сказитель"),
    ("/join", "Аня вступает в игру Ночной город"),
    ("/join", "Борис вступает в игру Ночной город"),
    ("/char", "Сохранено: Лиза"),
    ("/char", "Сохранено: Артём"),
    ("/npc", "Шаблон NPC сохранён: Вышибала"),
    ("/options", "Сохранено для следующих боёв"),
    ("/fight", "Бой начинается."),
    ("/add", "➕ Лиза в бою"),
    ("/add", "➕ Артём в бою"),
    ("/add", "➕ Вышибала в бою"),
    ("/init", "Ход 1: брошена инициатива."),
    ("/attack", "⏳ Атака: "),
)


async def fight_in(chat_id: int) -> Fight:
    game = await find_game(chat_id, None)
    assert game is not None and game.system == "storyteller"
    view = await current_fight(game.id)
    assert view is not None
    return view.state


async def test_the_demo_ends_with_an_attack_waiting_for_the_gm(served: Served):
    chat, thread = await lay_out(served.play, "storyteller")
    assert thread is None and chat.id not in (GROUP_ID, FORUM_ID)
    assert chat.title == "Ночной город" and chat.type == "supergroup"
    answers = served.answers(chat.id)
    assert len(answers) == len(REPLIES)
    for (text, replies), (command, reply) in zip(answers, REPLIES, strict=True):
        assert text.startswith(command)
        assert len(replies) == 1 and replies[0].startswith(reply), (text, replies)

    fight = await fight_in(chat.id)
    owners = {f.character.name: f.owner for f in fight.fighters}
    assert owners == {"Лиза": ANYA, "Артём": BORIS, "Вышибала": None}
    assert fight.turn is not None and fight.turn.up()
    assert fight.proposal is not None
    attack = fight.proposal.attack
    assert attack.attacker in fight.turn.up()  # the one the dice put up attacks
    assert fight.fighter(attack.attacker).npc != fight.fighter(attack.target).npc
    attacker = fight.fighter(attack.attacker).character.name

    # The board in the group says so; the GM has the review with its buttons.
    board = next(m for m in served.bot_messages(chat.id) if m.text.startswith("⚔️ Бой"))
    assert "ждёт решения ведущего" in board.text
    review = served.last(GM)
    assert f"Атака: {attacker} →" in review.text and "Ночной город" in review.text
    labels = [b["text"] for row in review.reply_markup["inline_keyboard"] for b in row]
    assert labels[0] == "✅ Опубликовать"
    assert served.failures() == []

    # The newcomer's next step: the GM publishes, and the group sees the attack.
    mark = max(chat.messages)
    await served.play.press(GM, GM, review.id, 0, 0)
    assert (await fight_in(chat.id)).proposal is None
    # one message per attack: the group's notice is edited into the result, none is added
    new = "\n".join(m.text for m in served.bot_messages(chat.id, after=mark))
    assert "Атака:" not in new, new
    story = "\n".join(m.text for m in served.bot_messages(chat.id))
    assert f"⚔️ Атака: {attacker}" in story and "⏳ Атака:" not in story, story
    assert served.alerts() == []


class Cycle:
    """Dice that repeat `faces` (clamped to each roll's range)."""

    def __init__(self, *faces: int) -> None:
        self.faces = itertools.cycle(faces)

    def randint(self, a: int, b: int) -> int:
        return min(max(next(self.faces), a), b)


async def test_when_the_npc_is_up_the_gm_attacks(served: Served):
    assert served.play.dispatcher is not None
    # initiative in the order added: Лиза 1 + 7, Артём 1 + 5, Вышибала 10 + 4
    served.play.dispatcher["rng"] = Cycle(1, 1, 10)
    chat, _thread = await lay_out(served.play, "storyteller")
    fight = await fight_in(chat.id)
    assert fight.proposal is not None and fight.turn is not None
    assert [fight.fighter(f).character.name for f in fight.turn.up()] == ["Вышибала"]
    assert fight.fighter(fight.proposal.attack.attacker).character.name == "Вышибала"
    text, replies = served.answers(chat.id)[-1]
    assert text.startswith("/attack Вышибала ") and replies[0].startswith("⏳ Атака: Вышибала")
    attack = next(m for m in chat.messages.values() if m.text.startswith("/attack"))
    assert attack.sender["id"] == GM
