"""`python -m bot`'s command line: help, refusals and a busy port, each in one clear line (Russian
by default) with its exit status and no traceback. The checks share one process
(tests/support/main_calls.py); the playground's real start and Ctrl+C are
tests/bot/playground/test_main.py's."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
REAL_LOOKING = "7312345678:AAHfiqksKZ8WmR2zSjiQ7_v4TMAKdiHm9T0"


@dataclass(frozen=True)
class Outcome:
    status: int
    stdout: str
    stderr: str

    @property
    def clean(self) -> bool:
        return "Traceback" not in self.stdout + self.stderr


@dataclass(frozen=True)
class Calls:
    outcomes: dict[str, Outcome]
    process_stderr: str
    busy_port: int


def listening_socket() -> socket.socket:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    return taken


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Calls]:
    cwd = tmp_path_factory.mktemp("cli")  # no .env here
    taken = listening_socket()
    port = int(taken.getsockname()[1])
    bot_base = {"HOST": "127.0.0.1", "DATABASE_URL": f"sqlite://{cwd}/kosti.sqlite3"}
    playground = {"HOST": "127.0.0.1", "PORT": str(port + 1 if port < 65535 else 1)}
    wanted: dict[str, tuple[list[str], dict[str, str]]] = {
        "dev_real_token": ([], {"BOT_TOKEN": REAL_LOOKING, "KOSTI_DEV_INIT_DATA": "1"}),
        "dev_wrong_value": (
            [],
            {
                "BOT_TOKEN": REAL_LOOKING,
                "KOSTI_DEV_INIT_DATA": "1",
                "KOSTI_DEV_ALLOW_REAL_TOKEN": "x",
            },
        ),
        "malformed_token": ([], {"BOT_TOKEN": "not-a-token"}),
        "help_empty_token": (["--help"], {"BOT_TOKEN": ""}),
        "help_playground": (["--help"], playground),
        "playground_dev_mode": ([], playground | {"KOSTI_DEV_INIT_DATA": "1"}),
        "playground_busy_port": ([], {"HOST": "127.0.0.1", "PORT": str(port)}),
        "bot_busy_port": (
            [],
            bot_base
            | {
                "BOT_TOKEN": "123456:TEST-token",
                "BOT_API_URL": "http://127.0.0.1:9",  # never reached: the port fails first
                "PORT": str(port),
            },
        ),
    }
    plan = [{"argv": argv, "env": env, "cwd": str(cwd)} for argv, env in wanted.values()]
    base = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "KOSTI_"))}
    with taken:
        done = subprocess.run(
            [sys.executable, "-m", "tests.support.main_calls"],
            input=json.dumps(plan),
            cwd=cwd,
            env=base | {"PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=180,
        )
    lines: list[dict[str, Any]] = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == len(wanted), done.stderr
    outcomes = {name: Outcome(**line) for name, line in zip(wanted, lines, strict=True)}
    yield Calls(outcomes, done.stderr, port)


def test_dev_mode_with_a_real_token_is_refused_in_russian(calls: Calls):
    done = calls.outcomes["dev_real_token"]
    assert done.status == 2 and done.clean
    assert "Режим разработки" in done.stderr and "KOSTI_DEV_ALLOW_REAL_TOKEN=1" in done.stderr


def test_a_wrong_value_of_a_dev_setting_is_told_without_a_traceback(calls: Calls):
    done = calls.outcomes["dev_wrong_value"]
    assert done.status == 2 and done.clean
    assert "KOSTI_DEV_ALLOW_REAL_TOKEN" in done.stderr


def test_a_malformed_token_is_refused_without_a_traceback(calls: Calls):
    done = calls.outcomes["malformed_token"]
    assert done.status == 2 and done.clean
    assert "BOT_TOKEN не подходит" in done.stderr


def test_help_explains_the_settings_in_russian(calls: Calls):
    done = calls.outcomes["help_empty_token"]
    assert done.status == 0 and done.clean
    # what the token changes, the playground without it, and where every setting is listed
    for words in ("С BOT_TOKEN это бот в Telegram", "песочница", "--demo", ".env.example"):
        assert words in done.stdout, words


def test_help_without_a_token_names_the_playground_and_the_demo(calls: Calls):
    done = calls.outcomes["help_playground"]
    assert done.status == 0 and done.clean
    assert "BOT_TOKEN" in done.stdout and "@BotFather" in done.stdout
    # it names the playground and the demo tables (issue 27, item 7)
    assert "песочница" in done.stdout and "python -m bot --demo" in done.stdout
    assert "тесты не нужны" in done.stdout


def test_development_mode_beside_the_playground_is_refused_in_one_line(calls: Calls):
    done = calls.outcomes["playground_dev_mode"]
    assert done.status == 2 and done.clean
    assert done.stderr.strip() == (
        "Песочнице не нужен режим разработки: уберите KOSTI_DEV_INIT_DATA и запустите её снова."
    )


def test_a_busy_port_is_told_in_one_russian_line_by_the_playground(calls: Calls):
    done, port = calls.outcomes["playground_busy_port"], calls.busy_port
    assert done.status == 1 and done.clean
    assert done.stderr.strip() == (
        f"Песочница не запустилась: адрес 127.0.0.1:{port} уже занят другой программой. "
        f"Остановите её или выберите другой порт, например: PORT={port + 1} uv run python -m bot"
    )


def test_a_busy_port_is_one_line_without_a_traceback_for_the_bot(calls: Calls):
    """The web server's port is taken: the process says so and stops, with nothing half-done
    behind it (no background query cut off, whose thread would print a traceback)."""
    done, port = calls.outcomes["bot_busy_port"], calls.busy_port
    assert done.status == 1 and done.clean, done.stderr
    assert str(port) in done.stderr or "адрес" in done.stderr.lower(), done.stderr


def test_nothing_printed_a_traceback_behind_the_calls(calls: Calls):
    assert "Traceback" not in calls.process_stderr, calls.process_stderr
