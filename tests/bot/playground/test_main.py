"""`python -m bot` without a token is the playground: one Russian line with the address, the
page served, Ctrl+C (SIGINT) stops it with status 0; `--demo` lays out its tables. Its refusals
and help are checked without a start of their own (tests/bot/test_main.py)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def environment(port: int) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("BOT_", "KOSTI_"))}
    base.pop("LOG_LEVEL", None)
    return {**base, "PYTHONPATH": str(ROOT), "HOST": "127.0.0.1", "PORT": str(port)}


def start(tmp_path: Path, port: int, *args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        cwd=tmp_path,  # no .env here
        env=environment(port) | env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline()  # blocks until the server listens (or the process ends)
    assert line, process.stderr.read() if process.stderr else "no output"
    return line


def test_without_a_token_the_playground_serves_its_page_and_stops_on_ctrl_c(tmp_path: Path):
    port = free_port()
    process = start(tmp_path, port)
    try:
        line = wait_for_line(process)
        assert line.strip() == (
            f"Песочница Кости: http://127.0.0.1:{port}/ — откройте в браузере; Ctrl+C — остановить."
        )
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as response:
            page = response.read().decode()
        assert response.status == 200 and "/playground/static/play.js" in page
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            assert response.status == 200
        # An open page (its live feed) does not hold the stop back.
        with socket.create_connection(("127.0.0.1", port), timeout=10) as page:
            page.sendall(
                b"GET /playground/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                b"Sec-WebSocket-Version: 13\r\n\r\n"
            )
            assert page.recv(1024).startswith(b"HTTP/1.1 101")
            process.send_signal(signal.SIGINT)
            out, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert "Traceback" not in out + err
    assert out == ""  # the one line was all
    assert not (tmp_path / "data").exists()  # its database is a temporary file of its own


def test_demo_lays_out_every_table_at_start(tmp_path: Path):
    port = free_port()
    process = start(tmp_path, port, "--demo")
    try:
        wait_for_line(process)
        state: dict = {}
        deadline = time.monotonic() + 60  # the demo's commands run right after the start-up
        while time.monotonic() < deadline:
            url = f"http://127.0.0.1:{port}/playground/api/state"
            with urllib.request.urlopen(url, timeout=10) as response:
                state = json.load(response)
            shown = "\n".join(m["html"] for c in state["chats"] for m in c["messages"])
            # every demo table: the fight board, the attack for the GM, the sealed turn
            done = ("карты ещё не розданы", "ждёт решения ведущего", "ход 1 запечатан")
            if all(text in shown for text in done):
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"the demo tables are not laid out: {state}")
        assert "карты ещё не розданы" in str(state["chats"][0]["messages"])  # the main group
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0
