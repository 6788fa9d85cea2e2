"""Every encounter event has one description (or is declared silent): a code with a template,
JSON-safe params that fill it, of the kinds the surfaces know."""

from __future__ import annotations

import json
import random

from engine import describe
from engine.savage import EVENT_TYPES, Event, RuleError
from engine.savage import describe as d

from .helpers import Game
from .test_replay_property import _cast, _random_command

# every kind a surface must render (engine/describe.py's own, and the encounter's)
SURFACE_KINDS = {
    describe.NAME, d.NAMES, d.STRONG_NAME, d.STRONG, d.TRAIT_ROLL, d.TRAIT_ROLLS,
    d.DAMAGE_ROLL, d.CARD_FACE, d.CARD_FACES, d.DEAL_RULES, d.TRAIT, d.CONDITION, d.SIGNED,
}  # fmt: skip


def _fight_log(seed: int) -> list[Event]:
    r = random.Random(seed)
    game = Game()
    ids = _cast(game)
    for _ in range(150):
        try:
            game.run(_random_command(r, ids), rng=r)
        except RuleError:
            continue
    return game.log


def test_every_event_type_is_described_or_silent() -> None:
    types = set(EVENT_TYPES.values())
    assert types == d.DESCRIBED | d.SILENT
    assert not d.DESCRIBED & d.SILENT


def test_the_descriptions_of_random_fights_fill_their_templates() -> None:
    seen: set[str] = set()
    for seed in range(12):
        for event in _fight_log(seed):
            description = d.describe_event(event)
            if description is None:  # a silent type, or an instance that says nothing
                continue
            assert type(event) not in d.SILENT
            code, params = description.code, dict(description.params)
            assert describe.known(code), code
            used = describe.placeholders(description.template)
            assert used <= set(params), code
            assert json.loads(json.dumps(params)) == params  # JSON-safe as they are
            for key in used:
                kind = describe.kind_of(code, key)
                if kind is not None and kind.startswith(describe.LABEL):
                    family = kind.removeprefix(describe.LABEL)
                    assert describe.known(describe.label_code(family, params[key]))
                else:
                    assert kind is None or kind in SURFACE_KINDS, (code, key, kind)
            seen.add(code)
    # the random fights say most of what an encounter can say
    assert {"encounter.rolled_at", "encounter.damage_rolled", "encounter.turn_started"} <= seen
    assert len(seen) >= 20, sorted(seen)


def test_ids_not_names_and_the_roll_as_its_dict() -> None:
    for event in _fight_log(3):
        description = d.describe_event(event)
        if description is not None and description.code == "encounter.rolled_at":
            params = description.params
            assert params["name"] == event.character and params["target"] == event.target  # type: ignore[attr-defined]
            assert params["roll"] == event.result.to_dict()  # type: ignore[attr-defined]
            return
    raise AssertionError("no aimed roll in the fight")
