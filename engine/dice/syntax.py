"""Stage 2 output: the abstract syntax tree of a dice expression."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Cond:
    """A face condition: ``op`` is one of = > >= < <=."""

    op: str
    value: int

    def __call__(self, face: int) -> bool:
        op, v = self.op, self.value
        if op == "=":
            return face == v
        if op == ">=":
            return face >= v
        if op == ">":
            return face > v
        if op == "<=":
            return face <= v
        return face < v

    def notation(self) -> str:
        return ("" if self.op == "=" else self.op) + str(self.value)


@dataclass(frozen=True, slots=True)
class Num:
    value: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Dice:
    count: int
    sides: int
    start: int
    end: int
    explode: bool = False
    keep: str | None = None  # "kh" | "kl" | "dh" | "dl"
    keep_n: int = 0
    reroll: Cond | None = None
    reroll_once: bool = False
    success: Cond | None = None
    failure: Cond | None = None

    def notation(self) -> str:
        out = [str(self.count) if self.count != 1 else "", "d", str(self.sides)]
        if self.reroll is not None:
            out += ["ro" if self.reroll_once else "r", self.reroll.notation()]
        if self.explode:
            out.append("!")
        if self.keep is not None:
            out += [self.keep, str(self.keep_n)]
        if self.success is not None:
            out.append(self.success.op + str(self.success.value))
        if self.failure is not None:
            out += ["f", self.failure.notation()]
        return "".join(out)


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # "-" or "+"
    operand: Node
    start: int


@dataclass(frozen=True, slots=True)
class BinOp:
    op: str  # + - * /
    left: Node
    right: Node
    start: int  # offset of the operator


@dataclass(frozen=True, slots=True)
class Paren:
    inner: Node
    start: int


Node = Num | Dice | Unary | BinOp | Paren


def normalise(node: Node) -> str:
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Dice):
        return node.notation()
    if isinstance(node, Unary):
        return node.op + normalise(node.operand)
    if isinstance(node, Paren):
        return "(" + normalise(node.inner) + ")"
    return normalise(node.left) + node.op + normalise(node.right)


def dice_nodes(node: Node) -> list[Dice]:
    if isinstance(node, Dice):
        return [node]
    if isinstance(node, Num):
        return []
    if isinstance(node, Unary):
        return dice_nodes(node.operand)
    if isinstance(node, Paren):
        return dice_nodes(node.inner)
    return dice_nodes(node.left) + dice_nodes(node.right)


def map_dice(node: Node, fn: Callable[[Dice], Node]) -> Node:
    """Rebuild the tree with every Dice node replaced by ``fn(dice)``."""
    if isinstance(node, Dice):
        return fn(node)
    if isinstance(node, Num):
        return node
    if isinstance(node, Unary):
        return Unary(node.op, map_dice(node.operand, fn), node.start)
    if isinstance(node, Paren):
        return Paren(map_dice(node.inner, fn), node.start)
    return BinOp(node.op, map_dice(node.left, fn), map_dice(node.right, fn), node.start)
