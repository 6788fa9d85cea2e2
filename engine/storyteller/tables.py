"""The GM's changes to two default tables of the game's options, one row at a time and
checked: the healing times (the seed's «Время излечения» is absent) and the aimed attacks'
targets (the seed's «Прицеливание»). Each table can go back to its default.

Times are written as the chat and the form take them: a number and its unit — «12ч», «3д»,
«2нед», «1мес» (a month is 30 days) — and refused outside 1 hour .. MAX_HEAL_HOURS.
"""

from __future__ import annotations

import dataclasses
import re

from engine.words import fold

from .errors import StorytellerError
from .options import (
    AGGRAVATED,
    BASHING,
    DAMAGE_TYPES,
    DEFAULT_HEALING,
    LETHAL,
    SEED_AIM_TARGETS,
    AimTarget,
    HealTime,
    Options,
)

HOUR, DAY, WEEK, MONTH = 1, 24, 7 * 24, 30 * 24
MAX_HEAL_HOURS = 5 * 365 * DAY  # five years: beyond it a level is no longer «healing»
AIM_DIFFICULTY = (1, 10)  # what an aimed attack may add to the difficulty
AIM_DAMAGE = (0, 10)  # the damage dice it may add

# unit prefixes, longest first («мес» before «м»); a bare «м» is a month, as «2м» in a table
_UNITS = (
    ("мес", MONTH),
    ("нед", WEEK),
    ("сут", DAY),
    ("ч", HOUR),
    ("д", DAY),
    ("н", WEEK),
    ("м", MONTH),
    ("h", HOUR),
    ("d", DAY),
    ("w", WEEK),
    ("mo", MONTH),
)
_DURATION_RE = re.compile(r"^(?P<sign>[-−])?\s*(?P<n>\d{1,6})\s*(?P<unit>[^\d\s.]+)\.?$")
_TYPE_PREFIXES = (("поверхн", BASHING), ("летал", LETHAL), ("усилив", AGGRAVATED))


def parse_duration(text: str) -> int:
    """Hours of «3д», «12 ч», «2 недели», «1 мес»; `bad_duration` when unreadable,
    `heal_time_range` when negative, zero or beyond MAX_HEAL_HOURS."""
    m = _DURATION_RE.match(fold(text))
    unit = next((h for p, h in _UNITS if m and m["unit"].startswith(p)), None)
    if m is None or unit is None:
        raise StorytellerError("bad_duration", {"fragment": text.strip()[:20]})
    hours = int(m["n"]) * unit * (-1 if m["sign"] else 1)
    if not 1 <= hours <= MAX_HEAL_HOURS:
        raise StorytellerError("heal_time_range", {"fragment": text.strip()[:20]})
    return hours


def format_duration(hours: int) -> str:
    """The shortest exact writing parse_duration reads back: «2мес», «1нед», «3д», «12ч»."""
    for unit, word in ((MONTH, "мес"), (WEEK, "нед"), (DAY, "д")):
        if hours % unit == 0:
            return f"{hours // unit}{word}"
    return f"{hours}ч"


def damage_type_of(word: str) -> str:
    """A damage type by its code or its Russian word (its start will do: «летал»)."""
    w = fold(word)
    if w in DAMAGE_TYPES:
        return w
    found = next((t for prefix, t in _TYPE_PREFIXES if len(w) >= 4 and prefix.startswith(w)), None)
    found = found or next((t for prefix, t in _TYPE_PREFIXES if w.startswith(prefix)), None)
    if found is None:
        raise StorytellerError("unknown_damage_type", {"fragment": word.strip()[:20]})
    return found


def level_of(options: Options, word: str) -> str:
    """A health level's code by its code, its name («Тяжело ранен») or its place (1 = the
    first level of the track)."""
    w = fold(word)
    levels = options.health
    if w.isdigit() and 1 <= int(w) <= len(levels):
        return levels[int(w) - 1].code
    found = next((h.code for h in levels if w in (h.code, fold(h.name))), None)
    if found is None:
        raise StorytellerError("unknown_level", {"fragment": word.strip()[:20]})
    return found


def set_heal_time(options: Options, damage_type: str, level: str, hours: int) -> Options:
    """The options with one row of the healing table changed (added if the table had none
    for this type and level)."""
    if damage_type not in DAMAGE_TYPES:
        raise StorytellerError("unknown_damage_type", {"fragment": damage_type[:20]})
    if level not in {h.code for h in options.health}:
        raise StorytellerError("unknown_level", {"fragment": level[:20]})
    if not 1 <= hours <= MAX_HEAL_HOURS:
        raise StorytellerError("heal_time_range", {"fragment": format_duration(hours)})
    row = HealTime(damage_type, level, hours)
    rows = [row if (r.damage_type, r.level) == (damage_type, level) else r for r in options.healing]
    if row not in rows:
        rows.append(row)
    return dataclasses.replace(options, healing=tuple(rows))


def aim_code(options: Options, word: str) -> str:
    """An aim target's code by its code or its name («Очень маленькая»)."""
    w = fold(word)
    found = next((t.code for t in options.aim_targets if w in (t.code, fold(t.name))), None)
    if found is None:
        raise StorytellerError("unknown_target", {"size": word.strip()[:20]})
    return found


def set_aim(options: Options, code: str, difficulty: int, damage: int) -> Options:
    """The options with one target of the aimed attacks' table changed: the difficulty it
    adds (AIM_DIFFICULTY) and the damage dice (AIM_DAMAGE)."""
    target = options.aim_target(code)
    if target is None:
        raise StorytellerError("unknown_target", {"size": code[:20]})
    low, high = AIM_DIFFICULTY
    if not low <= difficulty <= high:
        raise StorytellerError(
            "aim_difficulty_range", {"value": difficulty, "low": low, "high": high}
        )
    low, high = AIM_DAMAGE
    if not low <= damage <= high:
        raise StorytellerError("aim_damage_range", {"value": damage, "low": low, "high": high})
    new = AimTarget(target.code, difficulty, damage, target.name)
    rows = tuple(new if t.code == code else t for t in options.aim_targets)
    return dataclasses.replace(options, aim_targets=rows)


def default_healing(options: Options) -> Options:
    return dataclasses.replace(options, healing=DEFAULT_HEALING)


def default_aim(options: Options) -> Options:
    return dataclasses.replace(options, aim_targets=SEED_AIM_TARGETS)


def healing_is_default(options: Options) -> bool:
    return options.healing == DEFAULT_HEALING


def aim_is_default(options: Options) -> bool:
    return options.aim_targets == SEED_AIM_TARGETS
