"""One base for every refusal: a code of its family's table and params, picklable."""

from __future__ import annotations

import pickle

import pytest

from engine import describe
from engine.dice import DiceError
from engine.errors import CodedError
from engine.savage import RuleError
from engine.savage.chase import ChaseError
from engine.services.errors import NoRoll, ServiceError
from engine.services.savage.errors import NoEncounter

ERRORS = [
    DiceError("too_long", position=3, fragment="2d6+" * 10, params={"limit": 20}),
    RuleError("bad_group_size", {"max": 4}),
    ChaseError("flee_too_close", {"required": 4}, distance=3),
    NoRoll(roll_id=7),
    NoEncounter(game_id=1),
]


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_each_family_derives_from_the_one_base(error: CodedError) -> None:
    assert isinstance(error, CodedError)
    description = error.description
    assert description.code == f"{error.family}.{error.code}"
    assert describe.known(description.code)
    assert dict(description.params) == error.params
    assert describe.placeholders(description.template) <= set(error.params)


@pytest.mark.parametrize("error", ERRORS, ids=lambda e: type(e).__name__)
def test_errors_survive_pickling(error: CodedError) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert (copy.code, copy.params, str(copy)) == (error.code, error.params, str(error))
    if isinstance(error, DiceError):
        assert isinstance(copy, DiceError)
        assert (copy.position, copy.fragment) == (3, error.fragment) and len(copy.fragment) == 20


def test_engine_refusals_stay_value_errors() -> None:
    # callers catch the parsers' refusals as ValueError (sheet imports, dice in commands)
    for cls in (DiceError, RuleError, ChaseError):
        assert issubclass(cls, ValueError)
    assert not issubclass(ServiceError, ValueError)


def test_a_strict_family_refuses_an_unknown_code() -> None:
    for make in (lambda: DiceError("nope"), lambda: RuleError("nope"), lambda: ChaseError("x")):
        with pytest.raises(KeyError):
            make()
    # the services' table grows with the installed systems: any code, rendered generically
    assert not describe.known(ServiceError("no_such_code").description.code)
