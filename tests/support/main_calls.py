"""`python -m bot`'s `main()` called several times in one process, each with its own settings.

Run as `python -m tests.support.main_calls`: reads a JSON list of calls on stdin (`argv`,
`env`, `cwd`) and prints one JSON line per call — its exit status and what it wrote to
stdout and stderr (a traceback that escaped `main` included). Starting a Python process that
imports aiogram takes seconds on a small machine; the command-line tests share one
(tests/bot/test_main.py) rather than paying that once per check."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import os
import sys
import traceback
from typing import Any

CLEARED = ("BOT_", "KOSTI_")
CLEARED_NAMES = ("LOG_LEVEL", "LOG_FORMAT", "HOST", "PORT", "DATABASE_URL", "REDIS_URL")


def call(argv: list[str], env: dict[str, str], cwd: str) -> dict[str, Any]:
    from bot.__main__ import main

    for name in list(os.environ):
        if name.startswith(CLEARED) or name in CLEARED_NAMES:
            del os.environ[name]
    os.environ.update(env)
    os.chdir(cwd)  # where no .env is
    root = logging.getLogger()
    root.handlers.clear()  # each call configures logging afresh, as its own process would
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(argv)
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 1
        except BaseException:  # what a process would print as its traceback
            traceback.print_exc()
            status = 1
    root.handlers.clear()
    return {"status": status, "stdout": out.getvalue(), "stderr": err.getvalue()}


def run() -> None:
    for one in json.load(sys.stdin):
        print(json.dumps(call(one["argv"], one["env"], one["cwd"])), flush=True)


if __name__ == "__main__":
    run()
