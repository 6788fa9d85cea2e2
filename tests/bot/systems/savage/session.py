"""A scripted table session through the fake Bot API (issue 12, «Done when»): six fighters
(four players' characters, an NPC and a group of three Extras), three fight rounds, then a
chase of five rounds. Every turn the acting character attacks (each member of the group in
turn), damage is taken, the turn ends; in the chase every turn changes position. Played
either by typed commands or by taps, it counts per round the new bot messages, the board
edits, the typed commands and the taps."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engine import savage
from engine.services import find_game
from engine.services.savage import current_chase, current_encounter
from tests.bot.conftest import ALICE, BORIS, GROUP, VERA
from tests.bot.systems.savage.test_combat import GRIMMJOW, ICHIGO, ORIHIME, RUKIA, Table
from tests.support.fake_botapi import ApiCall
from tests.support.telegram import TelegramDriver, TgUser

GLEB = TgUser(104, "Глеб")
RENJI = (
    "Ренджи (Дикий) Ловкость d8, Смекалка d6, Дух d6, Сила d8, Выносливость d8; "
    "Драка d8, Атлетика d6; Защита 6, Стойкость 7 (1); Бенни 2"
)
HOLLOWS = "Пустой (Статист) Дух d4, Сила d6; Драка d6; Защита 4, Стойкость 5"
PLAYERS = {"Ичиго": BORIS, "Рукия": VERA, "Орихиме": VERA, "Ренджи": GLEB}
LOG: list[str] | None = None  # set to a list to keep a transcript
FIGHT_ROUNDS = 3
CHASE_ROUNDS = 5


@dataclass
class Tally:
    messages: Counter[str] = field(default_factory=Counter)  # round label -> new messages
    edits: Counter[str] = field(default_factory=Counter)
    typed: Counter[str] = field(default_factory=Counter)
    taps: Counter[str] = field(default_factory=Counter)
    actions: int = 0  # attacks and moves resolved
    turns: int = 0  # turns that started
    takes: int = 0  # damage that waited for a Soak or to be taken

    def report(self, title: str) -> str:
        rows = [f"{title}: round  messages  edits  typed  taps"]
        for label in self.messages | self.edits | self.typed | self.taps:
            m, e, t, p = (c[label] for c in (self.messages, self.edits, self.typed, self.taps))
            rows.append(f"  {label:>9} {m:9} {e:6} {t:6} {p:5}")
        total = [sum(c.values()) for c in (self.messages, self.edits, self.typed, self.taps)]
        rows.append("  {:>9} {:9} {:6} {:6} {:5}".format("total", *total))
        rows.append(f"  actions {self.actions}, turns {self.turns}")
        return "\n".join(rows)


def _count(tally: Tally, label: str, calls: list[ApiCall]) -> None:
    for c in calls:
        if c.chat_id != GROUP.id or c.result is None:
            continue
        if c.method == "sendMessage":
            tally.messages[label] += 1
        elif c.method in ("editMessageText", "editMessageReplyMarkup"):
            tally.edits[label] += 1


class Session:
    """Plays the session on `table`, typed or by taps (`play` chooses per step)."""

    def __init__(self, table: Table, *, taps: bool) -> None:
        self.table = table
        self.taps = taps
        self.tally = Tally()
        self.label = "set-up"

    async def state(self) -> savage.Encounter:
        game = await find_game(GROUP.id, None)
        assert game is not None
        view = await current_encounter(game.id)
        assert view is not None
        return view.state

    async def say(self, user: TgUser, text: str) -> Any:
        feed = await self.table.tg.send(user, GROUP, text)
        if LOG is not None:
            LOG.append(f"[{self.label}] >> {text}")
            LOG.extend(f"   {c.method}: {c.text[:300]!r}" for c in feed.calls)
        self.tally.typed[self.label] += 1
        _count(self.tally, self.label, feed.calls)
        return feed

    async def tap(self, user: TgUser, call: ApiCall, label: str, *, refused: bool = False) -> Any:
        index = next(i for i, b in enumerate(call.buttons()) if label in b["text"])
        feed = await self.table.tg.press(user, call, index)
        self.tally.taps[self.label] += 1
        _count(self.tally, self.label, feed.calls)
        refusals = [
            c for c in feed.calls if c.method == "answerCallbackQuery" and c.params.get("text")
        ]
        assert refused or not refusals, [c.params["text"] for c in refusals]
        return feed

    def latest(self, marker: str, *, sent: bool = False) -> ApiCall:
        """The latest message (sent or edited; `sent`: sent) whose buttons include `marker`."""
        methods = (
            ("sendMessage",)
            if sent
            else ("sendMessage", "editMessageText", "editMessageReplyMarkup")
        )
        for c in reversed(self.table.api.calls):
            if c.method not in methods:
                continue
            if c.result is None or not isinstance(c.result, dict):
                continue
            if any(marker in b.get("text", "") for b in c.buttons()):
                return c
        raise AssertionError(f"no message with a button {marker!r}")

    async def set_up(self) -> None:
        t = self.table
        await t.say(ALICE, "/newgame дикий Пустые земли")
        for user in (BORIS, VERA, GLEB):
            await t.say(user, "/join")
        await t.say(BORIS, "/char " + ICHIGO)
        await t.say(VERA, "/char " + RUKIA)
        await t.say(VERA, "/char " + ORIHIME)
        await t.say(GLEB, "/char " + RENJI)
        await t.say(ALICE, "/char " + HOLLOWS)
        await self.say(ALICE, "/fight")
        for name in PLAYERS:
            await self.say(ALICE, f"/add {name}")
        await self.say(ALICE, "/add " + GRIMMJOW)
        await self.say(ALICE, "/add Пустой ×3")

    def owner(self, character: savage.Character) -> TgUser:
        return PLAYERS.get(character.name, ALICE) if character.owner else ALICE

    async def next_turn(self) -> None:
        state = await self.state()
        user = ALICE
        if self.taps and state.current is not None:
            await self.tap(user, self.latest("Конец хода"), "Конец хода")
        elif self.taps:
            await self.tap(user, self.latest("Раздать"), "Раздать")
        else:
            await self.say(user, "/next")
        after = await self.state()
        if after.current is not None:
            self.tally.turns += 1

    async def attack(self, actor: savage.Character, target: savage.Character) -> None:
        user = self.owner(actor)
        state = await self.state()
        if self.taps and len(state.combatant_of(actor.id).members) > 1:
            await self.tap(user, self.latest(actor.name), actor.name)  # the member who acts
        if self.taps:
            await self.tap(user, self.latest("Атака"), "Атака")
            await self.tap(user, self.latest(target.name), target.name)
            await self.tap(user, self.latest("Драка"), "Драка")
        else:
            await self.say(user, f"/attack {actor.name} {target.name}")
        self.tally.actions += 1
        state = await self.state()
        if state.pending is not None:
            victim = state.character(state.pending.character)
            self.tally.takes += 1
            if self.taps:
                answer = self.latest("Принять", sent=True)
                await self.tap(self.owner(victim), answer, "Принять")
            else:
                await self.say(self.owner(victim), f"/take {victim.name}")

    def _target(self, state: savage.Encounter, actor: savage.Character) -> savage.Character | None:
        foes = [
            c
            for c in state.characters
            if (c.owner is None) != (actor.owner is None) and not c.status.out
        ]
        return foes[0] if foes else None

    async def fight_turn(self) -> None:
        state = await self.state()
        acting = state.acting
        assert acting is not None
        for member in acting.active_members:
            state = await self.state()
            me = state.character(member.id)
            if me.status.out or me.status.shaken or me.status.free_only:
                continue
            if me.status.has("bound") or me.status.has("entangled"):
                continue
            target = self._target(state, me)
            if target is not None:
                await self.attack(me, target)

    async def resolve_choices(self) -> None:
        """Choices a chase roll left (a Bump's cards, a critical failure's outcome): the
        row's first button, pressed by whoever may choose (typed and tapped alike)."""
        game = await find_game(GROUP.id, None)
        assert game is not None
        for _ in range(10):
            view = await current_chase(game.id)
            if view is None or not view.state.pending:
                return
            row = self.latest_row()
            for user in (ALICE, BORIS, VERA, GLEB):
                feed = await self.table.tg.press(user, row, 0)
                self.tally.taps[self.label] += 1
                _count(self.tally, self.label, feed.calls)
                answers = [c for c in feed.calls if c.method == "answerCallbackQuery"]
                if not any(c.params.get("text") for c in answers):
                    self.tally.actions += 1  # a choice resolved: its result is a message
                    break

    def latest_row(self) -> ApiCall:
        for c in reversed(self.table.api.calls):
            row = c.method in ("sendMessage", "editMessageText") and c.text.startswith("🏃 <b>")
            if row and c.result is not None and c.buttons():
                return c
        raise AssertionError("no chase row")

    async def chase_turn(self) -> None:
        await self.resolve_choices()
        state = await self.state()
        acting = state.acting
        assert acting is not None
        lead = acting.members[0]
        user = self.owner(lead)
        if self.taps:
            # a lost turn (a Complication) refuses it, typed or tapped alike
            await self.tap(user, self.latest("Вперёд"), "Вперёд", refused=True)
        else:
            await self.say(user, f"/move {lead.name} вперёд")
        self.tally.actions += 1

    async def play(self) -> Tally:
        await self.set_up()
        self.label = self._label(1)
        await self.next_turn()  # the first deal
        while True:
            state = await self.state()
            chase = state.round > FIGHT_ROUNDS
            if chase and self.label == self._label(FIGHT_ROUNDS):
                self.label = "chase-set"
                await self.start_chase()  # at the first turn of round 4
            else:
                self.label = self._label(state.round)
            await (self.chase_turn() if chase else self.fight_turn())
            self.label = self._label(state.round)
            last = state.round == FIGHT_ROUNDS + CHASE_ROUNDS and not state.up_next()
            if last:
                break
            await self.next_turn()
        return self.tally

    def _label(self, round_number: int) -> str:
        if round_number <= FIGHT_ROUNDS:
            return f"fight {round_number}"
        return f"chase {round_number - FIGHT_ROUNDS}"

    async def start_chase(self) -> None:
        await self.say(ALICE, "/chase 12")
        for name in PLAYERS:
            await self.say(ALICE, f"/chase add {name} беглецы 6")
        await self.say(ALICE, "/chase add Гриммджо преследователи 2")
        await self.say(ALICE, "/chase add Пустой преследователи 1")


async def run_session(tg: TelegramDriver, *, taps: bool, seed: int = 12) -> Tally:
    tg.dp["rng"] = random.Random(seed)
    return await Session(Table(tg), taps=taps).play()
