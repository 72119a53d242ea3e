# The names exactplay/__init__.py loads on first use (PEP 562), for type checkers.
from . import testing as testing
from .api import Audit as Audit
from .api import CheckResult as CheckResult
from .api import CheckResults as CheckResults
from .api import Solution as Solution
from .api import audit as audit
from .api import certify as certify
from .api import check as check
from .api import solve as solve
from .errors import UsageError as UsageError
from .errors import VerificationError as VerificationError
from .model.compiled import ModelError as ModelError

__version__: str
__all__: list[str]
