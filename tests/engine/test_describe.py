"""The description tables: one template per code, kinds, the lenient fill."""

from __future__ import annotations

import pytest

import engine.texts  # noqa: F401  (every installed family registers its table)
from engine import describe
from engine.describe import Description


def test_every_code_is_family_dot_key_and_its_template_reads() -> None:
    codes = [code for code, _ in describe.templates()]
    assert len(codes) == len(set(codes))
    families = {code.split(".", 1)[0] for code in codes}
    assert {"dice", "rule", "chase", "service", "encounter", "chase_event"} <= families
    for code, text in describe.templates():
        assert describe.known(code) and describe.template(code) == text
        forms = (text,) if isinstance(text, str) else text
        assert all(form and form.isprintable() for form in forms), code
        if isinstance(text, tuple):  # a plural pair is chosen by its count
            assert len(text) == 2 and "count" in describe.placeholders(text), code


def test_a_family_is_registered_once() -> None:
    with pytest.raises(ValueError):
        describe.register("rule", {"x": "another table"})
    with pytest.raises(ValueError):
        describe.register("a.b", {})


def test_labels_fall_back_to_other() -> None:
    assert describe.label_code("dice_subject", "difficulty") == "dice_subject.difficulty"
    assert describe.label_code("dice_subject", "no_such_subject") == "dice_subject.other"
    assert describe.kind_of("dice.out_of_range", "what") == describe.label("dice_subject")
    assert describe.kind_of("chase.bad_position", "position") == describe.CARD
    assert describe.kind_of("rule.unknown_trait", "trait") is None


def test_fill_shows_a_missing_param_as_a_question_mark() -> None:
    assert describe.fill("{a} and {b}", {"a": 1}) == "1 and ?"
    d = Description("rule.bad_group_size", {"max": 4})
    assert d.to_dict() == {"code": "rule.bad_group_size", "params": {"max": 4}}
    assert describe.placeholders(d.template) == {"max"}
