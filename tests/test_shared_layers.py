"""The shared layers never name a rule system: outside a system's own packages and the
registration modules, no module of engine/, bot/ or webapp/ (Python, or the Mini App's
scripts, styles and pages) says that system's words — its name, its scenes, its rolls, in
English or Russian, in code, strings or comments; nor does another system's package. A new
system plugs in beside the others; nothing shared is written around one.

Left out: the stored schema's history (migrations: what was written then). A system's
package may use another's word in a sense of its own (`OWN_SENSE`: the duel's pool of SP),
and the few lines in `ALLOWED` say why they stay."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = {".py", ".js", ".css", ".html"}
# each system's words: its names (its /newgame words among them), its scenes and its rolls
WORDS = {
    "savage": (
        r"savage|swade|encounter|chase|wild die|wild card|trait roll|"
        r"дикий|дикие|дикая|савага|погон"
    ),
    "storyteller": (
        r"storyteller|сказител|рассказчик|\bpools?\b|\bпул(а|е|у|ом|ы|ов)?\b|"
        r"willpower|сила воли|силу воли|specialty|специализац"
    ),
    "duel": r"duel|дуэл",
}
SYSTEMS = tuple(WORDS)
# matched against lower-cased text; a line is looked at only if it has one of the stems (plain
# substring tests: a regex of many alternatives over every file costs ten times more)
PATTERNS = {system: re.compile(words) for system, words in WORDS.items()}
STEMS = ("savage", "swade", "encounter", "chase", "wild", "trait", "дик", "савага", "погон",
         "storyteller", "сказител", "рассказчик", "pool", "пул", "willpower", "воли",
         "specialty", "специализац", "duel", "дуэл")  # fmt: skip


def folders(system: str) -> tuple[str, ...]:
    """A system's own packages."""
    return tuple(
        f"{layer}/{system}"
        for layer in (
            "engine",
            "engine/services",
            "bot/systems",
            "webapp/systems",
            "webapp/static/app/systems",
        )
    )


REGISTRATIONS = {
    "engine/services/installed.py",
    "bot/systems/installed.py",
    "webapp/systems/installed.py",
    "webapp/static/app/systems/index.js",  # the page's: one entry per system
}
# a system -> the words of another system its own packages use in their own sense
OWN_SENSE = {
    "duel": ("pool", "пул"),  # seed 003's pool of SP («к пулу СП»)
    "storyteller": ("погон",),  # seed 002's action «преследование, погоня»
}
# (file, a text on the line) -> why the line stays
ALLOWED = {
    ("bot/playground/world.py", "«Дикий край»"): (
        "the playground's forum is called so (a chat's title, not the system; its tests "
        "open it by that name)"
    ),
}


def _owner(relative: str) -> str | None:
    return next((s for s in SYSTEMS if relative.startswith(folders(s))), None)


def _files() -> list[Path]:
    found = []
    for package in ("engine", "bot", "webapp"):
        for path in sorted((ROOT / package).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in SUFFIXES or "migrations" in path.parts:
                continue
            if relative in REGISTRATIONS:
                continue
            found.append(path)
    return found


def _mentions(path: Path, root: Path = ROOT) -> list[str]:
    relative = path.relative_to(root).as_posix()
    owner = _owner(relative)
    own = OWN_SENSE.get(owner or "", ())
    found: list[str] = []
    text = path.read_text(encoding="utf-8")
    whole = text.lower()
    if not any(stem in whole for stem in STEMS):  # most files
        return found
    for n, line in enumerate(text.splitlines(), 1):
        lower = line.lower()
        if not any(stem in lower for stem in STEMS):
            continue
        if any(f == relative and t in line for f, t in ALLOWED):
            continue
        for system, pattern in PATTERNS.items():
            if system == owner:
                continue
            hits = [m.group(0) for m in pattern.finditer(lower)]
            if any(not hit.startswith(own) for hit in hits):
                found.append(f"{relative}:{n}: [{system}] {line.strip()}")
                break
    return found


def test_the_shared_layers_name_no_rule_system() -> None:
    files = _files()
    assert len(files) > 100  # the walk found the shared modules
    mentions = [m for path in files for m in _mentions(path)]
    assert not mentions, "\n".join(mentions)


# the example system of the test tree (tests/support/coins): its code, names, scene, roll and
# commands — no module of the project names it, not even a registration (it plugs in from
# the tests alone: tests/bot/test_example_system.py)
EXAMPLE = re.compile(r"\bcoins?\b|coin_toss|монетк|монета|\bcontest\b|endcontest|ctoss")


def test_no_module_names_the_example_system() -> None:
    found = []
    for path in [*_files(), *(ROOT / r for r in REGISTRATIONS)]:
        text = path.read_text(encoding="utf-8")
        if not EXAMPLE.search(text.lower()):  # most files: one pass
            continue
        lines = enumerate(text.splitlines(), 1)
        found += [f"{path}:{n}: {line}" for n, line in lines if EXAMPLE.search(line.lower())]
    assert not found, "\n".join(found)


def test_every_allowed_line_is_still_there() -> None:
    """An allowance whose line went is taken out of the list."""
    for file, text in ALLOWED:
        assert text in (ROOT / file).read_text(encoding="utf-8"), (file, text)


def test_the_check_sees_a_mention(tmp_path: Path) -> None:
    module = tmp_path / "shared.py"
    module.write_text('"""Reads the board."""\nX = 1  # the Chase follows\n', encoding="utf-8")
    assert _mentions(module, tmp_path) == ["shared.py:2: [savage] X = 1  # the Chase follows"]


def test_the_check_sees_each_systems_words_in_russian_and_english(tmp_path: Path) -> None:
    module = tmp_path / "shared.py"
    lines = ["# a trait roll", "# «дикий»", "# a d10 pool", "# пул из 7", "# the duel", "# дуэль"]
    module.write_text("\n".join(["X = 1", *lines]) + "\n", encoding="utf-8")
    systems = [m.split("[")[1].split("]")[0] for m in _mentions(module, tmp_path)]
    assert systems == ["savage", "savage", "storyteller", "storyteller", "duel", "duel"]


def test_a_system_may_use_a_word_in_its_own_sense_only(tmp_path: Path) -> None:
    duel = tmp_path / "engine" / "duel"
    duel.mkdir(parents=True)
    (duel / "rules.py").write_text("# к пулу СП\n# a storyteller\n", encoding="utf-8")
    assert _mentions(duel / "rules.py", tmp_path) == [
        "engine/duel/rules.py:2: [storyteller] # a storyteller"
    ]


def test_every_word_has_a_stem_the_quick_pass_looks_for() -> None:
    for words in WORDS.values():
        for word in re.split(r"\|(?![^(]*\))", words):  # the top-level alternatives
            assert any(stem in word for stem in STEMS), word
