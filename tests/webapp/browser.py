"""Shared helpers of the browser tests and the benchmark: Debian's Chromium through
Playwright (never a downloaded browser)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = os.environ.get("KOSTI_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "webapp"
IN_CI = os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def chromium_path() -> str | None:
    path = Path(CHROMIUM)
    return str(path) if path.is_file() and os.access(path, os.X_OK) else None


# Each option's text of the select `selector` (canvas-measured in the select's font) and the
# select's inner width; an option is shown whole when `width + ARROW_AND_PADDING <= inner`.
OPTION_WIDTHS = """(selector) => {
  const select = document.querySelector(selector);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = getComputedStyle(select).font;
  const inner = select.clientWidth;
  return [...select.options].map((o) => [o.text, ctx.measureText(o.text).width, inner]);
}"""
ARROW_AND_PADDING = 32  # px a select's arrow and padding take from its width
