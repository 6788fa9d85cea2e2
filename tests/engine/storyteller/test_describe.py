"""Every event of the scripted fight says known templates, each placeholder given."""

from __future__ import annotations

from engine import describe
from engine.storyteller.describe import describe_event

from .test_fight import new_game, play


def test_the_fight_tells_its_story_in_known_templates() -> None:
    g = new_game()
    play(g)
    seen = set()
    for e in g.log:
        for d in describe_event(e):
            assert describe.known(d.code), d.code
            assert describe.placeholders(d.template) <= set(d.params), d
            for key, value in d.params.items():
                kind = describe.kind_of(d.code, key)
                if kind and kind.startswith(describe.LABEL):
                    assert describe.known(f"{kind[len(describe.LABEL) :]}.{value}"), value
            seen.add(d.code.split(".")[1])
    expected = {
        "fighter_added",
        "ambush_won",
        "turn_started",
        "delayed",
        "actions_declared",
        "interrupt_success",
        "attack",
        "defense",
        "missed",
        "hit",
        "damage",
        "soak",
        "wounded",
        "acted_from_delay",
        "counter",
        "full_defense",
        "overflow",
        "incapacitated",
        "armor_destroyed",
    }
    assert expected <= seen, expected - seen
