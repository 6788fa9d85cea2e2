"""The readings' seed sentences (engine/duel/options.py SEED_SENTENCES): one per reading,
each part quoted word for word from the seed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from engine.duel import DuelOptions
from engine.duel.options import SEED_SENTENCES

SEED = Path("/work/shared/seeds/003_cf068c12a73bf464.txt")  # outside the repository


def test_every_reading_quotes_its_seed_sentences() -> None:
    names = [f.name for f in dataclasses.fields(DuelOptions)]
    assert sorted(SEED_SENTENCES) == sorted(names)
    seed = " ".join(SEED.read_text(encoding="utf-8").split()) if SEED.exists() else None
    for name, quote in SEED_SENTENCES.items():
        parts = quote.split(" … ")
        assert all(p.strip() for p in parts), name
        for part in parts:
            assert seed is None or part.strip() in seed, (name, part)
