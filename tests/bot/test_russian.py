"""Russian that needs no gender or case the templates cannot know: every Russian entry of
every catalog (chat, Mini App, the engine's shared descriptions) is scanned for «сделал(а)»
style endings, a placeholder after a preposition that governs a case («Урон по {name}»
would need «по Рукии»), «бросавший» for a GM who may have rolled himself, and a masculine
past form right after a name («{name} оглушён.», «{participant} отстал…»: Рукия is a
woman) — the sentences say it with a present tense, a colon or a noun instead
(«{name}: состояние «Оглушён» снято», «{participant} отстаёт…», «Быстрота»)."""

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

# A person's placeholder and the words after it up to a stop: the verb that agrees with it.
PERSON = (
    r"name|names|fighter|target|actor|who|roller|character|attacker|defender|player|"
    r"participant|leader|winner|member|a|b"
)
AFTER_NAME = re.compile(r"\{(?:" + PERSON + r")\}(?:</b>|»)*([^{}:;—–.,!?()«\n<]*)", re.I)
WORD = re.compile(r"[а-яё]+", re.I)
# Masculine past tense («менял», «потерял», «отстал», «выбыл», «ушёл», «погиб») and short
# participles and adjectives («стабилизирован», «оглушён», «сбит», «уязвим», «мёртв»).
MASCULINE = re.compile(
    r"^(?:[а-яё]+[аяеиыуоё]л(?:ся)?|[а-яё]{2,}(?:ан|ян|ен|ён)|[а-яё]*(?:бит|быт|крыт|нят)|"
    r"погиб|мог|смог|помог|умер|лёг|замёрз|рад|жив|мёртв|готов|уязвим|неуязвим|сам)$",
    re.I,
)
FIRST_WORDS = 3  # the predicate stands right after its subject
# Labels the templates put right after a name: «☠️ {name} {outcome}».
NAMED_LABELS = ("incapacitation.",)
# Labels shown beside a name on a board may be the seed's condition terms, capitalized as
# in seed 000 («Оглушён (Stunned)», «Опутан (Entangled)», «Связан (Bound)», «Отвлечённым и
# Уязвимым», «Недееспособным»); «раскрыт» is a roll's («бросок раскрыт»); the rest are
# nouns that end like a past tense.
TERMS = frozenset({"Оглушён", "Отвлечён", "Уязвим", "Связан", "Опутан", "Недееспособен"})
NOT_A_PERSON = frozenset({"раскрыт", "провал", "журнал", "сил"})


def _masculine_after_name(text: str) -> list[str]:
    found = []
    for clause in AFTER_NAME.findall(text):
        found += [w for w in WORD.findall(clause)[:FIRST_WORDS] if MASCULINE.match(w)]
    return found


def _masculine_badge(text: str) -> bool:
    words = WORD.findall(text)
    bare = text.strip(" ✖💀☠️🏁·")
    return (
        len(words) == 1
        and bare == words[0]
        and bool(MASCULINE.match(bare))
        and bare not in TERMS
        and bare.lower() not in NOT_A_PERSON
    )


def _messages(path: Path) -> list[tuple[str, str, tuple[str, ...]]]:
    with path.open("rb") as fp:
        catalog = read_po(fp, locale="ru")
    found = []
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        key = message.id if isinstance(message.id, str) else message.id[0]
        where = tuple(str(location) for location, _ in message.locations)
        found += [(key, text, where) for text in strings if text]
    return found


def _entries(path: Path) -> list[tuple[str, str]]:
    return [(key, text) for key, text, _ in _messages(path)]


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


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.stem)
def test_no_masculine_past_after_a_name(path: Path) -> None:
    bad = [
        (key, text)
        for key, text, where in _messages(path)
        if _masculine_after_name(text)
        or _masculine_badge(text)
        or (
            any(w.startswith(NAMED_LABELS) for w in where)
            and any(MASCULINE.match(w) for w in WORD.findall(text)[:FIRST_WORDS])
        )
    ]
    assert bad == []


def test_the_masculine_check_catches_what_it_should() -> None:
    for wrong in (
        "{name} стабилизирован.",
        "{name} больше не оглушён.",
        "{participant} потерял остаток хода.",
        "{participant} уже менял позицию в этот ход.",
        "{participant} отстал в этот ход и не может менять позицию.",
        "<b>{name}</b> выбыл из погони",
        "☠️ {fighter} погиб.",
        "{name} движется сам по себе.",
    ):
        assert _masculine_after_name(wrong), wrong
    for right in (
        "{name}: кровотечение остановлено.",
        "{name}: состояние «Оглушён» снято.",
        "{participant}: остаток хода уже потерян.",
        "{participant} отстаёт в этот ход и не может менять позицию.",
        "🩸 {name} получает {count} Ран.",
        "{name} ({rules}): {cards} → {card}",
        "Убрать из боя всю группу {name} ({count} боец)?",
    ):
        assert not _masculine_after_name(right), right
    assert _masculine_badge("💀 погиб") and _masculine_badge("выбыл")
    assert _masculine_badge("оторвался") and _masculine_badge("мёртв")
    for badge in ("нет в живых", "вне боя", "Оглушён", "Быстрота", "побег удался"):
        assert not _masculine_badge(badge), badge


def test_edges_beside_a_name_are_nouns() -> None:
    """A deal line names the edge that shaped it: «Рукия (Быстрота): 4♦ 9♠ → 9♠», not the
    adjective «Быстрый» that would need Рукия's gender."""
    chat = dict(_entries(LOCALES / "ru" / "LC_MESSAGES" / "messages.po"))
    for edge in ("Quick", "Hesitant", "Level Headed", "Improved Level Headed"):
        assert not re.search(r"(?:ый|ий|ой|ая|яя)$", chat[edge]), chat[edge]


def test_storyteller_words_are_the_seeds() -> None:
    """Seed 002: «Неудача не меняет ничего, а провал означает, что подготовленный материал не
    годится или оскорбляет слушателей» — no success is «неудача», the botch is «провал»
    (and the soak «не может провалиться»: cannot botch), in the chat and the Mini App."""
    chat = dict(_entries(LOCALES / "ru" / "LC_MESSAGES" / "messages.po"))
    page = dict(_entries(LOCALES / "ru" / "LC_MESSAGES" / "webapp.po"))
    for words in (chat, page):
        assert words["failure (no successes)"] == "неудача"
        assert words["botch"] == "провал"
    assert chat["Critical failure (botch)"] == "Провал"
    assert page["botch: {percent}"].startswith("провал")
    assert "неудач" not in chat["critical failure"]  # Savage Worlds keeps its own word


def test_the_patterns_catch_what_they_should() -> None:
    for wrong in ("{name} сделал(а) бросок", "{fighter}: погиб(ла)", "💥 Урон по {name}: 7"):
        assert GENDER_SUFFIX.search(wrong) or CASED_NAME.search(wrong)
    for right in ("{name}: урон 7", "Бросок: {name}", "Атака по цели {target}", "по карте {card}"):
        assert not (GENDER_SUFFIX.search(right) or CASED_NAME.search(right))
