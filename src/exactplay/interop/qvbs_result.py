"""Exact result files in the format of the Quantitative Verification Benchmark Set (QVBS), so that
exactplay can be the source of exact reference values (games included)::

    {
      "file": "dice.prism", "version": 1, "date": "2026-12-01",
      "tool": {"name": "exactplay", "variant": ["exact"], "version": "0.x"},
      "benchmark": {"file": "dice.prism", "file-sha256": "...", "parameters": [{"name": "N", "value": 3}]},
      "command": "exactplay solve --model dice.prism --const N=3 --prop 1 --qvbs-result r.json",
      "data": [{"property": "1", "formula": "<<P1>> Pmax=? [ F \\"p1win\\" ]", "states": 589,
                "value": {"approx": 0.49498456790123457, "num": 1283, "den": 2592}}]
    }

``value`` is exact: ``num``/``den`` are JSON integers in lowest terms (``den`` > 0), ``approx`` the
double nearest to it (null beyond the double range); +infinity (an expected reward, Storm's
semantics) is ``{"approx": null, "num": null, "den": null, "infinite": true}`` (JSON has no
infinity).  A property with a threshold has the exact
truth value (``true``/``false``) as its ``value`` and the exact number under ``exact-value``.
With several initial states, ``value`` is the first one's and ``initial-states`` lists each.
Parameters keep the value as given (an integer as a JSON integer, else as written).
"""

from __future__ import annotations

import json
import re
import time
from fractions import Fraction

from .. import __version__

__all__ = ["qvbs_result", "result_file", "qvbs_text"]


def _number(x: Fraction | None) -> dict:
    if x is None:  # +infinity (an expected reward some strategy never finishes collecting)
        return {"approx": None, "num": None, "den": None, "infinite": True}
    try:
        approx = float(x)
    except OverflowError:
        approx = None
    return {"approx": approx, "num": _Int(x.numerator), "den": _Int(x.denominator)}


class _Int:
    """An integer written as a JSON number of any length (Python's json stops at 4,300 digits)."""

    def __init__(self, value: int):
        import gmpy2

        self.text = gmpy2.mpz(value).digits()


def _parameter(name: str, text: str) -> dict:
    value: object = text
    if re.fullmatch(r"-?\d{1,18}", text):
        value = int(text)
    elif text in ("true", "false"):
        value = text == "true"
    return {"name": name, "value": value}


def qvbs_result(loaded, answers, command: str) -> dict:
    """The result file (a dict; :func:`qvbs_text` writes it) of a solved PRISM or JANI property."""
    origin = loaded.property_origin
    label = origin.rsplit(" property ", 1)[-1].strip("'") if " property " in origin else loaded.property_text
    return result_file(loaded.source.path, loaded.source.sha256, loaded.constants, label, loaded.property_text,
                       len(loaded.model), answers, loaded.query.comparison is not None, command)


def result_file(path: str, sha256: str, constants: dict, label: str, formula: str, states: int, answers,
                threshold: bool, command: str) -> dict:
    """The result file of one property: ``answers`` per initial state (``value``, ``name``, ``holds``;
    :class:`~exactplay.interop.answers.InitialAnswer`), ``threshold``: the property compares with a bound."""
    first = answers[0]
    entry: dict = {"property": label, "formula": formula, "states": states}
    if not threshold:
        entry["value"] = _number(first.value)
    else:
        entry["value"] = bool(all(a.holds for a in answers))
        entry["exact-value"] = _number(first.value)
    if len(answers) > 1:
        entry["initial-states"] = [{"state": a.name, "value": _number(a.value)} for a in answers]
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return {
        "file": name,
        "version": 1,
        "date": time.strftime("%Y-%m-%d"),  # (datetime.date.today().isoformat(), without importing datetime: ~1 ms)
        "tool": {"name": "exactplay", "variant": ["exact"], "version": __version__},
        "benchmark": {"file": name, "file-sha256": sha256,
                      "parameters": [_parameter(k, v) for k, v in constants.items()]},
        "command": command,
        "data": [entry],
    }


def qvbs_text(result: dict) -> str:
    """Strict JSON text of a result file, its integers written in full."""
    holes: list[str] = []

    def default(obj):
        if isinstance(obj, _Int):
            holes.append(obj.text)
            return f"\u0000{len(holes) - 1}\u0000"
        raise TypeError(f"not JSON: {type(obj).__name__}")

    text = json.dumps(result, indent=1, allow_nan=False, default=default)
    return re.sub(r'"\\u0000(\d+)\\u0000"', lambda m: holes[int(m.group(1))], text) + "\n"
