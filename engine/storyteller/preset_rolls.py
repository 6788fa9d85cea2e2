"""`/p прыжок 4`: a preset of the seed's numbered actions rolled as a pool — the dice the
player counts, the action's difficulty unless one is given (`/p прыжок 4 сл 5`), and what
the successes mean (``explain``: a description, family ``st_preset``). A text that names
no preset is the plain pool (engine.storyteller.dice.pool).
"""

from __future__ import annotations

import contextlib
import dataclasses

from engine import describe
from engine.describe import Description
from engine.dice.errors import DiceError
from engine.dice.results import Serializable
from engine.dice.rng import Rng
from engine.storyteller.dice.results import PoolResult
from engine.storyteller.dice.rolls import PoolSpec, parse_pool, roll_pool

from . import presets as p

FAMILY = "st_preset"
TEMPLATES: dict[str, describe.Template] = {
    "climb": "Climbed {metres} m (3 m per success); keep rolling until the top.",
    "jump": "The jump reaches {up} cm up or {forward} m forward.",
    "jump_estimate": "The GM tells how many successes the jump needs.",
    "jump_catch": "Caught hold of the edge.",
    "lift": ("+{count} Strength for the feat.", "+{count} Strength for the feat."),
    "extended": (
        "{count} success towards the goal (an extended action: roll again and add up).",
        "{count} successes towards the goal (an extended action: roll again and add up).",
    ),
    "opposed": (
        "{count} success against the opponent's roll: more successes win.",
        "{count} successes against the opponent's roll: more successes win.",
    ),
    "shadow": (
        "{count} success against the roll of the one followed: a tie — they notice nothing.",
        "{count} successes against the roll of the one followed: a tie — they notice nothing.",
    ),
    "interrogation": (
        "{count} piece of information; more successes in total than the victim's "
        "Willpower — they tell everything.",
        "{count} pieces of information; more successes in total than the victim's "
        "Willpower — they tell everything.",
    ),
    "speech_prepared": "The speech's difficulty is lowered by {count}.",
    "pleasant": "The performance was pleasant, nothing more.",
    "memorable": "The performance is memorable.",
    "hacking": (
        "{count} die for the next work with the computer (at most the usual pool).",
        "{count} dice for the next work with the computer (at most the usual pool).",
    ),
    "investigation": ("{count} clue found.", "{count} clues found."),
    "research": "The basic information is found; each further success adds details.",
    "cover_tracks": "Following these tracks: difficulty +{count}.",
    "tracking": "The trail is followed.",
}
describe.register(FAMILY, TEMPLATES)

_MEANING = {
    "jump_catch": "jump_catch",
    "jump_estimate": "jump_estimate",
    "speech_prepared": "speech_prepared",
    "investigation": "investigation",
    "research": "research",
    "cover_tracks": "cover_tracks",
    "tracking": "tracking",
    "hacking": "hacking",
    "interrogation": "interrogation",
}


def split_preset(text: str) -> tuple[p.Preset, str] | None:
    """The preset the first words name (the longest name wins), and the rest."""
    words = text.split()
    for n in range(min(4, len(words)), 0, -1):
        found = p.find_preset(" ".join(words[:n]))
        if found is not None:
            return found, " ".join(words[n:])
    return None


def _spec(preset: p.Preset, name: str, rest: str) -> PoolSpec:
    if not rest.strip():
        raise DiceError("incomplete", position=len(name), fragment="")
    spec = parse_pool(rest)  # the player's own reading first: its errors are theirs
    count, _, after = rest.strip().partition(" ")
    with contextlib.suppress(DiceError):  # the action's difficulty unless the player gave one
        spec = parse_pool(f"{count} сл {preset.difficulty} {after}".strip())
    comment = f"{name}: {spec.comment}" if spec.comment else name
    return dataclasses.replace(spec, comment=comment)


def pool_or_preset(text: str, rng: Rng) -> PoolResult:
    """/p: a preset of the seed's actions, or a plain pool."""
    found = split_preset(text)
    if found is None:
        return roll_pool(parse_pool(text), rng)
    preset, rest = found
    words = text.split()
    name = " ".join(words[: len(words) - len(rest.split())])
    return roll_pool(_spec(preset, name, rest), rng)


def meaning(preset: p.Preset, net: int) -> Description | None:
    """What ``net`` successes of the preset mean (None: nothing beyond the roll's outcome)."""

    def d(key: str, **params: object) -> Description:
        return Description(f"{FAMILY}.{key}", params)

    if net <= 0:
        return None
    code = preset.code
    if code == "climb":
        return d("climb", metres=p.climb_metres(net))
    if code in ("jump", "running_jump"):
        up = int(p.jump_metres(net, up=True) * 100)
        return d("jump", up=up, forward=int(p.jump_metres(net, up=False)))
    if code == "lift":
        return d("lift", count=p.feat_strength([], net))
    if code == "performance":
        return d(p.performance_result(net))
    if code == "shadow":
        return d("shadow", count=net)
    if code in _MEANING:
        return d(_MEANING[code], count=net)
    if preset.kind == p.OPPOSED:
        return d("opposed", count=net)
    if preset.kind == p.EXTENDED:
        return d("extended", count=net)
    return None


def explain(text: str, result: Serializable) -> Description | None:
    """The meaning line of a `/p` roll that named a preset."""
    found = split_preset(text)
    if found is None or not isinstance(result, PoolResult):
        return None
    return meaning(found[0], result.net)
