"""The inverse of the results' ``to_dict()``: ``engine.codec`` by the ``kind`` of the data."""

from __future__ import annotations

from typing import Any

from .results import RESULTS, Serializable


def result_from_dict(data: dict[str, Any]) -> Serializable:
    """Rebuild any result (or nested result part) from ``to_dict()`` output."""
    if not isinstance(data, dict) or "kind" not in data:
        raise ValueError("not a dice result")
    found: Serializable = RESULTS.from_data(data)
    return found
