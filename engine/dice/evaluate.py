"""Stage 3: AST -> compiled program -> ExpressionResult with every face.

A program runs in two steps:

* ``draw(rng)`` draws the raw faces of every dice term, in source order (rerolled and
  exploded faces included) — the only step that touches the RNG;
* ``build(faces)`` is pure: it replays the term rules over those faces and evaluates the
  arithmetic, producing the result dataclasses.

Because ``build`` is pure and results are frozen, a program memoises results by their faces
(bounded), and compiled programs are cached by text: a repeated command mostly costs its
random draws. ``build`` also replays a stored roll from its faces.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from itertools import pairwise

from .errors import DiceError
from .limits import MAX_ABS_VALUE, MAX_EXTRA_DICE
from .parser import parse_command
from .results import (
    DiceGroup,
    Die,
    ExpressionResult,
    Literal,
    Token,
    make_die,
    make_expression,
    make_group,
)
from .rng import Rng
from .syntax import BinOp, Dice, Node, Num, Paren, Unary, dice_nodes, normalise

Faces = tuple[int, ...]
Draw = Callable[[Rng], Faces]
Build = Callable[[Faces], DiceGroup]
Fn = Callable[[tuple[Faces, ...], list[Token]], int]

MEMO_LIMIT = 512  # results memoised per program

_PLAIN: dict[int, tuple[Die, ...]] = {}
_DROPPED: dict[int, tuple[Die, ...]] = {}


def plain_faces(sides: int) -> tuple[Die, ...]:
    """Interned unflagged dice (index = face value); frozen, so sharing is safe."""
    faces = _PLAIN.get(sides)
    if faces is None:
        faces = _PLAIN[sides] = tuple(make_die(sides, v) for v in range(sides + 1))
    return faces


def dropped_faces(sides: int) -> tuple[Die, ...]:
    faces = _DROPPED.get(sides)
    if faces is None:
        faces = _DROPPED[sides] = tuple(make_die(sides, v, dropped=True) for v in range(sides + 1))
    return faces


# --- dice terms ---------------------------------------------------------------------------


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


def compile_term(node: Dice) -> tuple[Draw, Build]:
    n, s, notation = node.count, node.sides, node.notation()
    plain = plain_faces(s)
    if not (node.explode or node.reroll or node.keep or node.success):
        if n == 1:

            def draw_one(rng: Rng) -> Faces:
                return (rng.randint(1, s),)

            def build_one(faces: Faces) -> DiceGroup:
                v = faces[0]
                return make_group(notation, s, (plain[v],), v)

            return draw_one, build_one

        def draw_plain(rng: Rng) -> Faces:
            randint = rng.randint
            return tuple([randint(1, s) for _ in range(n)])

        def build_plain(faces: Faces) -> DiceGroup:
            return make_group(notation, s, tuple([plain[v] for v in faces]), sum(faces))

        return draw_plain, build_plain

    if node.reroll is None and not node.explode:  # keep/drop or successes: n faces

        def draw_n(rng: Rng) -> Faces:
            randint = rng.randint
            return tuple([randint(1, s) for _ in range(n)])

        if node.success is None:  # keep/drop only: a direct build
            kind, k = node.keep, node.keep_n
            lo, hi = {"kh": (0, n - k), "kl": (k, n), "dh": (n - k, n), "dl": (0, k)}[kind or ""]
            out = dropped_faces(s)

            def build_keep(faces: Faces) -> DiceGroup:
                order = sorted(range(n), key=faces.__getitem__)  # ascending, stable
                gone = order[lo:hi]
                dice = tuple([out[v] if i in gone else plain[v] for i, v in enumerate(faces)])
                return make_group(notation, s, dice, sum(faces) - sum([faces[i] for i in gone]))

            return draw_n, build_keep
        draw = draw_n
    elif node.reroll is None:  # exploding only

        def draw_exploding(rng: Rng) -> Faces:
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

        draw = draw_exploding
    else:

        def draw_walk(rng: Rng) -> Faces:
            return tuple(r[0] for r in _walk(node, rng.randint)[0])

        draw = draw_walk

    def build(faces: Faces) -> DiceGroup:
        it = iter(faces)
        records, capped = _walk(node, lambda a, b: next(it))
        return _group(node, notation, records, capped)

    return draw, build


# --- arithmetic -----------------------------------------------------------------------------


def _too_large(node: BinOp) -> DiceError:
    return DiceError(
        "result_too_large", position=node.start, fragment=node.op, params={"limit": MAX_ABS_VALUE}
    )


def compile_node(node: Node, terms: list[tuple[Draw, Build]]) -> Fn:
    """Compile to ``f(faces, out) -> value``; dice terms are appended to ``terms`` in
    source order and read their faces by index."""
    if isinstance(node, Num):
        value, lit = node.value, Literal(str(node.value))

        def num(faces: tuple[Faces, ...], out: list[Token]) -> int:
            out.append(lit)
            return value

        return num
    if isinstance(node, Dice):
        index = len(terms)
        terms.append(compile_term(node))
        build = terms[index][1]

        def dice(faces: tuple[Faces, ...], out: list[Token]) -> int:
            group = build(faces[index])
            out.append(group)
            return group.value

        return dice
    if isinstance(node, Paren):
        inner, lo, lc = compile_node(node.inner, terms), Literal("("), Literal(")")

        def paren(faces: tuple[Faces, ...], out: list[Token]) -> int:
            out.append(lo)
            v = inner(faces, out)
            out.append(lc)
            return v

        return paren
    if isinstance(node, Unary):
        operand, lit, negate = compile_node(node.operand, terms), Literal(node.op), node.op == "-"

        def unary(faces: tuple[Faces, ...], out: list[Token]) -> int:
            out.append(lit)
            v = operand(faces, out)
            return -v if negate else v

        return unary
    return _compile_binop(node, terms)


def _compile_binop(node: BinOp, terms: list[tuple[Draw, Build]]) -> Fn:
    left = compile_node(node.left, terms)
    right = compile_node(node.right, terms)
    lit, op, lim = Literal(node.op), node.op, MAX_ABS_VALUE

    def binop(faces: tuple[Faces, ...], out: list[Token]) -> int:
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


class Program:
    """A compiled expression: ``evaluate(rng)`` = ``build(draw(rng))``.

    ``draw`` returns one tuple of faces per dice term. When no term rerolls or explodes the
    number of faces is fixed, so ``draw`` is a single flat comprehension and ``build`` splits
    the flat tuple back into terms.
    """

    __slots__ = ("comment", "counts_successes", "draws", "expression", "flat_sides",
                 "has_failures", "memo", "repeat", "run", "spans")  # fmt: skip

    def __init__(self, node: Node, *, comment: str = "", repeat: int = 1) -> None:
        nodes = dice_nodes(node)
        self.expression = normalise(node) if repeat == 1 else f"{repeat}#{normalise(node)}"
        self.comment = comment
        self.repeat = repeat
        self.counts_successes = any(d.success is not None for d in nodes)
        self.has_failures = any(d.failure is not None for d in nodes)
        terms: list[tuple[Draw, Build]] = []
        self.run = compile_node(node, terms)
        self.draws = tuple(d for d, _ in terms)
        self.memo: dict[tuple, ExpressionResult] = {}
        self.flat_sides: tuple[int, ...] | None = None
        self.spans: tuple[tuple[int, int], ...] = ()
        if not any(d.explode or d.reroll for d in nodes):
            self.flat_sides = tuple(d.sides for d in nodes for _ in range(d.count))
            ends = [0]
            for d in nodes:
                ends.append(ends[-1] + d.count)
            self.spans = tuple(pairwise(ends))

    def draw(self, rng: Rng) -> tuple:
        if self.flat_sides is not None:
            randint = rng.randint
            return tuple([randint(1, s) for s in self.flat_sides])
        return tuple([d(rng) for d in self.draws])

    def build(self, faces: tuple) -> ExpressionResult:
        """Pure: the result for faces from ``draw`` (memoised)."""
        result = self.memo.get(faces)
        if result is not None:
            return result
        per_term = faces
        if self.flat_sides is not None:
            per_term = tuple([faces[a:b] for a, b in self.spans])
        out: list[Token] = []
        total = self.run(per_term, out)
        botch = False
        if self.has_failures:
            groups = [t for t in out if isinstance(t, DiceGroup) and t.counts_successes]
            botch = sum(g.successes for g in groups) == 0 and sum(g.cancels for g in groups) > 0
        result = make_expression(total, tuple(out), self.counts_successes, botch)
        if len(self.memo) < MEMO_LIMIT:
            self.memo[faces] = result
        return result

    def evaluate(self, rng: Rng) -> ExpressionResult:
        return self.build(self.draw(rng))


def build_program(node: Node, *, comment: str = "", repeat: int = 1) -> Program:
    return Program(node, comment=comment, repeat=repeat)


@lru_cache(maxsize=256)
def program_for(text: str) -> Program:
    cmd = parse_command(text)
    return Program(cmd.expr, comment=cmd.comment, repeat=cmd.repeat)
