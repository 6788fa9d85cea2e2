"""The README and .env.example tell the truth about the settings and docker/compose.yaml
(issue 27, item 7). CI has neither `docker compose` nor `docker-compose` (and no PyYAML), so
instead of `docker compose config` this reads the files as text: every variable the compose
file substitutes is in .env.example, the settings a compose worker needs are there, and
every setting of the code is in both halves of the README."""

from __future__ import annotations

import re
from pathlib import Path

from bot.settings import Settings
from webapp.config import WebAppConfig

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = (ROOT / "docker/compose.yaml").read_text(encoding="utf-8")
EXAMPLE = (ROOT / ".env.example").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")
# ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, $VAR (Compose's interpolation)
SUBSTITUTED = re.compile(r"(?<!\$)\$(?:\{([A-Za-z_][A-Za-z0-9_]*)[^}]*\}|([A-Za-z_][A-Za-z0-9_]*))")
# a setting in .env.example: "NAME=" or "# NAME=" at the start of a line
LISTED = re.compile(r"^#? ?([A-Z][A-Z0-9_]*)=", re.MULTILINE)
# what a webhook worker behind the proxy needs besides the token (docs/deploy.md)
WORKER_NEEDS = ("BOT_TOKEN", "WEBHOOK_URL", "PUBLIC_URL", "DOMAIN")


def listed() -> set[str]:
    return set(LISTED.findall(EXAMPLE))


def setting_names() -> set[str]:
    names = {name.upper() for name in Settings.model_fields}
    for field in WebAppConfig.model_fields.values():
        alias = field.validation_alias
        choices = getattr(alias, "choices", [alias])  # AliasChoices: the first is the name
        names.add(str(choices[0]))
    return names


def test_every_variable_the_compose_file_substitutes_is_in_the_example() -> None:
    found = {a or b for a, b in SUBSTITUTED.findall(COMPOSE)}
    assert found >= {"WORKERS", "DOMAIN"}  # the expression itself is read
    assert found <= listed(), found - listed()


def test_the_example_has_what_a_compose_worker_needs() -> None:
    assert "env_file: ../.env" in COMPOSE  # the workers read the root .env
    assert set(WORKER_NEEDS) <= listed(), set(WORKER_NEEDS) - listed()


def test_the_example_lists_every_setting_of_the_code() -> None:
    assert setting_names() <= listed(), setting_names() - listed()


def test_both_halves_of_the_readme_list_every_setting() -> None:
    russian, english = README.split("# Kosti (English)")
    names = setting_names() | {"DOMAIN", "WORKERS"}
    for half in (russian, english):
        missing = {n for n in names if f"`{n}`" not in half}
        assert not missing, missing


def test_the_readme_runs_compose_as_the_file_expects() -> None:
    # Compose substitutes DOMAIN and WORKERS from the project directory's .env (docker/)
    # unless told: the README's command names the root one.
    command = "docker compose --env-file .env -f docker/compose.yaml up --build -d"
    russian, english = README.split("# Kosti (English)")
    assert command in russian and command in english
    for half in (russian, english):
        assert "WEBHOOK_URL=https://<DOMAIN>/telegram/webhook" in half
        assert "PUBLIC_URL=https://<DOMAIN>" in half
