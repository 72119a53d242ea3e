"""DRN label expressions (``--target``/``--avoid``): PRISM's and Storm's syntax, ``!`` over ``&`` over ``|``.

The parser is checked against Python's own evaluation of the same expression: the text is
translated token by token (``!`` -> ``not``, ``&`` -> ``and``, ``|`` -> ``or``, a label -> a
membership test), so Python's precedence, not the parser's, decides what the text means.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.interop.labels import MAX_DEPTH, holds, parse_label_expr
from exactplay.model import ModelError
from cli_run import run

LABELS = ["a", "b", "c_1", "two words", "((x = 2) & (y = 3))"]


def _label(draw_label: str, quote: bool) -> str:
    bare = draw_label.replace("_", "").isalnum() and draw_label not in ("true", "false")
    return draw_label if bare and not quote else f'"{draw_label}"'


@st.composite
def expressions(draw, depth: int = 0):
    """``(text, python)``: an expression in the label syntax and the same tokens as Python."""
    kind = draw(st.sampled_from(["label", "label", "const", "not", "and", "or", "paren"] if depth < 4 else
                                ["label", "const"]))
    sp = draw(st.sampled_from(["", " ", "  "]))
    if kind == "label":
        lab = draw(st.sampled_from(LABELS))
        return _label(lab, draw(st.booleans())), f"({lab!r} in S)"
    if kind == "const":
        c = draw(st.booleans())
        return ("true" if c else "false"), str(c)
    if kind == "not":
        text, py = draw(expressions(depth + 1))
        return f"!{sp}{text}", f"not {py}"
    if kind == "paren":
        text, py = draw(expressions(depth + 1))
        return f"({sp}{text}{sp})", f"({py})"
    op, pyop = ("&", "and") if kind == "and" else ("|", "or")
    parts = draw(st.lists(expressions(depth + 1), min_size=2, max_size=3))
    return f"{sp}{op}{sp}".join(t for t, _ in parts), f" {pyop} ".join(p for _, p in parts)


@settings(max_examples=60, deadline=None)
@given(expressions(), st.lists(st.sets(st.sampled_from(LABELS)), min_size=1, max_size=6))
def test_label_expressions_evaluate_as_python_does_with_the_same_precedence(expr, label_sets):
    text, py = expr
    tree = parse_label_expr(text, set(LABELS))
    for S in label_sets:
        assert holds(tree, sorted(S)) == eval(py, {"S": S}), (text, py, S)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(expressions(), st.lists(st.sets(st.sampled_from(LABELS)), min_size=1, max_size=6))
def test_label_expressions_evaluate_as_python_does_with_the_same_precedence_many_examples(expr, label_sets):
    """The same property on 150 examples (60 in the default suite since 2026-12-04)."""
    test_label_expressions_evaluate_as_python_does_with_the_same_precedence.hypothesis.inner_test(expr=expr, label_sets=label_sets)


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet='ab "()!&|tru', max_size=25))
def test_any_text_parses_or_is_refused_in_one_line(text):
    try:
        tree = parse_label_expr(text, {"a", "b", "t"})
    except ModelError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("--target")
    else:
        holds(tree, ["a"])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet='ab "()!&|tru', max_size=25))
def test_any_text_parses_or_is_refused_in_one_line_many_examples(text):
    """The same property on 300 examples (100 in the default suite since 2026-12-04)."""
    test_any_text_parses_or_is_refused_in_one_line.hypothesis.inner_test(text=text)


@pytest.mark.parametrize("text,words", [
    ("a &", "character 4: the expression ends with an operator ('&')"),
    ("a b", "character 3: two labels without '&' or '|' between them"),
    ("(a | b", "character 7: expected ')' to close the '(' at character 1"),
    ("a)", "character 2: ')' without a '(' before it"),
    ("a & | b", "character 5: expected a label, got '|'"),
    ("a !b", "character 3: '!' after a complete expression"),
    ('"a', "character 1: cannot read"),
    ("a & c", 'unknown label "c" (character 5'),
    ("  ", "empty expression"),
    ("(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1), f"more than {MAX_DEPTH} nested"),
    ("!" * (MAX_DEPTH + 1) + "a", f"more than {MAX_DEPTH} nested"),
])
def test_a_malformed_expression_is_one_line_naming_the_position(text, words):
    with pytest.raises(ModelError, match=None) as exc:
        parse_label_expr(text, {"a", "b"})
    assert words in str(exc.value) and "\n" not in str(exc.value), str(exc.value)


def test_precedence_not_over_and_over_or():
    K = {"a", "b", "c"}
    e = parse_label_expr("a | b & !c", K)  # a | (b & (!c))
    assert holds(e, ["a", "c"]) and holds(e, ["b"]) and not holds(e, ["b", "c"])
    e = parse_label_expr("!a & b", K)  # (!a) & b
    assert holds(e, ["b"]) and not holds(e, []) and not holds(e, ["a", "b"])
    e = parse_label_expr("!(a & b) | c", K)
    assert holds(e, ["a"]) and not holds(e, ["a", "b"]) and holds(e, ["a", "b", "c"])
    assert holds(parse_label_expr("true", K), []) and not holds(parse_label_expr("false | !true", K), ["a"])
    assert holds(parse_label_expr('"true"', {"true"}), ["true"])  # a label named true, quoted


DRN = """@type: DTMC
@value_type: rational
@parameters

@reward_models

@nr_states
4
@nr_choices
4
@model
state 0 init
\taction 0
\t\t1 : 1/2
\t\t2 : 1/4
\t\t3 : 1/4
state 1 left
\taction 0
\t\t1 : 1
state 2 right "far away"
\taction 0
\t\t2 : 1
state 3 right
\taction 0
\t\t3 : 1
"""


def test_or_and_parentheses_on_the_command_line(capsys, tmp_path):
    path = tmp_path / "m.drn"
    path.write_text(DRN)
    for target, value in (("left | right", "1/1"), ("left | (right & \"far away\")", "3/4"),
                          ("!(left | right | init)", "0/1"), ("right & !\"far away\" | left", "3/4")):
        status, out, err = run(capsys, "solve", "--model", path, "--objective", "Pmax", "--target", target, "--json")
        assert status == 0, err
        assert json.loads(out)["answer"]["value"] == value, target
    status, out, err = run(capsys, "solve", "--model", path, "--objective", "Pmax", "--target", "left | (right")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("exactplay: error: --target 'left | (right', character 14: expected ')'"), err
    status, out, err = run(capsys, "crosscheck", "--model", path, "--objective", "Pmin", "--target",
                           'left | (right & "far away")')
    assert status == 0 and "4/4 states equal exactly" in out, out + err
