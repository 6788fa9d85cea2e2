"""`python -m bot` without BOT_TOKEN: the playground. The real process (bot/runner.py: the
database, the dispatcher with its routers and middlewares, the web app, the outbox, the
chat hooks) runs with the playground's in-memory Bot API and its local token, on a fresh
SQLite file of its own that is removed when it stops."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import shutil
import socket
import sys
import tempfile
from pathlib import Path

from pydantic import SecretStr

from bot.playground.demo import lay_out
from bot.playground.play import Playground
from bot.playground.texts import dev_mode_line, listening_line, port_busy_line
from bot.playground.web import setup_playground
from bot.render.system import startup_failed_message
from bot.runner import run
from bot.settings import Settings
from webapp.dev import DevModeRefused

# web_app buttons need an HTTPS PUBLIC_URL; the page opens them on its own /app/ (this
# address is never requested: .invalid cannot resolve).
PUBLIC_URL = "https://kosti-playground.invalid"


def playground_settings(settings: Settings, token: str, folder: Path) -> Settings:
    return settings.model_copy(
        update={
            "bot_token": SecretStr(token),
            "database_url": f"sqlite://{folder / 'playground.sqlite3'}",
            "webhook_url": None,
            "public_url": PUBLIC_URL,
            "shutdown_timeout": min(settings.shutdown_timeout, 5.0),
        }
    )


def run_playground(settings: Settings, *, demo: bool = False) -> int:
    """Serve the playground until Ctrl+C; the exit status."""
    if not _port_free(settings.host, settings.port):  # told before anything starts
        print(
            port_busy_line(settings.host, settings.port, settings.default_locale), file=sys.stderr
        )
        return 1
    play = Playground()
    play.routes = lambda app: setup_playground(app, play)
    play.on_started.append(
        lambda: print(listening_line(play.url, settings.default_locale), flush=True)
    )
    if demo:
        play.on_started.append(lambda: play.spawn(lay_out(play)))
    folder = Path(tempfile.mkdtemp(prefix="kosti-playground-"))
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(playground_settings(settings, play.token, folder), playground=play))
    except DevModeRefused:  # the playground signs initData itself: no /dev/open beside it
        print(dev_mode_line(settings.default_locale), file=sys.stderr)
        return 2
    except OSError as error:
        locale = settings.default_locale
        if error.errno == errno.EADDRINUSE:
            print(port_busy_line(settings.host, settings.port, locale), file=sys.stderr)
        else:  # another address or port refused (HOST not on this machine, PORT=80…)
            print(startup_failed_message(str(error), locale), file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


def _port_free(host: str, port: int) -> bool:
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            # as asyncio's server binds: a port left in TIME_WAIT by the last run is free
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
    except OSError as error:
        return error.errno != errno.EADDRINUSE  # other refusals are told by the start-up
    return True
