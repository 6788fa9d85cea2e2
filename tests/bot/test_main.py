"""`python -m bot` refuses development mode with a real token: a clear message, no traceback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REAL_LOOKING = "7312345678:AAHfiqksKZ8WmR2zSjiQ7_v4TMAKdiHm9T0"


def run_main(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "KOSTI_"))}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,  # no .env here
        env={**base, **env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_dev_mode_with_a_real_token_is_refused_in_russian(tmp_path: Path):
    done = run_main(tmp_path, BOT_TOKEN=REAL_LOOKING, KOSTI_DEV_INIT_DATA="1")
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert "Режим разработки" in done.stderr and "KOSTI_DEV_ALLOW_REAL_TOKEN=1" in done.stderr


def test_a_wrong_value_of_a_dev_setting_is_told_without_a_traceback(tmp_path: Path):
    done = run_main(
        tmp_path, BOT_TOKEN=REAL_LOOKING, KOSTI_DEV_INIT_DATA="1", KOSTI_DEV_ALLOW_REAL_TOKEN="x"
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert "KOSTI_DEV_ALLOW_REAL_TOKEN" in done.stderr


def test_a_busy_port_is_one_line_without_a_traceback(tmp_path: Path):
    """The web server's port is taken: the process says so and stops, with nothing half-done
    behind it (no background query cut off, whose thread would print a traceback)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_main(
            tmp_path,
            BOT_TOKEN="123456:TEST-token",
            BOT_API_URL="http://127.0.0.1:9",  # never reached: the port fails first
            HOST="127.0.0.1",
            PORT=str(port),
            DATABASE_URL=f"sqlite://{tmp_path}/kosti.sqlite3",
        )
    assert done.returncode == 1
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert str(port) in done.stderr or "адрес" in done.stderr.lower(), done.stderr
