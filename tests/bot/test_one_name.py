"""One name per thing (issue 27, item 5): the Russian catalogs speak Russian — every Latin
word left in a `ru` msgstr, once what players type is set aside (commands, dice notation,
<code> examples, placeholders, addresses and the console's setting names), is an allow-listed
term — and the Storyteller system has one Russian name, «Сказитель», everywhere."""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted((ROOT / "locales/ru/LC_MESSAGES").glob("*.po"))
SYSTEM_NAME = "Сказитель"  # README, docs, the bot and the Mini App (docs/names.md)
OTHER_NAMES = re.compile(r"Рассказчик|Storyteller")

# what players type or read as code, and the console's names: not words of the sentence
SET_ASIDE = (
    r"<code>.*?</code>",
    r"<pre>.*?</pre>",
    r"<[^>]+>",  # tags
    r"\{[a-z_0-9]*\}",  # placeholders
    r"[a-z]+://\S+",  # addresses (https://, sqlite://, postgres://, tg://)
    r"(?<![\w/])\.?/[a-z_]+(?:/[a-z_]+)*(?:@\w+)?",  # commands, /dev/open, ./scripts/test
    r"\b\d*[dк]\d+\b",  # dice: d6, 2d6, к6
    r"\bd[XN]\b",  # a die of any size
    r"(?:uv run )?python -m bot(?: --\w+)?",
    r"\.env(?:\.example)?\b",
    r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b",  # settings: BOT_TOKEN, LOG_LEVEL
    r"\b\d+:[A-Z]+-?\.\.\.",  # a token's shape: 123456:ABC...
    r"\b[A-Z][a-z]+/[A-Z][a-z]+\b",  # time zones: Europe/Moscow
    r"(?<=по умолчанию )[a-z]+\b",  # a setting's default value: «(по умолчанию app)»
)
ALLOWED = {
    # names of things
    "Telegram",
    "Mini App",
    "BotFather",
    "Bot API",
    "Savage Worlds",
    "SWADE",
    "NPC",
    "JSON",
    "HTTPS",
    "SHA-256",
    "HMAC-SHA256",
    "PostgreSQL",
    "HOST",
    "PORT",
    "DEBUG",
    "INFO",
    "WARNING",
    "Ctrl+C",
    # locale codes, the dice letter («через d, к или д»), and letters standing for a number
    # or a name (N, X, «A против B»)
    "ru",
    "d",
    "en",
    "A",
    "B",
    "M",
    "N",
    "X",
}
LATIN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[ +-][A-Z0-9][A-Za-z0-9]*)*")


def russian_strings() -> list[tuple[str, str]]:
    found = []
    for path in CATALOGS:
        with path.open("rb") as file:
            for message in read_po(file):
                if not message.id:
                    continue
                strings = message.string if isinstance(message.string, tuple) else (message.string,)
                found += [(path.name, s) for s in strings if s]
    return found


def latin_words(text: str) -> list[str]:
    for pattern in SET_ASIDE:
        text = re.sub(pattern, " ", text, flags=re.S)
    words = []
    for match in LATIN.finditer(text):
        word = match.group(0)
        # a known term may be followed by more Latin (“Mini App” then “Telegram”): split
        words += [word] if word in ALLOWED else word.split()
    return words


def test_russian_msgstrs_have_no_english_but_allowed_terms() -> None:
    strings = russian_strings()
    assert len(strings) > 1000  # the three catalogs were read
    foreign = sorted(
        {(name, word) for name, s in strings for word in latin_words(s) if word not in ALLOWED}
    )
    assert foreign == []


def test_the_set_aside_is_no_loophole() -> None:
    assert latin_words("Бросок <code>/r 2d6</code> сделан, {name}") == []
    assert latin_words("Storyteller (d10)") == ["Storyteller"]
    assert latin_words("Откройте Mini App в Telegram") == ["Mini App", "Telegram"]


def test_the_storyteller_system_has_one_russian_name() -> None:
    strings = [s for _, s in russian_strings()]
    assert any(SYSTEM_NAME in s for s in strings)
    assert [s for s in strings if OTHER_NAMES.search(s)] == []
    readme = (ROOT / "README.md").read_text(encoding="utf-8").split("# Kosti (English)")[0]
    assert SYSTEM_NAME in readme and not OTHER_NAMES.search(readme)
