"""With CI=true the PostgreSQL run must not be skipped silently: the server must answer."""

from __future__ import annotations

import pytest

from tests.conftest import IN_CI, POSTGRES_URL, postgres_reachable


@pytest.mark.skipif(not IN_CI, reason="only enforced with CI=true")
async def test_postgres_is_reachable_in_ci() -> None:
    reason = await postgres_reachable(POSTGRES_URL)
    assert reason is None, f"PostgreSQL at KOSTI_TEST_POSTGRES_URL unreachable: {reason}"
