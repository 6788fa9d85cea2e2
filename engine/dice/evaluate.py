"""Stage 3: AST -> compiled program -> ExpressionResult with every face.

A program runs in two steps:

* ``draw(rng)`` draws the raw faces of every dice term, in source order (rerolled and
  exploded faces included) — the only step that touches the RNG;
* ``build(faces)`` is pure: it replays the term rules over those faces and evaluates the
  arithmetic, producing the result dataclasses.

Compilation specialises both steps, so that a roll built from its faces costs little more
than its random draws and the few result objects it must create:

* each dice term gets a builder for its shape (plain, keep/drop, exploding, or the general
  walker for rerolls, successes and capped explosions); unflagged, dropped and exploded dice
  are interned, so a plain face costs a table lookup;
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
from operator import itemgetter
from typing import Any

from .errors import DiceError
from .limits import MAX_ABS_VALUE, MAX_EXTRA_DICE
from .parser import parse_command
from .results import (
    DiceGroup,
    Die,
    ExpressionResult,
    Literal,
    Token,
    expression_fields,
    expression_maker,
    group_fields,
    group_maker,
    make_die,
    make_expression,
    make_group,
    roll_fields,
)
from .rng import Rng
from .syntax import BinOp, Dice, Node, Num, Paren, Unary, dice_nodes, normalise

Faces = tuple[int, ...]  # a term's faces, or a fixed-count program's faces laid flat
Draw = Callable[[Rng], Faces]
Build = Callable[[Faces], DiceGroup]
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


# --- interned dice ------------------------------------------------------------------------
# Tables indexed by face value (index 0 unused). Results are frozen, so sharing is safe.

_PLAIN: dict[int, tuple[Die, ...]] = {}
_DROPPED: dict[int, tuple[Die, ...]] = {}
_EXPLODING: dict[int, tuple[Die, ...]] = {}


def plain_faces(sides: int) -> tuple[Die, ...]:
    """Unflagged dice."""
    faces = _PLAIN.get(sides)
    if faces is None:
        faces = _PLAIN[sides] = tuple(make_die(sides, v) for v in range(sides + 1))
    return faces


def dropped_faces(sides: int) -> tuple[Die, ...]:
    faces = _DROPPED.get(sides)
    if faces is None:
        faces = _DROPPED[sides] = tuple(make_die(sides, v, dropped=True) for v in range(sides + 1))
    return faces


def exploding_faces(sides: int) -> tuple[Die, ...]:
    """The dice of an exploding term below its cap: the maximum face is marked exploded."""
    faces = _EXPLODING.get(sides)
    if faces is None:
        ace = make_die(sides, sides, exploded=True)
        faces = _EXPLODING[sides] = (*plain_faces(sides)[:sides], ace)
    return faces


# --- dice terms: the general walker (rerolls, successes, capped explosions) ---------------


def _walk(node: Dice, next_face: Callable[[int, int], int]) -> tuple[list[list], bool]:
    """Run the draw rules (rerolls, then explosions) pulling faces from ``next_face``.
    Returns records ``[value, exploded, rerolled]`` in draw order and whether a cap hit."""
    s, reroll, once, explode = node.sides, node.reroll, node.reroll_once, node.explode
    records: list[list] = []
    extra = 0
    capped = False

    def draw() -> int:
        nonlocal extra, capped
        v = next_face(1, s)
        if reroll is not None:
            while reroll(v):
                if extra >= MAX_EXTRA_DICE:
                    capped = True
                    break
                records.append([v, False, True])
                extra += 1
                v = next_face(1, s)
                if once:
                    break
        return v

    for _ in range(node.count):
        rec = [draw(), False, False]
        records.append(rec)
        while explode and rec[0] == s:
            if extra >= MAX_EXTRA_DICE:
                capped = True
                break
            rec[1] = True
            extra += 1
            rec = [draw(), False, False]
            records.append(rec)
    return records, capped


def _group(node: Dice, notation: str, records: list[list], capped: bool) -> DiceGroup:
    """Keep/drop, then successes, over the walked records."""
    s = node.sides
    counted = [i for i, r in enumerate(records) if not r[2]]
    dropped: set[int] = set()
    if node.keep is not None:
        order = sorted(counted, key=lambda i: records[i][0])  # ascending, stable
        k, m = node.keep_n, len(order)
        if node.keep == "kh":
            dropped = set(order[: m - k])
        elif node.keep == "kl":
            dropped = set(order[k:])
        elif node.keep == "dh":
            dropped = set(order[m - k :])
        else:
            dropped = set(order[:k])

    scond, fcond = node.success, node.failure
    plain = plain_faces(s)
    dice: list[Die] = []
    total = successes = cancels = 0
    for i, (v, exploded, rerolled) in enumerate(records):
        is_dropped = i in dropped
        success = None
        cancel = False
        if not (rerolled or is_dropped):
            if scond is not None:
                success = scond(v)
                successes += success
                if fcond is not None and fcond(v):
                    cancel = True
                    cancels += 1
            else:
                total += v
        if exploded or is_dropped or rerolled or success is not None:
            dice.append(make_die(s, v, exploded, is_dropped, rerolled, success, cancel))
        else:
            dice.append(plain[v])
    if scond is not None:
        total = max(0, successes - cancels)  # successes never go below zero (documented)
    return make_group(notation, s, tuple(dice), total, capped, scond is not None, fcond is not None)


def _walk_build(node: Dice, notation: str) -> Build:
    def build(faces: Faces) -> DiceGroup:
        it = iter(faces)
        records, capped = _walk(node, lambda a, b: next(it))
        return _group(node, notation, records, capped)

    return build


# --- dice terms: specialised draws and builds ---------------------------------------------
# A fixed-count term reads its n faces at ``offset`` in the faces it is given (the program's
# flat faces); an exploding or rerolling term is given exactly its own faces.
#
# Hot loops are plain loops, not comprehensions or map(): in CPython 3.11 a comprehension
# allocates a function and a list, and map() calls randint from C (a fresh interpreter entry
# per face); small fixed shapes are spelt out.


def _draw_sides(sides: tuple[int, ...]) -> Draw:
    """One face per entry of ``sides``, in order."""
    if len(sides) == 1:
        s = sides[0]
        return lambda rng: (rng.randint(1, s),)

    def draw(rng: Rng) -> Faces:
        out = []
        for s in sides:
            out.append(rng.randint(1, s))
        return tuple(out)

    return draw


def _draw_exploding(n: int, s: int) -> Draw:
    def draw(rng: Rng) -> Faces:
        randint = rng.randint
        out: list[int] = []
        extra = 0
        for _ in range(n):
            v = randint(1, s)
            out.append(v)
            while v == s and extra < MAX_EXTRA_DICE:
                extra += 1
                v = randint(1, s)
                out.append(v)
        return tuple(out)

    return draw


def _build_plain(notation: str, n: int, s: int, offset: int) -> Build:
    make, table, end = group_maker(notation, s), plain_faces(s), offset + n
    if n == 1:  # the commonest term: make((table[v],), v) spelt out
        fixed = group_fields(notation, s)

        def build_one(faces: Faces) -> DiceGroup:
            v = faces[offset]
            group = _new(DiceGroup)
            fields = group.__dict__
            fields |= fixed
            fields["dice"] = (table[v],)
            fields["value"] = v
            return group

        return build_one
    if n == 2:
        second = offset + 1

        def build_two(faces: Faces) -> DiceGroup:
            a, b = faces[offset], faces[second]
            return make((table[a], table[b]), a + b)

        return build_two

    def build(faces: Faces) -> DiceGroup:
        mine = faces[offset:end]
        return make(itemgetter(*mine)(table), sum(mine))

    return build


def _build_keep(node: Dice, notation: str, offset: int) -> Build:
    n, s, k, end = node.count, node.sides, node.keep_n, offset + node.count
    # positions, in ascending face order, of the dice to drop
    lo, hi = {"kh": (0, n - k), "kl": (k, n), "dh": (n - k, n), "dl": (0, k)}[node.keep or ""]
    plain, out, positions = plain_faces(s), dropped_faces(s), range(n)
    make = group_maker(notation, s)

    def build(faces: Faces) -> DiceGroup:
        mine = faces[offset:end]
        order = sorted(positions, key=mine.__getitem__)  # stable: ties drop the earliest
        dice = list(itemgetter(*mine)(plain)) if n > 1 else [plain[mine[0]]]
        value = sum(mine)
        for i in order[lo:hi]:
            v = mine[i]
            dice[i] = out[v]
            value -= v
        return make(tuple(dice), value)

    return build


def _build_exploding(node: Dice, notation: str) -> Build:
    """Below the cap every maximum face exploded; at the cap, the general walker decides."""
    s, table, make = node.sides, exploding_faces(node.sides), group_maker(notation, node.sides)
    capped = _walk_build(node, notation)

    def build(faces: Faces) -> DiceGroup:
        if len(faces) == 1:  # one die that did not explode: the usual case
            v = faces[0]
            return make((table[v],), v)
        if faces.count(s) > MAX_EXTRA_DICE:
            return capped(faces)
        return make(itemgetter(*faces)(table), sum(faces))  # itemgetter(a, b)(t) = (t[a], t[b])

    return build


def _offset(build: Build, offset: int, n: int) -> Build:
    """A builder given its own faces, fed from ``offset`` of the program faces."""
    end = offset + n
    return lambda faces: build(faces[offset:end])


def _is_plain(node: Dice) -> bool:
    """Every face counted as rolled: no rerolls, explosions, keep/drop or successes."""
    return not (node.reroll or node.explode or node.keep or node.success)


def compile_term(node: Dice, offset: int = 0) -> tuple[Draw, Build]:
    """The term's draw, and its build reading the faces at ``offset`` (fixed counts only)."""
    n, s, notation = node.count, node.sides, node.notation()
    plain_only = node.keep is None and node.success is None
    if node.reroll is None and not node.explode:  # n faces
        if plain_only:  # = _is_plain(node)
            return _draw_sides((s,) * n), _build_plain(notation, n, s, offset)
        if node.success is None:
            return _draw_sides((s,) * n), _build_keep(node, notation, offset)
        return _draw_sides((s,) * n), _offset(_walk_build(node, notation), offset, n)
    if node.reroll is None:
        build = _build_exploding(node, notation) if plain_only else _walk_build(node, notation)
        return _draw_exploding(n, s), build

    def draw_walk(rng: Rng) -> Faces:
        return tuple([r[0] for r in _walk(node, rng.randint)[0]])

    return draw_walk, _walk_build(node, notation)


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
        if die.count == 1 and _is_plain(die):
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
        draw = _draw_sides(tuple(d.sides for d in nodes for _ in range(d.count)))
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
