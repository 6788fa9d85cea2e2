"""Run ``python -m bot`` with a cProfile that records only between SIGUSR1 and the exit.

Run: ``python bench/profiled.py OUT`` (bench/pipeline.py's ``--profile OUT`` does): the start-up
(imports, pydantic's schemas, the migrations) is many times one update's work, and in a
profile of the whole process it hides the steady state; the bench sends SIGUSR1 once its
lanes are set up, and the statistics are written to OUT when the server exits."""

from __future__ import annotations

import cProfile
import signal
import sys
from pathlib import Path

# bench/ itself must not be on the path: its webapp.py would hide the package webapp.
sys.path[0] = str(Path(__file__).resolve().parents[1])


def main() -> int:
    out = Path(sys.argv[1])
    profiler = cProfile.Profile()
    signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
    from bot.__main__ import main as bot_main

    try:
        return bot_main([])
    finally:
        profiler.disable()
        profiler.dump_stats(out)


if __name__ == "__main__":
    sys.exit(main())
