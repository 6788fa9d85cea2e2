"""A system's refusals told by the shared middleware (bot/middlewares/refusals.py)."""

from __future__ import annotations

from bot.middlewares.refusals import Refusals


class Base(Exception):
    pass


class Special(Base):
    pass


def test_the_first_matching_type_tells_a_refusal() -> None:
    refusals = Refusals({Special: lambda e: f"special {e}", Base: lambda e: f"base {e}"})
    assert refusals.text_of(Special("a")) == "special a"
    assert refusals.text_of(Base("b")) == "base b"
    assert refusals.types == (Special, Base)


async def test_other_errors_pass_on() -> None:
    refusals = Refusals({Special: str})

    async def handler(event: object, data: dict[str, object]) -> None:
        raise KeyError("not a refusal")

    try:
        await refusals(handler, object(), {})  # type: ignore[arg-type]
    except KeyError as error:
        assert error.args == ("not a refusal",)
    else:
        raise AssertionError("a KeyError was swallowed")
