"""exactplay: exact optimal-play values of games of chance, and audits of float solvers.

The Python API (:mod:`exactplay.api`), loaded when first used so that ``import exactplay`` imports
nothing else::

    import exactplay as xp
    sol = xp.solve("race", target=10)       # a Solution: exact values keyed by the game's states
    xp.audit(sol, my_floats)                # an Audit: a float program judged state by state
    xp.certify("race", "race-10.json", target=10)
    xp.check("race-10.json").ok             # the independent checker's verdict

>>> import exactplay as xp
>>> xp.solve("race", target=2).value
Fraction(71, 135)
>>> sorted(set(xp.__all__) - set(dir(xp)))
[]
"""

import sys
import types

__version__ = "0.1.0"

# name -> the module it is loaded from on first use (PEP 562)
_LAZY = {
    **{name: "exactplay.api" for name in ("solve", "audit", "certify", "check", "Solution", "Audit", "CheckResult",
                                          "CheckResults")},
    "testing": "exactplay.testing",
    "UsageError": "exactplay.errors",
    "VerificationError": "exactplay.errors",
    "ModelError": "exactplay.model.compiled",
}
# the API's functions keep their names when a submodule of the same name is imported
# (the packages exactplay/audit/ and exactplay/certify/: ``import exactplay.audit.judge`` would otherwise
# rebind ``exactplay.audit``); such a package is reached through sys.modules or ``from exactplay.audit import ...``
_FUNCTIONS = ("solve", "audit", "certify", "check")

__all__ = ["__version__", *_LAZY]


def lazy_attributes(package: str, homes: dict[str, str], names=()):
    """A package's PEP 562 ``__getattr__`` and ``__dir__``: each name of ``homes`` (name -> its module, relative
    to ``package`` when it starts with a dot; a module named like the name is itself the value) imported when
    first used and kept; ``__dir__`` lists the dunders and ``names``."""
    namespace = vars(sys.modules[package])

    def __getattr__(name: str):
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        module = importlib.import_module(home, package)
        value = namespace[name] = module if home.rpartition(".")[2] == name else getattr(module, name)
        return value

    def __dir__() -> list[str]:
        return sorted({n for n in namespace if n.startswith("__")} | set(names))

    return __getattr__, __dir__


__getattr__, __dir__ = lazy_attributes(__name__, _LAZY, __all__)


class _Package(types.ModuleType):
    def __setattr__(self, name: str, value) -> None:
        if name in _FUNCTIONS and isinstance(value, types.ModuleType):
            return  # a submodule named like an API function: reached through sys.modules, not as an attribute
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
