"""Stage 3: AST -> compiled program -> ExpressionResult with every face.

A program runs in two steps:

* ``draw(rng)`` draws the raw faces of every dice term, in source order (rerolled and
  exploded faces included) — the only step that touches the RNG;
* ``build(faces)`` is pure: it replays the term rules over those faces and evaluates the
  arithmetic, producing the result dataclasses.

Compilation specialises both steps, so that a roll built from its faces costs little more
than its random draws and the few result objects it must create:

* each dice term gets a builder for its shape (plain, keep/drop, exploding, or the general
  walker for rerolls, successes and capped explosions; ``terms.py``); unflagged, dropped and
  exploded dice are interned, so a plain face costs a table lookup;
* when no term rerolls or explodes, the number of faces is fixed: ``draw`` is one loop over
  the sides of every face and each term reads its faces at a fixed offset;
* an expression made only of ``+ - ( )``, numbers and dice terms (the usual ``d20+5``,
  ``2d6+1d8+3``) is evaluated as ``const + sum(±term)`` into a precomputed token layout;
  anything else runs the compiled tree, which checks every intermediate value.
* result objects are built by filling their ``__dict__`` (see ``results.group_maker``); the
  hottest builders spell that out instead of calling a maker (a call costs as much as a
  third of an object).

Both paths must give identical results: tests/engine/dice/test_evaluate.py compares them
with the general walker and the tree on random expressions.

Because ``build`` is pure and results are frozen, a program may memoise results by their
faces (bounded; ``MEMO_LIMIT``), and compiled programs are cached by text. ``build`` also
replays a stored roll from its faces.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .errors import DiceError
from .limits import MAX_ABS_VALUE, MAX_EXTRA_DICE
from .parser import parse_command
from .results import (
    DiceGroup,
    ExpressionResult,
    Literal,
    Token,
    expression_fields,
    expression_maker,
    group_fields,
    make_expression,
    roll_fields,
)
from .rng import Rng
from .syntax import BinOp, Dice, Node, Num, Paren, Unary, dice_nodes, normalise
from .terms import Build, Faces, compile_term, draw_sides, is_plain, plain_faces

# A program's faces: ``Faces``, or one ``Faces`` per term when a term rerolls or explodes
# (see _compile_terms). The shape is chosen when the program is compiled and its term
# readers are compiled for it; a type cannot tie the two, so the items stay open.
ProgramFaces = tuple[Any, ...]
ProgramDraw = Callable[[Rng], ProgramFaces]
TermReader = Callable[[ProgramFaces], DiceGroup]
ProgramBuild = Callable[[ProgramFaces], ExpressionResult]
Fn = Callable[[ProgramFaces, list[Token]], int]

_new = object.__new__

# Results memoised per program; read when a program is compiled (0: no memo, every result
# is built from its faces).
MEMO_LIMIT = 512


# --- arithmetic: the compiled tree ---------------------------------------------------------


def _too_large(node: BinOp) -> DiceError:
    return DiceError(
        "result_too_large", position=node.start, fragment=node.op, params={"limit": MAX_ABS_VALUE}
    )


def compile_node(node: Node, terms: list[TermReader]) -> Fn:
    """Compile to ``f(faces, out) -> value``, appending display tokens to ``out``. Dice
    terms take their builder from ``terms``, in source order."""
    if isinstance(node, Num):
        value, lit = node.value, Literal(str(node.value))

        def num(faces: ProgramFaces, out: list[Token]) -> int:
            out.append(lit)
            return value

        return num
    if isinstance(node, Dice):
        build = terms.pop(0)

        def dice(faces: ProgramFaces, out: list[Token]) -> int:
            group = build(faces)
            out.append(group)
            return group.value

        return dice
    if isinstance(node, Paren):
        inner, lo, lc = compile_node(node.inner, terms), Literal("("), Literal(")")

        def paren(faces: ProgramFaces, out: list[Token]) -> int:
            out.append(lo)
            v = inner(faces, out)
            out.append(lc)
            return v

        return paren
    if isinstance(node, Unary):
        operand, lit, negate = compile_node(node.operand, terms), Literal(node.op), node.op == "-"

        def unary(faces: ProgramFaces, out: list[Token]) -> int:
            out.append(lit)
            v = operand(faces, out)
            return -v if negate else v

        return unary
    return _compile_binop(node, terms)


def _compile_binop(node: BinOp, terms: list[TermReader]) -> Fn:
    left = compile_node(node.left, terms)
    right = compile_node(node.right, terms)
    lit, op, lim = Literal(node.op), node.op, MAX_ABS_VALUE

    def binop(faces: ProgramFaces, out: list[Token]) -> int:
        a = left(faces, out)
        out.append(lit)
        b = right(faces, out)
        if op == "+":
            r = a + b
        elif op == "-":
            r = a - b
        elif op == "*":
            r = a * b
        else:
            if b == 0:
                raise DiceError("division_by_zero", position=node.start, fragment="/")
            r = a // b  # integer division, floor (documented)
        if not -lim <= r <= lim:
            raise _too_large(node)
        return r

    return binop


def _tree_build(node: Node, terms: list[TermReader], counts_successes: bool) -> ProgramBuild:
    run = compile_node(node, list(terms))
    has_failures = any(d.failure is not None for d in dice_nodes(node))

    def build(faces: ProgramFaces) -> ExpressionResult:
        out: list[Token] = []
        total = run(faces, out)
        botch = False
        if has_failures:
            groups = [t for t in out if isinstance(t, DiceGroup) and t.counts_successes]
            botch = sum(g.successes for g in groups) == 0 and sum(g.cancels for g in groups) > 0
        return make_expression(total, tuple(out), counts_successes, botch)

    return build


# --- arithmetic: sums of terms ------------------------------------------------------------


class _NotLinear(Exception):
    pass


def _linear(node: Node) -> tuple[int, list[int]] | None:
    """``node`` as ``const + sum(sign_i * term_i)`` (signs in source order), or None when it
    multiplies, divides, or could exceed MAX_ABS_VALUE — the tree then checks every step.
    Below that bound no partial sum can exceed the limit, so no check is needed."""
    const, signs, bound = 0, [], 0

    def walk(n: Node, sign: int) -> None:
        nonlocal const, bound
        if isinstance(n, Num):
            const += sign * n.value
            bound += n.value
        elif isinstance(n, Dice):
            signs.append(sign)
            bound += (n.count + MAX_EXTRA_DICE) * n.sides  # counted faces never exceed this
        elif isinstance(n, Paren):
            walk(n.inner, sign)
        elif isinstance(n, Unary):
            walk(n.operand, -sign if n.op == "-" else sign)
        elif n.op in ("+", "-"):
            walk(n.left, sign)
            walk(n.right, sign if n.op == "+" else -sign)
        else:
            raise _NotLinear

    try:
        walk(node, 1)
    except _NotLinear:
        return None
    return (const, signs) if bound <= MAX_ABS_VALUE else None


# A term's place in a display template; every build replaces it with the term's group.
_SLOT = Literal("")


def _display(node: Node) -> list[Token]:
    """The display tokens in source order (as the tree emits them); _SLOT marks a term."""
    if isinstance(node, Num):
        return [Literal(str(node.value))]
    if isinstance(node, Dice):
        return [_SLOT]
    if isinstance(node, Paren):
        return [Literal("("), *_display(node.inner), Literal(")")]
    if isinstance(node, Unary):
        return [Literal(node.op), *_display(node.operand)]
    return [*_display(node.left), Literal(node.op), *_display(node.right)]


def _linear_build(
    node: Node, const: int, signs: list[int], terms: list[TermReader], counts_successes: bool
) -> ProgramBuild:
    template, make = _display(node), expression_maker(counts_successes)
    slots = [i for i, t in enumerate(template) if t is _SLOT]
    if len(terms) == 1:  # the commonest shape: one term (reading all faces) and constants
        (term,), (sign,), pos = terms, signs, slots[0]
        before, after = tuple(template[:pos]), tuple(template[pos + 1 :])
        (die,) = dice_nodes(node)
        if die.count == 1 and is_plain(die):
            return _one_die_build(die, const, sign, before, after)

        def build_single(faces: Faces) -> ExpressionResult:
            group = term(faces)
            return make(const + sign * group.value, (*before, group, *after))

        return build_single
    if len(terms) == 2:  # spelt out: no loop, list or copy
        (t1, t2), (s1, s2), (p1, p2) = terms, signs, slots
        a, b, c = tuple(template[:p1]), tuple(template[p1 + 1 : p2]), tuple(template[p2 + 1 :])

        def build_pair(faces: Faces) -> ExpressionResult:
            g1, g2 = t1(faces), t2(faces)
            return make(const + s1 * g1.value + s2 * g2.value, (*a, g1, *b, g2, *c))

        return build_pair
    plan = tuple(zip(slots, signs, terms, strict=True))

    def build(faces: ProgramFaces) -> ExpressionResult:
        tokens = template.copy()
        total = const
        for pos, sign, term in plan:
            group = tokens[pos] = term(faces)
            total += sign * group.value
        return make(total, tuple(tokens))

    return build


def _one_die_build(
    die: Dice, const: int, sign: int, before: tuple[Token, ...], after: tuple[Token, ...]
) -> Callable[[Faces], ExpressionResult]:
    """``d20+5`` and the like, the commonest roll: the term and the sum in one function,
    with both makers spelt out."""
    table, group_fixed = plain_faces(die.sides), group_fields(die.notation(), die.sides)
    fixed = expression_fields(False)

    def build_one_die(faces: Faces) -> ExpressionResult:
        v = faces[0]
        group = _new(DiceGroup)
        fields = group.__dict__
        fields |= group_fixed
        fields["dice"] = (table[v],)
        fields["value"] = v
        result = _new(ExpressionResult)
        fields = result.__dict__
        fields |= fixed
        fields["total"] = const + sign * v
        fields["tokens"] = before + (group,) + after  # noqa: RUF005 (cheaper than *)
        return result

    return build_one_die


# --- programs -----------------------------------------------------------------------------


def _compile_terms(nodes: list[Dice]) -> tuple[ProgramDraw, list[TermReader]]:
    """The program's draw and one builder per term, each reading the program's faces:

    * one term: the faces are that term's faces;
    * fixed counts (no explosions or rerolls): one flat tuple, each term reading at its offset;
    * otherwise: one tuple of faces per term.
    """
    if len(nodes) == 1:
        draw, build = compile_term(nodes[0])
        return draw, [build]
    if not any(d.explode or d.reroll for d in nodes):
        offsets = [sum(d.count for d in nodes[:i]) for i in range(len(nodes))]
        draw = draw_sides(tuple(d.sides for d in nodes for _ in range(d.count)))
        return draw, [compile_term(d, a)[1] for d, a in zip(nodes, offsets, strict=True)]
    terms = [compile_term(d) for d in nodes]
    draws = tuple(d for d, _ in terms)

    def draw_nested(rng: Rng) -> tuple[Faces, ...]:
        out: list[Faces] = []
        for d in draws:
            out.append(d(rng))
        return tuple(out)

    return draw_nested, [_nth(i, build) for i, (_, build) in enumerate(terms)]


def _nth(i: int, build: Build) -> TermReader:
    return lambda faces: build(faces[i])


class Program:
    """A compiled expression: ``evaluate(rng)`` = ``build(draw(rng))``.

    ``draw`` and ``build`` are specialised callables set at compile time (see the module
    docstring); ``build`` goes through the memo when ``MEMO_LIMIT`` > 0.
    """

    __slots__ = ("_build", "build", "comment", "counts_successes", "draw", "expression",
                 "memo", "repeat", "roll_fields")  # fmt: skip

    def __init__(self, node: Node, *, comment: str = "", repeat: int = 1) -> None:
        nodes = dice_nodes(node)
        self.expression = normalise(node) if repeat == 1 else f"{repeat}#{normalise(node)}"
        self.comment = comment
        self.repeat = repeat
        self.roll_fields = roll_fields(self.expression, comment)  # of its RollResult
        self.counts_successes = any(d.success is not None for d in nodes)
        self.draw, terms = _compile_terms(nodes)
        linear = _linear(node)
        if linear is not None and not any(d.failure is not None for d in nodes):
            self._build = _linear_build(node, *linear, terms, self.counts_successes)
        else:
            self._build = _tree_build(node, terms, self.counts_successes)
        self.memo: dict[ProgramFaces, ExpressionResult] = {}
        self.build = self._memo_build(MEMO_LIMIT) if MEMO_LIMIT > 0 else self._build

    def _memo_build(self, limit: int) -> ProgramBuild:
        memo, build = self.memo, self._build

        def memo_build(faces: ProgramFaces) -> ExpressionResult:
            """Pure: the result for faces from ``draw`` (memoised)."""
            result = memo.get(faces)
            if result is None:
                result = build(faces)
                if len(memo) < limit:
                    memo[faces] = result
            return result

        return memo_build

    def evaluate(self, rng: Rng) -> ExpressionResult:
        return self.build(self.draw(rng))


def build_program(node: Node, *, comment: str = "", repeat: int = 1) -> Program:
    return Program(node, comment=comment, repeat=repeat)


@lru_cache(maxsize=256)
def program_for(text: str) -> Program:
    cmd = parse_command(text)
    return Program(cmd.expr, comment=cmd.comment, repeat=cmd.repeat)
