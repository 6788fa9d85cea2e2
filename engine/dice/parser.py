"""Stage 2: tokens -> AST (recursive descent) plus the repeat count and the comment.

Grammar (spaces allowed between tokens, but not inside a dice term)::

    command := [NUM '#'] expr [comment]
    expr    := term (('+' | '-') term)*
    term    := unary (('*' | '/') unary)*
    unary   := ('+' | '-') unary | primary
    primary := NUM | dice | '(' expr ')'
    dice    := [NUM] DICE (NUM | '%') modifier*
    modifier:= ('!' | 'x') | ('kh'|'kl'|'k'|'dh'|'dl') NUM | ('r'|'ro') [CMP] NUM
             | CMP NUM | 'f' [CMP] NUM

The comment is the rest of the text after the expression, which must be separated from it
by whitespace (or start with ``, ; :``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import DiceError
from .lexer import T, Tok, tokenize
from .limits import (
    MAX_DEPTH,
    MAX_DICE_PER_TERM,
    MAX_DICE_TOTAL,
    MAX_EXPRESSION_CHARS,
    MAX_INPUT_CHARS,
    MAX_NUMBER,
    MAX_REPEATS,
    MAX_SIDES,
)
from .syntax import BinOp, Cond, Dice, Node, Num, Paren, Unary

_KEEP_WORDS = {"kh": "kh", "k": "kh", "kl": "kl", "dh": "dh", "dl": "dl"}
_COMMENT_PUNCT = ",;:"


@dataclass(frozen=True, slots=True)
class Command:
    repeat: int
    expr: Node
    comment: str
    expr_start: int
    expr_end: int
    rest_start: int  # where the text after the expression begins (len(text) if none)


def check_length(text: str) -> None:
    if len(text) > MAX_INPUT_CHARS:
        raise DiceError(
            "too_long",
            position=MAX_INPUT_CHARS,
            fragment=text[MAX_INPUT_CHARS : MAX_INPUT_CHARS + 20],
            params={"limit": MAX_INPUT_CHARS},
        )


def parse_command(text: str, *, allow_repeat: bool = True) -> Command:
    check_length(text)
    return _Parser(text).command(allow_repeat)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = tokenize(text)
        self.i = 0
        self.total_dice = 0

    # -- helpers ---------------------------------------------------------------------

    def peek(self, k: int = 0) -> Tok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self) -> Tok:
        tok = self.toks[self.i]
        if tok.type is not T.END:
            self.i += 1
        return tok

    def error(
        self, code: str, tok: Tok, *, start: int | None = None, **params: object
    ) -> DiceError:
        start = tok.start if start is None else start
        end = max(tok.end, start + 1)
        return DiceError(code, position=start, fragment=self.text[start:end], params=params)

    def unexpected(self, tok: Tok) -> DiceError:
        if tok.type is T.END:
            return DiceError("incomplete", position=len(self.text), fragment="")
        return self.error("unexpected", tok)

    def number(self, tok: Tok) -> int:
        if tok.value is None:
            raise self.error("number_too_large", tok, limit=MAX_NUMBER)
        return tok.value

    def adjacent_number(self) -> Tok:
        tok = self.peek()
        if tok.type is T.NUM and not tok.space_before:
            return self.take()
        raise self.unexpected(tok)

    # -- grammar ---------------------------------------------------------------------

    def command(self, allow_repeat: bool) -> Command:
        first = self.peek()
        if first.type is T.END:
            raise DiceError("empty", position=0, fragment="")
        repeat = 1
        if allow_repeat and first.type is T.NUM and self.peek(1).type is T.HASH:
            self.take()
            self.take()
            if first.value is None or first.value > MAX_REPEATS:
                raise self.error("too_many_repeats", first, limit=MAX_REPEATS)
            if first.value == 0:
                raise self.error("bad_count", first)
            repeat = first.value
        expr_start = self.peek().start
        expr = self.expr(0)
        expr_end = self.toks[self.i - 1].end
        if expr_end - expr_start > MAX_EXPRESSION_CHARS:
            raise DiceError(
                "too_long",
                position=expr_start + MAX_EXPRESSION_CHARS,
                fragment=self.text[expr_start + MAX_EXPRESSION_CHARS :],
                params={"limit": MAX_EXPRESSION_CHARS},
            )
        tok = self.peek()
        if tok.type is T.END:
            return Command(repeat, expr, "", expr_start, expr_end, len(self.text))
        if not self._comment_may_start(tok):
            raise self.unexpected(tok)
        comment = self.text[tok.start :].strip().lstrip("-—–,;:").strip()
        return Command(repeat, expr, comment, expr_start, expr_end, tok.start)

    def _comment_may_start(self, tok: Tok) -> bool:
        if tok.type is T.WORD and tok.text in _COMMENT_PUNCT:
            return True
        if not tok.space_before:
            return False
        if tok.type is T.OP:  # only the " - comment" form left by expr()
            return tok.text == "-"
        if tok.type in (T.DICE, T.MOD):
            nxt = self.peek(1)
            # "2 d6" or "2d6 kh1" look like notation; refuse rather than guess
            return nxt.space_before or nxt.type not in (T.NUM, T.PCT, T.CMP)
        return tok.type in (T.WORD, T.NUM, T.LPAREN)

    def expr(self, depth: int) -> Node:
        node = self.term(depth)
        while True:
            tok = self.peek()
            if tok.type is not T.OP or tok.text not in "+-":
                return node
            nxt = self.peek(1)
            if tok.space_before and nxt.space_before and nxt.type is T.WORD:
                return node  # "2d6 - удар мечом": a dash before a comment
            self.take()
            node = BinOp(tok.text, node, self.term(depth), tok.start)

    def term(self, depth: int) -> Node:
        node = self.unary(depth)
        while True:
            tok = self.peek()
            if tok.type is not T.OP or tok.text not in "*/":
                return node
            self.take()
            node = BinOp(tok.text, node, self.unary(depth), tok.start)

    def unary(self, depth: int) -> Node:
        tok = self.peek()
        if tok.type is T.OP and tok.text in "+-":
            if depth >= MAX_DEPTH:
                raise self.error("too_deep", tok, limit=MAX_DEPTH)
            self.take()
            return Unary(tok.text, self.unary(depth + 1), tok.start)
        return self.primary(depth)

    def primary(self, depth: int) -> Node:
        tok = self.take()
        if tok.type is T.NUM:
            nxt = self.peek()
            if nxt.type is T.DICE and not nxt.space_before:
                self.take()
                return self.dice(tok, nxt)
            return Num(self.number(tok), tok.start, tok.end)
        if tok.type is T.DICE:
            return self.dice(None, tok)
        if tok.type is T.LPAREN:
            if depth >= MAX_DEPTH:
                raise self.error("too_deep", tok, limit=MAX_DEPTH)
            inner = self.expr(depth + 1)
            close = self.peek()
            if close.type is T.RPAREN:
                self.take()
                return Paren(inner, tok.start)
            if close.type is T.END or close.space_before:
                raise self.error("unclosed_paren", tok)
            raise self.unexpected(close)
        if tok.type is T.END:
            raise self.unexpected(tok)
        self.i -= 1
        raise self.unexpected(tok)

    def dice(self, count_tok: Tok | None, dice_tok: Tok) -> Dice:
        start = (count_tok or dice_tok).start
        sides = self.sides()

        def fail(code: str, **params: object) -> DiceError:
            end = self.toks[self.i - 1].end
            return DiceError(code, position=start, fragment=self.text[start:end], params=params)

        count = 1 if count_tok is None else count_tok.value
        if count is None or count > MAX_DICE_PER_TERM:
            raise fail("too_many_dice", limit=MAX_DICE_PER_TERM)
        if count == 0:
            raise fail("bad_count")
        if sides is None or sides > MAX_SIDES:
            raise fail("too_many_sides", limit=MAX_SIDES)
        if sides == 0:
            raise fail("bad_sides")

        explode = False
        keep: str | None = None
        keep_n = 0
        reroll: Cond | None = None
        reroll_once = False
        success: Cond | None = None
        failure: Cond | None = None
        seen: set[str] = set()
        while True:
            tok = self.peek()
            if tok.space_before or tok.type not in (T.BANG, T.MOD, T.CMP):
                break
            self.take()
            if tok.type is T.BANG or tok.text == "x":
                key, explode = "explode", True
            elif tok.text in _KEEP_WORDS:
                key, keep = "keep", _KEEP_WORDS[tok.text]
                keep_n = self.number(self.adjacent_number())
            elif tok.text in ("r", "ro"):
                key, reroll, reroll_once = "reroll", self.condition(), tok.text == "ro"
            elif tok.text == "f":
                key, failure = "failure", self.condition()
            else:  # a comparison: count successes
                key, success = "success", Cond(tok.text, self.number(self.adjacent_number()))
            if key in seen:
                raise self.error("bad_modifier", tok)
            seen.add(key)

        node = Dice(
            count,
            sides,
            start,
            self.toks[self.i - 1].end,
            explode=explode,
            keep=keep,
            keep_n=keep_n,
            reroll=reroll,
            reroll_once=reroll_once,
            success=success,
            failure=failure,
        )
        if node.failure is not None and node.success is None:
            raise fail("bad_modifier")
        if keep is not None:
            limit = count if keep in ("kh", "kl") else count - 1
            if keep_n == 0 or keep_n > limit:
                raise fail("bad_modifier")
        if node.explode and sides == 1:
            raise fail("endless_dice")
        if reroll is not None and not reroll_once and all(reroll(v) for v in range(1, sides + 1)):
            raise fail("endless_dice")
        self.total_dice += count
        if self.total_dice > MAX_DICE_TOTAL:
            raise fail("too_many_dice", limit=MAX_DICE_TOTAL)
        return node

    def sides(self) -> int | None:
        """The number right after ``d`` (``%``: 100); None above the lexer's MAX_NUMBER."""
        tok = self.peek()
        if tok.type is T.NUM and not tok.space_before:
            self.take()
            return tok.value
        if tok.type is T.PCT and not tok.space_before:
            self.take()
            return 100
        raise self.unexpected(tok)

    def condition(self) -> Cond:
        tok = self.peek()
        op = "="
        if tok.type is T.CMP and not tok.space_before:
            self.take()
            op = tok.text
        return Cond(op, self.number(self.adjacent_number()))
