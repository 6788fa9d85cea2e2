"""A database written by an older version of the code still loads and plays on.

`tests/fixtures/legacy.sqlite3` was written through the services by
`tests/fixtures/make_legacy_db.py` with the hand-written codecs the shared codec replaced;
`legacy.json` is what that code read back from it. A copy is opened the way the runner does
(migrations first), and everything must read the same: every stream's state from its
snapshot and from its log, its history, the saved characters, the roll log. Then the game
goes on: an undo of the fight and of the chase, and new steps on both.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from engine import dice, savage, services
from engine.savage import chase
from engine.services import aggregates as agg
from engine.services import savage as swade
from engine.services.aggregates.model import aggregate_named
from engine.services.rolls import verify_roll
from engine.services.savage.aggregates import CHASE, ENCOUNTER
from engine.services.savage.characters import resolve_owner
from engine.store.db import close_db, init_db, migrate
from tests.conftest import DB_BACKEND

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
GM = 5_000_000_001

pytestmark = pytest.mark.skipif(
    DB_BACKEND != "sqlite", reason="the legacy file is SQLite; one backend per process"
)


@pytest.fixture
def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / "legacy.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture
async def legacy(tmp_path: Path) -> AsyncIterator[None]:
    path = tmp_path / "legacy.sqlite3"
    shutil.copyfile(FIXTURES / "legacy.sqlite3", path)
    url = f"sqlite://{path}"
    await migrate(url)  # as bot/runner.py does before serving
    ctx = await init_db(url)
    try:
        yield
    finally:
        await close_db(ctx)


def stream_of(recorded: dict[str, Any], kind: str) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in recorded["streams"] if s["aggregate"] == kind)
    return found


def test_the_fixture_covers_both_aggregates_and_is_small(recorded: dict[str, Any]) -> None:
    assert {s["aggregate"] for s in recorded["streams"]} == {"encounter", "chase"}
    assert (FIXTURES / "legacy.sqlite3").stat().st_size < 1_000_000


async def test_every_stream_reads_as_the_old_code_read_it(
    legacy: None, recorded: dict[str, Any]
) -> None:
    game_id = recorded["game_id"]
    streams = await agg.list_streams(game_id)
    assert [(s.key, s.aggregate) for s in streams] == [
        (s["key"], s["aggregate"]) for s in recorded["streams"]
    ]
    for info, old in zip(streams, recorded["streams"], strict=True):
        aggregate = aggregate_named(info.aggregate)
        state, seq = await agg.load(aggregate, game_id, info.key)  # from the snapshot
        rebuilt, _ = await agg.load(aggregate, game_id, info.key, rebuild=True)  # the log
        assert seq == old["seq"] and info.step == old["step"]
        assert aggregate.state_to_dict(state) == old["state"]
        assert rebuilt == state == aggregate.state_from_dict(old["state"])

        history = await agg.history(game_id, info.key)
        assert len(history) == len(old["history"])
        for step, was in zip(history, old["history"], strict=True):
            assert (step.step, step.kind, step.actor_id, step.undoes, step.undone_by) == (
                was["step"], was["kind"], was["actor_id"], was["undoes"], was["undone_by"],
            )  # fmt: skip
            assert list(step.events) == was["events"] and step.cause == was["cause"]
            if step.kind == "command":
                # The stored format is unchanged: decoding and encoding again is the identity.
                again = [aggregate.event_to_dict(aggregate.event_from_dict(e)) for e in step.events]
                assert again == was["events"]


async def test_characters_and_rolls_read_as_before(legacy: None, recorded: dict[str, Any]) -> None:
    game_id = recorded["game_id"]
    characters = await swade.list_characters(game_id)
    # the stored data reads as before; the sheet's text is today's (the chat's names, the
    # player by name) and reads back as the same character
    assert [
        {
            "name": r.name, "owner_id": r.owner_id, "count": r.count, "template": r.template,
            "character": r.character.to_dict(),
        }
        for r in characters
    ] == [{k: v for k, v in c.items() if k != "sheet"} for c in recorded["characters"]]  # fmt: skip
    for r in characters:
        spec = await resolve_owner(game_id, savage.parse_sheet(r.sheet))
        assert (spec.character, spec.count) == (r.character, r.count)
    assert any(r.template for r in characters)

    rolls = await services.recent_rolls(game_id, 100)
    assert [(r.id, r.command, r.args, r.hidden) for r in rolls] == [
        (r["id"], r["command"], r["args"], r["hidden"]) for r in recorded["rolls"]
    ]
    for record, was in zip(rolls, recorded["rolls"], strict=True):
        result = dice.result_from_dict(record.result)
        assert result.to_dict() == record.result == was["result"]
        assert (record.revealed_at is not None) == was["revealed"]
        if record.hidden:
            assert verify_roll(record)
    assert {r.kind for r in map(dice.result_from_dict, (r.result for r in rolls))} >= {
        "roll", "trait", "damage", "pool", "duel",
    }  # fmt: skip


async def test_the_old_game_goes_on(legacy: None, recorded: dict[str, Any]) -> None:
    game_id = recorded["game_id"]
    fight, run = stream_of(recorded, "encounter"), stream_of(recorded, "chase")
    rng = random.Random(11)

    # Undo the newest fight step: the state is the one before it, from the old log.
    last = max(s["step"] for s in fight["history"] if s["kind"] == "command" and not s["undone_by"])
    undone = await swade.undo_encounter(game_id, actor_id=GM)
    assert undone.undone_step == last
    rebuilt, _ = await agg.load(ENCOUNTER, game_id, fight["key"], rebuild=True)
    assert undone.state == rebuilt != ENCOUNTER.state_from_dict(fight["state"])

    # A new fight step on the old state.
    before = undone.state.character("ichigo").bennies
    out = await swade.encounter_command(
        game_id, savage.GiveBennies("ichigo", 2), actor_id=GM, rng=rng
    )
    assert out.state.character("ichigo").bennies == before + 2
    view = await swade.current_encounter(game_id)
    assert view is not None and view.state == out.state and view.seq == fight["seq"] + 2

    # The chase: undo its newest step left, then a new one.
    steps = await agg.history(game_id, run["key"])
    newest = max(s.step for s in steps if s.kind == "command" and s.undone_by is None)
    chased = await swade.undo_chase(game_id, actor_id=GM)
    assert chased.undone_step == newest
    assert chased.state == (await agg.load(CHASE, game_id, run["key"], rebuild=True))[0]
    moved = await swade.chase_command(
        game_id, chase.SetModifier("grimmdzho", -1), actor_id=GM, rng=rng
    )
    assert moved.state.participant("grimmdzho").modifier == -1
    loaded, _ = await agg.load(CHASE, game_id, run["key"], rebuild=True)
    assert loaded == moved.state

    # Every step, old and new, still decodes.
    for key, aggregate in ((fight["key"], ENCOUNTER), (run["key"], CHASE)):
        for step in await agg.history(game_id, key):
            if step.kind == "command":
                decoded = [aggregate.event_from_dict(e) for e in step.events]
                assert [aggregate.event_to_dict(e) for e in decoded] == list(step.events)
