"""The one base of every user-facing refusal: a stable ``code`` of its family's table and
JSON-safe ``params``. The sentence is the family's English template (engine/describe.py), which
the chat and the Mini App translate; no user text is built here.

Families: ``dice`` (engine/dice/errors.py), ``service`` (engine/services/errors.py), and each
rule system's own (in its engine package, registered as its module is imported; its class
derives from `RuleViolation`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from engine import describe
from engine.describe import Description, Template


class CodedError(Exception):
    """``code`` is a key of ``codes`` (the family's templates); ``params`` fill it."""

    family: ClassVar[str] = ""
    codes: ClassVar[Mapping[str, Template]] = {}
    # a family whose table grows with the installed systems accepts any code (a code with
    # no template renders as the surface's generic refusal)
    strict: ClassVar[bool] = True

    def __init__(self, code: str, params: Mapping[str, Any] | None = None) -> None:
        if self.strict and code not in self.codes:  # a programming error, not a user one
            raise KeyError(f"unknown {self.family} error code {code!r}")
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        super().__init__(code, self.params)

    @property
    def description(self) -> Description:
        return Description(f"{self.family}.{self.code}", self.params)

    def __reduce__(self) -> tuple[Callable[..., CodedError], tuple[object, ...]]:
        # pickling (multiprocessing, caches) with keyword-only fields in subclasses
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


class RuleViolation(CodedError, ValueError):
    """A refusal of a rule system's engine (a command, a sheet). A ValueError, as the parsers'
    callers catch it. Each system's subclass names its family and its table, which become
    known as it is declared: ``class VoteError(RuleViolation, family="vote_rule",
    codes=ERROR_CODES)``."""

    def __init_subclass__(
        cls, *, family: str = "", codes: Mapping[str, Template] | None = None, **kwargs: object
    ) -> None:
        super().__init_subclass__(**kwargs)
        if family and codes is not None:
            cls.family, cls.codes = family, codes
            describe.register(family, codes)


def _rebuild(cls: type[CodedError], args: tuple[object, ...], fields: dict[str, Any]) -> CodedError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(fields)
    return error
