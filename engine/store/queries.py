"""Reads whose types Tortoise's annotations get wrong."""

from __future__ import annotations

from typing import Any, TypeVar

from tortoise.models import Model
from tortoise.queryset import QuerySet

M = TypeVar("M", bound=Model)


async def first_value(query: QuerySet[M], field: str) -> Any:
    """`field` of the query's first row; None when there is no row. Tortoise annotates a flat
    `values_list` of `.first()` as a tuple; it is the one column's value, of the model
    field's type, which the caller names (a real boundary: the database's row)."""
    return await query.first().values_list(field, flat=True)
