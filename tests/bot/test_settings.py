"""The settings' reference: `.env.example` names every setting the process reads."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import AliasChoices

from bot.settings import Settings
from webapp.config import WebAppConfig

ROOT = Path(__file__).resolve().parents[2]


def read_settings() -> set[str]:
    names = {name.upper() for name in Settings.model_fields}
    for name, field in WebAppConfig.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            names.add(str(alias.choices[0]))
        else:
            names.add(str(alias or name).upper())
    return names


def test_env_example_lists_every_setting() -> None:
    text = (ROOT / ".env.example").read_text()
    listed = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", text, flags=re.MULTILINE))
    compose_only = {"DOMAIN", "WORKERS"}  # read by docker/compose.yaml (tests/test_docker.py)
    assert listed - compose_only == read_settings()


def test_the_readme_table_lists_every_setting_of_the_process() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = sorted(
        name for name in {n.upper() for n in Settings.model_fields} if f"`{name}`" not in readme
    )
    assert missing == []
