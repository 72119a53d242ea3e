"""Storm's values of an exported PRISM model, for the tests of the PRISM writer."""

from __future__ import annotations

from fractions import Fraction

from exactplay.interop.storm import storm_values, stormpy_or_fail


def storm_check_prism(model_path: str, props_text: str, n: int, method: str = "topological") -> list[Fraction | None]:
    """Build a PRISM model (exactly) and check its first property; values indexed by the variable ``s``
    (``n`` states; None where Storm did not build the state: it is not reachable)."""
    stormpy = stormpy_or_fail()
    program = stormpy.parse_prism_program(str(model_path))
    opts = stormpy.BuilderOptions()
    opts.set_build_state_valuations()
    opts.set_build_all_labels()
    opts.set_build_all_reward_models()
    built = stormpy.build_model[stormpy.Rational](program, options=opts)
    text = "\n".join(line for line in props_text.splitlines() if line.strip() and not line.startswith("//"))
    values, _ = storm_values(built, text, method, program)
    var = program.get_module("game").get_integer_variable("s").expression_variable
    out: list[Fraction | None] = [None] * n
    for i in range(built.nr_states):
        out[built.state_valuations.get_int64_value(i, var)] = values[i]
    return out
