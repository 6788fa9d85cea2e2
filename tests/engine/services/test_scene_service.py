"""The one scene service (engine/services/scene_service.py) and the declarations every rule
system shares: a scene kind's registration decides what its commands are, a service refusal
is declared with its code and template, an engine refusal with its family and table."""

from __future__ import annotations

import pytest

from engine import describe, services
from engine.dice.rng import ScriptedRng
from engine.errors import RuleViolation
from engine.services import systems
from engine.services.errors import ERROR_CODES, Refused, UnknownScene
from engine.services.scene_service import scene_command, start_scene
from engine.store.models import Stream
from engine.storyteller import commands as st_cmd
from tests.engine.services.conftest import GM


async def test_a_command_of_another_system_is_refused_before_anything_is_read(
    game: services.GameInfo,
) -> None:
    await start_scene("encounter", game.id, actor_id=GM)
    with pytest.raises(TypeError, match="not a encounter command"):
        await scene_command(
            "encounter",
            game.id,
            st_cmd.StartTurn(),
            actor_id=GM,
            rng=ScriptedRng([]),
        )
    assert [s.key for s in await Stream.filter(game_id=game.id)] == ["encounter:1"]


async def test_a_kind_no_system_has_is_unknown(game: services.GameInfo) -> None:
    with pytest.raises(UnknownScene):
        await start_scene("nothing", game.id, actor_id=GM)


def test_every_installed_scene_kind_is_decided_by_the_shared_service_or_its_system() -> None:
    # the duel's scenes too, one per forum topic: its kind's scope is the topic
    shared = {kind.name for kind in systems.scene_kinds() if kind.decide is not None}
    assert shared == {"encounter", "chase", "st_fight", "duel"}
    scoped = {kind.name for kind in systems.scene_kinds() if kind.scope is not None}
    assert scoped == {"duel"}


def test_a_refusal_is_declared_with_its_code_and_template() -> None:
    class NoTest(Refused, code="no_test_scene", template="There is no test here: {name}."): ...

    try:
        assert NoTest(name="x").code == "no_test_scene"
        assert ERROR_CODES["no_test_scene"] == "There is no test here: {name}."
    finally:
        del ERROR_CODES["no_test_scene"]


def test_an_engine_refusal_is_declared_with_its_family_and_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the family is known for this test only (the catalogs list every known template)
    monkeypatch.setattr(describe, "_TABLES", dict(describe._TABLES))
    table = {"nope": "Not here."}

    class TestError(RuleViolation, family="test_rule_family", codes=table): ...

    error = TestError("nope")
    assert isinstance(error, ValueError)
    assert describe.known(error.description.code)
    with pytest.raises(KeyError):
        TestError("other")
