"""Fields added to stored types after rows were written with them: left out of the JSON
while they hold their default, so an older event or state encodes again exactly as it was
written (the stored format is unchanged: tests/engine/services/test_legacy_db.py), and a
missing key reads as the default (engine/codec.py)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

Zero = Annotated[int, Field(exclude_if=lambda value: value == 0)]
Blank = Annotated[str, Field(exclude_if=lambda value: value == "")]
