"""Hard limits of the dice engine (documented in docs/rules/dice.md).

They keep every input cheap: a hostile text fails fast with a ``DiceError`` instead of
allocating, looping or recursing without bound.
"""

from __future__ import annotations

MAX_INPUT_CHARS = 1000  # the whole argument text, comment included
MAX_EXPRESSION_CHARS = 200  # the dice expression itself
MAX_NUMBER = 10**6  # any number written in the text
MAX_DICE_PER_TERM = 100  # N in NdM
MAX_DICE_TOTAL = 100  # sum of N over all terms of one expression
MAX_SIDES = 1000  # M in NdM
MAX_REPEATS = 20  # N in N#expr
MAX_EXTRA_DICE = 100  # dice added by explosions and rerolls, per term; beyond: "capped"
MAX_DEPTH = 10  # nesting of parentheses and unary signs
MAX_ABS_VALUE = 10**9  # any intermediate value of an expression

# The systems' roll commands (their own limits are beside their rules)
MAX_TARGET = 1000  # a target number, Toughness
MAX_MODIFIER = 1000  # absolute value of one modifier
