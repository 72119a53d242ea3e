"""Label expressions (``--target``/``--avoid`` of a DRN model): PRISM's and Storm's syntax for labels.

::

    expr  := term ('|' term)*            or
    term  := unary ('&' unary)*          and: binds tighter than |
    unary := '!' unary | atom            not: binds tighter than &
    atom  := '(' expr ')' | "quoted label" | bare_label | true | false

A bare label is ``[A-Za-z_][A-Za-z0-9_]*``; any other label is quoted (``"((phase = 2) & (v3 = 3))"``);
bare ``true`` and ``false`` are the constants (a label of that name is written quoted).  An unknown
label, or a malformed expression, is one :class:`~exactplay.model.ModelError` line naming the position.

>>> e = parse_label_expr('a | !b & "c d"', {"a", "b", "c d"})
>>> holds(e, ["b", "c d"]), holds(e, ["c d"]), holds(e, ["a"])
(False, True, True)
"""

from __future__ import annotations

import re

from ..model import ModelError

__all__ = ["parse_label_expr", "holds", "MAX_DEPTH"]

MAX_DEPTH = 100  # nested '(' and '!' (a deeper expression is refused, not a RecursionError)
_TOKEN = re.compile(r'\s*(?:([&|!()])|"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*))')


class _Parser:
    def __init__(self, text: str, known: set[str], what: str):
        self.text, self.known, self.what = text, known, what
        self.tokens: list[tuple[int, str, str]] = []  # (position, kind, text): kind op | label | const
        pos = 0
        while True:
            while pos < len(text) and text[pos].isspace():
                pos += 1
            if pos == len(text):
                break
            m = _TOKEN.match(text, pos)
            if m is None:
                self.fail(pos, f"cannot read {text[pos:pos + 20]!r} (write labels, \"quoted labels\", true, false, "
                               "!, &, | and parentheses)")
            op, quoted, bare = m.groups()
            if op:
                self.tokens.append((pos, "op", op))
            elif quoted is not None:
                self.tokens.append((pos, "label", quoted))
            elif bare in ("true", "false"):
                self.tokens.append((pos, "const", bare))
            else:
                self.tokens.append((pos, "label", bare))
            pos = m.end()
        self.i = 0
        self.depth = 0

    def fail(self, pos: int, msg: str):
        shown = self.text if len(self.text) <= 80 else self.text[:77] + "..."
        raise ModelError(f"{self.what} {shown!r}, character {pos + 1}: {msg}")

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else (len(self.text), "end", "")

    def expr(self):
        terms = [self.term()]
        while self.peek()[2] == "|" and self.peek()[1] == "op":
            self.i += 1
            terms.append(self.term())
        return terms[0] if len(terms) == 1 else ("or", tuple(terms))

    def term(self):
        factors = [self.unary()]
        while self.peek()[2] == "&" and self.peek()[1] == "op":
            self.i += 1
            factors.append(self.unary())
        return factors[0] if len(factors) == 1 else ("and", tuple(factors))

    def unary(self):
        pos, kind, tok = self.peek()
        if kind == "op" and tok == "!":
            self.i += 1
            self.deeper(pos)
            inner = self.unary()
            self.depth -= 1
            return inner[1] if inner[0] == "not" else ("not", inner)
        return self.atom()

    def deeper(self, pos: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.fail(pos, f"more than {MAX_DEPTH} nested '(' and '!'")

    def atom(self):
        pos, kind, tok = self.peek()
        if kind == "end":
            self.fail(pos, f"the expression ends with an operator ('{self.tokens[-1][2]}'), where a label is expected")
        self.i += 1
        if kind == "const":
            return ("const", tok == "true")
        if kind == "label":
            if tok not in self.known:
                shown = ", ".join(sorted(f'"{x}"' for x in self.known)[:12])
                raise ModelError(f"{self.what}: unknown label \"{tok}\" (character {pos + 1}; the model's labels: "
                                 f"{shown or 'none'})")
            return ("label", tok)
        if tok == "(":
            self.deeper(pos)
            inner = self.expr()
            self.depth -= 1
            end, k, t = self.peek()
            if not (k == "op" and t == ")"):
                self.fail(end, f"expected ')' to close the '(' at character {pos + 1}, got {_show(k, t)}")
            self.i += 1
            return inner
        self.fail(pos, f"expected a label, got {_show(kind, tok)}")

    def parse(self):
        if not self.tokens:
            raise ModelError(f"{self.what}: empty expression")
        tree = self.expr()
        pos, kind, tok = self.peek()
        if kind != "end":
            if kind == "op" and tok == ")":
                self.fail(pos, "')' without a '(' before it")
            if kind == "op":  # '!' or '(' where an operator is expected
                self.fail(pos, f"'{tok}' after a complete expression (join terms with & or |)")
            self.fail(pos, f"two labels without '&' or '|' between them ({_show(kind, tok)})")
        return tree


def _show(kind: str, tok: str) -> str:
    if kind == "end":
        return "the end of the expression"
    return f"'{tok}'" if kind == "op" else (f"label \"{tok}\"" if kind == "label" else tok)


def parse_label_expr(text: str, known: set[str], what: str = "--target"):
    """The expression ``text`` over the labels ``known`` (a tree for :func:`holds`); one line on any defect."""
    return _Parser(text.strip(), known, what).parse()


def holds(expr, labels) -> bool:
    """Whether ``expr`` (from :func:`parse_label_expr`) holds in a state with these labels."""
    kind, arg = expr
    if kind == "label":
        return arg in labels
    if kind == "and":
        return all(holds(e, labels) for e in arg)
    if kind == "or":
        return any(holds(e, labels) for e in arg)
    if kind == "not":
        return not holds(arg, labels)
    return arg
