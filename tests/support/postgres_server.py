"""A throwaway PostgreSQL cluster of the Debian packages (/usr/lib/postgresql/*/bin), as
./scripts/test starts one: in a temporary folder, on a free port of 127.0.0.1, durability off,
run as the postgres user when we are root. It can be stopped and started again (the tests of
the database restarting under a worker)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from tests.support.redis_server import free_port


class PostgresServer:
    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not found:
            raise FileNotFoundError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bin = found[-1].parent
        # a folder of its own: the postgres user must reach it (a caller's may be root's 0700)
        self.folder = Path(tempfile.mkdtemp(prefix="kosti-pg-"))
        self.data, self.port = self.folder / "data", free_port()
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.running = False
        self._initialised = False

    @property
    def url(self) -> str:
        return f"postgres://kosti:kosti@127.0.0.1:{self.port}/kosti"

    def _psql(self, *sql: str) -> subprocess.CompletedProcess[bytes]:
        command = [*self.as_user, str(self.bin / "psql"), "-X", "-q", "-h", "127.0.0.1",
                   "-p", str(self.port), "-U", "postgres", "-d", "postgres"]  # fmt: skip
        for statement in sql:
            command += ["-c", statement]
        return subprocess.run(command, capture_output=True)

    def start(self) -> None:
        if not self._initialised:
            self.data.mkdir()
            if self.as_user:
                shutil.chown(self.folder, "postgres")
                shutil.chown(self.data, "postgres")
            subprocess.run(
                [*self.as_user, str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                 "-A", "trust", "--no-locale", "-E", "UTF8"],
                check=True, capture_output=True,
            )  # fmt: skip
        options = f"-p {self.port} -h 127.0.0.1 -k {self.folder} -F -c synchronous_commit=off"
        subprocess.run(
            [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
             str(self.folder / "server.log"), "-w", "-t", "60", "-o", options, "start"],
            check=True, capture_output=True,
        )  # fmt: skip
        self.running = True
        deadline = time.monotonic() + 30
        while self._psql("SELECT 1").returncode != 0:
            if time.monotonic() > deadline:
                raise RuntimeError("the throwaway PostgreSQL did not start")
            time.sleep(0.1)
        if not self._initialised:
            self._psql(
                "CREATE ROLE kosti LOGIN PASSWORD 'kosti'", "CREATE DATABASE kosti OWNER kosti"
            ).check_returncode()
            self._initialised = True

    def stop(self) -> None:
        """A fast shutdown: the clients are cut off, as in a crash or a restart."""
        if self.running:
            subprocess.run(
                [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast",
                 "-w", "stop"],
                capture_output=True,
            )  # fmt: skip
            self.running = False

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
