"""The shared layers never name a rule system's scenes: outside Savage Worlds' own packages
and the registration modules (the other systems' packages included), no module of engine/,
bot/ or webapp/ (Python, or the Mini App's scripts, styles and pages) says «savage»,
«encounter» or «chase», in code, strings or comments. A new system plugs in beside Savage
Worlds; nothing shared is written around it.

Left out: the stored schema's history (migrations: what was written then), and the dice
layer's own rolls, which every chat may use (engine/dice names SWADE's trait roll, not a
system's scenes)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMES = re.compile(r"savage|encounter|chase", re.IGNORECASE)
SUFFIXES = {".py", ".js", ".css", ".html"}
SYSTEMS = ("savage",)  # the systems whose scenes NAMES are: another system names none of them
# their own packages, by their folders
SYSTEM_FOLDERS = tuple(
    folder
    for system in SYSTEMS
    for folder in (
        f"engine/{system}",
        f"engine/services/{system}",
        f"bot/systems/{system}",
        f"webapp/systems/{system}",
        f"webapp/static/app/systems/{system}",
    )
)
REGISTRATIONS = {
    "engine/services/installed.py",
    "bot/systems/installed.py",
    "webapp/systems/installed.py",
    "webapp/static/app/systems/index.js",  # the page's: one entry per system
}


def _shared_files() -> list[Path]:
    found = []
    for package in ("engine", "bot", "webapp"):
        for path in sorted((ROOT / package).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in SUFFIXES or "migrations" in path.parts:
                continue
            if relative in REGISTRATIONS or relative.startswith(SYSTEM_FOLDERS):
                continue
            found.append(path)
    return found


def _mentions(path: Path, root: Path = ROOT) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{path.relative_to(root)}:{n}: {line.strip()}" for n, line in enumerate(lines, 1)
            if NAMES.search(line)]  # fmt: skip


def test_the_shared_layers_name_no_scene_of_a_rule_system() -> None:
    files = _shared_files()
    assert len(files) > 100  # the walk found the shared modules
    mentions = [m for path in files for m in _mentions(path)]
    assert not mentions, "\n".join(mentions)


def test_the_check_sees_a_mention(tmp_path: Path) -> None:
    module = tmp_path / "shared.py"
    module.write_text('"""Reads the board."""\nX = 1  # the Chase follows\n', encoding="utf-8")
    assert _mentions(module, tmp_path) == ["shared.py:2: X = 1  # the Chase follows"]
