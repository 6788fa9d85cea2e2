"""Russian that needs no gender or case the templates cannot know: every Russian entry of
every catalog (chat, Mini App, the engine's shared descriptions) is scanned for «сделал(а)»
style endings, a placeholder after a preposition that governs a case («Урон по {name}»
would need «по Рукии»), and «бросавший» for a GM who may have rolled himself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

LOCALES = Path(__file__).resolve().parents[2] / "locales"
CATALOGS = sorted((LOCALES / "ru" / "LC_MESSAGES").glob("*.po"))
# «сделал(а)», «сбит(а)», «погиб(ла)», «готов(а)», «пришёл(шла)»
GENDER_SUFFIX = re.compile(r"[а-яё]\((?:а|ла|ась|ось|шла|ая|ое|ы|и)\)", re.I)
# a name put after a preposition that needs a case it does not have: «по {name}»,
# «у <b>{name}</b>», «для {target}», «от {fighter}»
CASED_NAME = re.compile(
    r"(?<![а-яё])(?:по|у|для|от|к|с|без|против|над|под|при|о|об)\s+(?:<b>)?«?\{"
    r"(?:name|names|fighter|target|actor|who|roller|character|attacker|defender|player)\}",
    re.I,
)
ROLLER_WORD = re.compile(r"бросавш", re.I)


def _entries(path: Path) -> list[tuple[str, str]]:
    with path.open("rb") as fp:
        catalog = read_po(fp, locale="ru")
    found = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        key = message.id if isinstance(message.id, str) else message.id[0]
        found += [(key, text) for text in strings if text]
    return found


def test_the_catalogs_are_there() -> None:
    assert {p.stem for p in CATALOGS} >= {"messages", "engine", "webapp"}


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.stem)
def test_no_gender_brackets_nor_cased_names(path: Path) -> None:
    bad = [
        (key, text)
        for key, text in _entries(path)
        if GENDER_SUFFIX.search(text) or CASED_NAME.search(text) or ROLLER_WORD.search(text)
    ]
    assert bad == []


def test_the_patterns_catch_what_they_should() -> None:
    for wrong in ("{name} сделал(а) бросок", "{fighter}: погиб(ла)", "💥 Урон по {name}: 7"):
        assert GENDER_SUFFIX.search(wrong) or CASED_NAME.search(wrong)
    for right in ("{name}: урон 7", "Бросок: {name}", "Атака по цели {target}", "по карте {card}"):
        assert not (GENDER_SUFFIX.search(right) or CASED_NAME.search(right))
