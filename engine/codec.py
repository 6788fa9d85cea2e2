"""One JSON codec for the engines' frozen dataclasses: states, events, dice results.

Built on pydantic's `TypeAdapter` (one per type, built once on first use): a dataclass is a
dict of its fields in declaration order, a tuple a list, None stays None. It names no rule
system; the engines register what is theirs next to their types:

- `scalar(Card, encode=..., decode=...)`: a value stored as a JSON scalar (a card as "AS",
  a trait die as "d12+1"); `Scalar(...)` does the same for one annotation
  (`Annotated[Fraction, Scalar(...)]`);
- `Tagged(key, tag_of)`: `Annotated[A | B, Tagged(...)]`, a union told apart by its
  data's `key` (the dice display tokens by "kind");
- `Family(key, classes)`: the top-level union of a stream's events (or of the dice
  results), `{key: <tag>, **fields}`, read back by the tag;
- `Coded`: a base giving `to_dict()` / `from_dict()` through this codec.

Reading is lenient like the hand-written codecs it replaces: a missing field takes its
default (events stored before the field existed), unknown keys are ignored, and scalars are
coerced as pydantic's lax mode does. Failures raise `ValueError`: pydantic's
`ValidationError`, or the error a scalar's decoder raised, as it was raised.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Self, TypeVar, overload

from pydantic import GetCoreSchemaHandler, TypeAdapter, ValidationError
from pydantic_core import CoreSchema, core_schema

T = TypeVar("T")

_MEMO_MAX = 4096  # decoded scalars kept per type (cards: 54; trait dice: a handful)


class Scalar(Generic[T]):
    """A value stored as the JSON scalar `encode(value)` and read back by `decode`, which is
    memoised (the values are immutable and few). A value already of `cls` passes as is."""

    __slots__ = ("schema",)

    def __init__(self, cls: type[T], encode: Callable[[T], object], decode: Callable[[Any], T]):
        memo: dict[object, T] = {}

        def read(value: object) -> T:
            if isinstance(value, cls):
                return value
            try:
                return memo[value]
            except KeyError:
                out = decode(value)
                if len(memo) < _MEMO_MAX:
                    memo[value] = out
                return out
            except TypeError:  # unhashable: not a scalar
                raise ValueError(f"not a {cls.__name__}: {value!r}") from None

        serialize = core_schema.plain_serializer_function_ser_schema(encode)
        self.schema = core_schema.no_info_plain_validator_function(read, serialization=serialize)

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        return self.schema


def scalar(cls: type[T], *, encode: Callable[[T], object], decode: Callable[[Any], T]) -> None:
    """Store every `cls` value, wherever a type hint names `cls`, as `encode(value)`."""
    hook = Scalar(cls, encode, decode)
    cls.__get_pydantic_core_schema__ = hook.__get_pydantic_core_schema__  # type: ignore[attr-defined]  # a hook set on any class


@dataclass(frozen=True)
class Tagged:
    """Annotated metadata of a union of dataclasses: the member is the one whose
    `tag_of(cls)` is the data's `key` value (on writing, the object's `key` attribute)."""

    key: str
    tag_of: Callable[[type], str]

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> CoreSchema:
        members = [m for m in typing.get_args(source) if m is not type(None)]
        choices: dict[str, CoreSchema] = {
            self.tag_of(m): handler.generate_schema(m) for m in members
        }
        return core_schema.tagged_union_schema(choices, discriminator=self.key)


def init_defaults(cls: type, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
    """A `__get_pydantic_core_schema__` for dataclasses without slots whose `init=False`
    fields keep their class default: decoded objects are built as `__init__` builds them,
    such fields left out of the instance `__dict__` (pydantic would store them)."""
    schema = handler(source)
    if "__slots__" in cls.__dict__:
        return schema
    names = tuple(
        f.name
        for f in dataclasses.fields(cls)
        if not f.init and f.default is not dataclasses.MISSING
    )
    if not names:
        return schema

    def strip(obj: object) -> object:
        fields = obj.__dict__
        for name in names:
            fields.pop(name, None)
        return obj

    return core_schema.no_info_after_validator_function(strip, schema)


class Codec(Generic[T]):
    """The JSON-safe data of one type and back."""

    __slots__ = ("_adapter", "_dump", "_dump_json", "_load")

    def __init__(self, tp: Any) -> None:
        self._adapter: TypeAdapter[T] = TypeAdapter(tp)
        self._dump = self._adapter.dump_python
        self._dump_json = self._adapter.dump_json
        self._load = self._adapter.validate_python

    def to_data(self, value: T) -> Any:
        return self._dump(value, mode="json")

    def to_json(self, value: T) -> str:
        """`to_data(value)` as JSON text, serialised by pydantic in one pass."""
        return self._dump_json(value).decode()

    def from_data(self, data: Any) -> T:
        try:
            return self._load(data)
        except ValidationError as exc:
            raise _own_error(exc) from None


def _own_error(exc: ValidationError) -> Exception:
    """A decoder's own error (a `Scalar`'s, e.g. the engine's error for a bad die) as it
    was raised, rather than wrapped by pydantic; else pydantic's error."""
    for error in exc.errors():
        cause = error.get("ctx", {}).get("error")
        if error["type"] == "value_error" and isinstance(cause, Exception):
            return cause
    return exc


_CODECS: dict[object, Codec[Any]] = {}  # a type hint -> its codec (each its own type)


@overload
def codec(tp: type[T]) -> Codec[T]: ...
@overload
def codec(tp: Any) -> Codec[Any]: ...  # a type hint (a union, an alias): its type is open


def codec(tp: Any) -> Codec[Any]:
    """The codec of `tp` (a class or any type hint pydantic understands), built once."""
    found = _CODECS.get(tp)
    if found is None:
        found = _CODECS.setdefault(tp, Codec(tp))
    return found


def to_data(value: Any) -> Any:
    """`value` (an instance of a dataclass) as JSON-safe data."""
    return codec(type(value)).to_data(value)


def from_data(tp: type[T], data: Any) -> T:
    return codec(tp).from_data(data)


class Family(Generic[T]):
    """The classes of one union, each with its tag, stored as `{key: tag, **fields}` (the
    tag first). `tag_in_fields`: the tag is a field of the classes already (the dice
    results' `kind`), so the data are the fields alone."""

    def __init__(
        self, key: str, classes: Mapping[str, type[T]], *, tag_in_fields: bool = False
    ) -> None:
        self.key = key
        self.classes = dict(classes)
        self._tags = {cls: tag for tag, cls in self.classes.items()}
        self._tag_in_fields = tag_in_fields

    def add(self, tag: str, cls: type[T]) -> None:
        """A member registered later (a plug-in's class); a tag is never reused."""
        if self.classes.get(tag, cls) is not cls:
            raise ValueError(f"{self.key} {tag!r} is taken")
        self.classes[tag] = cls
        self._tags[cls] = tag

    def to_data(self, value: T) -> dict[str, Any]:
        cls = type(value)
        data: dict[str, Any] = codec(cls).to_data(value)
        if self._tag_in_fields:
            return data
        return {self.key: self._tags[cls], **data}

    def prepare(self) -> None:
        """Build every member's adapter now (a first decode would otherwise pay for it)."""
        for cls in self.classes.values():
            codec(cls)

    def from_data(self, data: Mapping[str, Any]) -> T:
        try:
            cls = self.classes[data[self.key]]
        except (KeyError, TypeError):
            raise ValueError(f"unknown {self.key}: {data!r:.80}") from None
        out: T = codec(cls).from_data(data)
        return out


class Coded:
    """`to_dict()` and `from_dict()` of a dataclass through this codec."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = to_data(self)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        return from_data(cls, data)
