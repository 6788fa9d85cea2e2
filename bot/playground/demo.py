"""The demo tables: every installed system's demo (`ChatSystem.demo`, bot/systems/demo.py),
each in its own chat — the main group, a group of its own, or a topic of the forum group —
laid out by its script doing what a newcomer would do in the page, through the real
dispatcher (nothing is written to the database directly)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.playground.play import Playground
from bot.playground.world import FORUM_ID, GROUP_ID, PlayChat, World
from bot.systems import registry
from bot.systems.demo import Demo
from bot.systems.registry import ChatSystem


@dataclass
class Table:
    """The playground's side of a demo script (bot/systems/demo.py's DemoTable)."""

    play: Playground
    chat_id: int
    thread_id: int | None
    cast: tuple[int, ...]

    async def say(self, who: int, text: str) -> None:
        await self.play.write(self.cast[who], self.chat_id, text, thread=self.thread_id)

    async def start(self, who: int) -> None:
        user = self.cast[who]
        if not self.play.world.chats[user].started:
            await self.play.start(user)

    async def press(self, who: int, label: str) -> None:
        user = self.cast[who]
        for message in reversed(self.play.world.chats[user].messages.values()):
            rows = (message.reply_markup or {}).get("inline_keyboard") or []
            for r, row in enumerate(rows):
                for c, button in enumerate(row):
                    if label in button.get("text", "") and "callback_data" in button:
                        await self.play.press(user, user, message.id, r, c)
                        return
        raise LookupError(f"no button {label!r} in the private chat of {user}")

    async def press_under(self, who: int, heading: str, label: str) -> None:
        """The button `label` in the row below a row of one button starting with `heading`
        (a form's section: its name, then its choices)."""
        user = self.cast[who]
        for message in reversed(self.play.world.chats[user].messages.values()):
            rows = (message.reply_markup or {}).get("inline_keyboard") or []
            for r, row in enumerate(rows[:-1]):
                if len(row) != 1 or not row[0].get("text", "").startswith(heading):
                    continue
                for c, button in enumerate(rows[r + 1]):
                    if label in button.get("text", ""):
                        await self.play.press(user, user, message.id, r + 1, c)
                        return
        raise LookupError(f"no {label!r} under {heading!r} in the private chat of {user}")


def with_demo() -> tuple[ChatSystem, ...]:
    return tuple(s for s in registry.installed() if s.demo is not None)


def demo_list() -> list[dict[str, str]]:
    """What the page shows of them: a button (the system's title) and its line each."""
    return [
        {"system": s.code, "title": s.title(), "hint": s.demo.hint()}
        for s in with_demo()
        if s.demo is not None
    ]


def place(world: World, demo: Demo) -> tuple[PlayChat, int | None]:
    """The demo's chat (and topic), made on its first lay-out (the page is told)."""
    if demo.chat is None:
        return world.chats[GROUP_ID], None
    if demo.forum:
        forum = world.chats[FORUM_ID]
        found = [k for k, name in forum.topics.items() if name == demo.chat]
        if found:
            return forum, found[0]
        topic = world.add_topic(forum, demo.chat, next(iter(world.users.values())))
        world.emit({"type": "chat", "chat": world.chat_view(forum)})
        return forum, topic
    for chat in world.chats.values():
        if chat.type == "supergroup" and not chat.is_forum and chat.title == demo.chat:
            return chat, None
    group = world.add_group(min(world.chats) - 1, demo.chat, bot_can_delete=True)
    world.emit({"type": "chat", "chat": world.chat_view(group)})
    return group, None


async def lay_out(play: Playground, code: str | None = None) -> tuple[PlayChat, int | None]:
    """Lay out the demo of the system `code` (every demo when None), each once: a second
    call only answers its chat. Returns the chat (and topic) of the first one."""
    systems = with_demo() if code is None else tuple(s for s in with_demo() if s.code == code)
    if not systems:
        raise LookupError(f"no demo table for {code!r}")
    first: tuple[PlayChat, int | None] | None = None
    for system in systems:
        assert system.demo is not None
        chat, thread = place(play.world, system.demo)
        first = first or (chat, thread)
        if system.code in play.demos_laid_out:
            continue
        play.demos_laid_out.add(system.code)
        await system.demo.play(Table(play, chat.id, thread, tuple(play.world.users)))
    assert first is not None
    return first
