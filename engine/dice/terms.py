"""Dice terms compiled: a term's draw (the only step that touches the RNG) and its build.

Each dice term gets a builder for its shape (plain, keep/drop, exploding, or the general
walker for rerolls, successes and capped explosions); unflagged, dropped and exploded dice
are interned, so a plain face costs a table lookup. The hottest builders fill a result's
``__dict__`` instead of calling a maker (see ``results.group_maker``; a call costs as much
as a third of an object). ``evaluate`` compiles the arithmetic around the terms.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter

from .limits import MAX_EXTRA_DICE
from .results import DiceGroup, Die, group_fields, group_maker, make_die, make_group
from .rng import Rng
from .syntax import Dice

Faces = tuple[int, ...]  # a term's faces, or a fixed-count program's faces laid flat
Draw = Callable[[Rng], Faces]
Build = Callable[[Faces], DiceGroup]

_new = object.__new__

# A walked face: [value, exploded, rerolled], the flags bools (a list: an explosion marks it)
Record = list[int]


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


def walk(node: Dice, next_face: Callable[[int, int], int]) -> tuple[list[Record], bool]:
    """Run the draw rules (rerolls, then explosions) pulling faces from ``next_face``.
    Returns records ``[value, exploded, rerolled]`` in draw order and whether a cap hit."""
    s, reroll, once, explode = node.sides, node.reroll, node.reroll_once, node.explode
    records: list[Record] = []
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


def _group(node: Dice, notation: str, records: list[Record], capped: bool) -> DiceGroup:
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
            dice.append(make_die(s, v, bool(exploded), is_dropped, bool(rerolled), success, cancel))
        else:
            dice.append(plain[v])
    if scond is not None:
        total = max(0, successes - cancels)  # successes never go below zero (documented)
    return make_group(notation, s, tuple(dice), total, capped, scond is not None, fcond is not None)


def walk_build(node: Dice, notation: str) -> Build:
    def build(faces: Faces) -> DiceGroup:
        it = iter(faces)
        records, capped = walk(node, lambda a, b: next(it))
        return _group(node, notation, records, capped)

    return build


# --- dice terms: specialised draws and builds ---------------------------------------------
# A fixed-count term reads its n faces at ``offset`` in the faces it is given (the program's
# flat faces); an exploding or rerolling term is given exactly its own faces.
#
# Hot loops are plain loops, not comprehensions or map(): in CPython 3.11 a comprehension
# allocates a function and a list, and map() calls randint from C (a fresh interpreter entry
# per face); small fixed shapes are spelt out.


def draw_sides(sides: tuple[int, ...]) -> Draw:
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
    capped = walk_build(node, notation)

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


def is_plain(node: Dice) -> bool:
    """Every face counted as rolled: no rerolls, explosions, keep/drop or successes."""
    return not (node.reroll or node.explode or node.keep or node.success)


def compile_term(node: Dice, offset: int = 0) -> tuple[Draw, Build]:
    """The term's draw, and its build reading the faces at ``offset`` (fixed counts only)."""
    n, s, notation = node.count, node.sides, node.notation()
    plain_only = node.keep is None and node.success is None
    if node.reroll is None and not node.explode:  # n faces
        if plain_only:  # = is_plain(node)
            return draw_sides((s,) * n), _build_plain(notation, n, s, offset)
        if node.success is None:
            return draw_sides((s,) * n), _build_keep(node, notation, offset)
        return draw_sides((s,) * n), _offset(walk_build(node, notation), offset, n)
    if node.reroll is None:
        build = _build_exploding(node, notation) if plain_only else walk_build(node, notation)
        return _draw_exploding(n, s), build

    def draw_walk(rng: Rng) -> Faces:
        return tuple([r[0] for r in walk(node, rng.randint)[0]])

    return draw_walk, walk_build(node, notation)
