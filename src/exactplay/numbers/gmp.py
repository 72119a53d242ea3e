"""gmpy2, imported without :mod:`importlib.metadata`: ``from exactplay.numbers.gmp import gmpy2``.

gmpy2 2.3's C module sets its ``__version__`` at import with ``importlib.metadata.version('gmpy2')``,
and importing ``importlib.metadata`` (email, zipfile, csv, ...) costs ~11 ms of a ~0.1 s start-up.  Here a
stand-in ``importlib.metadata`` is in ``sys.modules`` for that one import only and removed right after;
``__version__`` is then set from the name of gmpy2's ``gmpy2-X.Y.Z.dist-info`` folder beside it (the
string ``importlib.metadata.version`` reads; ``gmpy2.version()`` returns ``__version__`` itself), or by
``importlib.metadata`` when there is no such folder.  When
``importlib.metadata`` is already loaded (pytest, an application) or gmpy2 is, the plain import runs.
The solver's modules that import gmpy2 at module level (numbers.backends, model.protocol, the first ones
any command reaches) import it from here; the checker keeps its plain import (it imports only the standard
library and exactplay.errors), so ``exactplay check`` alone still pays for importlib.metadata.
"""

from __future__ import annotations

import os
import sys
import types

__all__ = ["gmpy2"]


def _load():
    if "gmpy2" in sys.modules or "importlib.metadata" in sys.modules:
        import gmpy2

        return gmpy2
    import importlib

    stub = types.ModuleType("importlib.metadata")
    stub.version = lambda name: ""  # replaced below by gmpy2.version()
    sys.modules["importlib.metadata"] = stub
    try:
        import gmpy2
    except ImportError:
        raise
    except Exception:  # a gmpy2 that asks the stand-in for more than ``version``: the plain import
        gmpy2 = None
    finally:
        if sys.modules.get("importlib.metadata") is stub:
            del sys.modules["importlib.metadata"]
        if getattr(importlib, "metadata", None) is stub:
            del importlib.metadata
    if gmpy2 is None:
        sys.modules.pop("gmpy2", None)
        sys.modules.pop("gmpy2.gmpy2", None)
        import gmpy2

        return gmpy2
    version = _dist_version(os.path.dirname(os.path.dirname(gmpy2.__file__)))
    if version is None:
        import importlib.metadata

        version = importlib.metadata.version("gmpy2")
    gmpy2.__version__ = version
    sys.modules["gmpy2.gmpy2"].__version__ = version
    return gmpy2


def _dist_version(site: str) -> str | None:
    found = [e.name[6:-10] for e in os.scandir(site) if e.name.startswith("gmpy2-") and e.name.endswith(".dist-info")]
    return found[0] if len(found) == 1 else None


try:
    gmpy2 = _load()
except ImportError:  # pragma: no cover - gmpy2 is a dependency; each importer says what is missing
    gmpy2 = None
