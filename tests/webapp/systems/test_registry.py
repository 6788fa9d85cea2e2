"""The registry of the rule systems' web adapters (webapp/systems/registry.py)."""

from __future__ import annotations

import re

import pytest

from engine.services import systems
from webapp.errors import ERRORS, register_errors
from webapp.static_files import STATIC_DIR as STATIC
from webapp.systems import registry
from webapp.systems.registry import (
    WebScene,
    WebSystem,
    adapter,
    adapters,
    register,
    scene_kinds,
    scene_of_topic,
)


async def _nothing(game_id, read):  # type: ignore[no-untyped-def]
    return None


def test_every_adapter_is_of_an_installed_system_with_its_scene_kinds():
    for web in adapters():
        engine_kinds = {kind.name for kind in systems.scene_kinds(web.code)}
        assert {scene.kind for scene in web.scenes} <= engine_kinds
        for scene in web.scenes:
            assert scene_of_topic(scene.topic) is scene
            assert web.scene(scene.kind) is scene
        assert set(web.errors) <= set(ERRORS)  # its codes joined the shared table
    assert "savage" in {web.code for web in adapters()}


def test_a_system_without_an_adapter_has_the_dice_only():
    bare = adapter("gurps")  # every installed system has one now
    assert bare == WebSystem("gurps")
    assert bare.scenes == () and bare.characters is None and bare.scene("encounter") is None
    assert scene_of_topic("game") is None and scene_of_topic("roll") is None


def test_a_code_is_registered_once():
    before = adapters()
    with pytest.raises(ValueError, match="registered already"):
        register(WebSystem("savage"))
    assert adapters() == before and adapter("savage") is before[0]


def test_only_installed_systems_and_their_own_scene_kinds(monkeypatch: pytest.MonkeyPatch):
    with pytest.raises(ValueError, match="not an installed rule system"):
        register(WebSystem("gurps"))
    own = adapter("storyteller")
    monkeypatch.delitem(registry._SYSTEMS, "storyteller")  # as if not registered yet
    borrowed = WebScene("encounter", {}, _nothing, lambda data, viewer: None, "st-encounter")
    with pytest.raises(ValueError, match="no scene kind"):
        register(WebSystem("storyteller", scenes=(borrowed,)))
    monkeypatch.undo()
    assert adapter("storyteller") is own and "st-encounter" not in scene_kinds()


def test_error_codes_keep_their_meaning():
    register_errors({"not_found": ERRORS["not_found"]})  # the same entry again: fine
    with pytest.raises(ValueError, match="not_found"):
        register_errors({"not_found": (410, "Gone.")})
    assert ERRORS["not_found"][0] == 404


def test_the_pages_registry_loads_each_adapters_module():
    """static/app/systems/index.js registers each system's entry (its system.js: code ->
    module, relative to it) and agrees with the adapters."""
    app = STATIC / "app"
    text = (app / "systems" / "index.js").read_text(encoding="utf-8")
    folders = re.findall(r'^import \w+ from "\./(\w+)/system\.js";', text, re.M)
    entries, named = {}, set()
    for folder in folders:
        entry = (app / "systems" / folder / "system.js").read_text(encoding="utf-8")
        code = re.search(r'^\s*code: "(\w+)",', entry, re.M)
        module = re.search(r'^\s*module: new URL\("\./([^"]+)", import\.meta\.url\)', entry, re.M)
        assert code and module, folder
        entries[code.group(1)] = f"{folder}/{module.group(1)}"
        if re.search(r"^\s*name: \(\) => t\(", entry, re.M):
            named.add(code.group(1))
    served = {web.code: web.module for web in adapters() if web.module}
    assert {code: f"systems/{path}" for code, path in entries.items()} == served
    for module in served.values():
        assert (app / module).is_file(), module
    assert set(systems.codes()) <= named  # every installed system has a name on the page
