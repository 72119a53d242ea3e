"""Certified enclosures of a model's values on a dyadic grid, for ball certificates of games with cycles.

:mod:`.form` is the Bellman operator in integer arithmetic, :mod:`.fixpoint` builds the
enclosure (lower and upper ends that the rounded operator maps exactly onto themselves),
:mod:`.certificate` writes the certificate that :mod:`exactplay.checker.ball_model` checks.
"""

from .fixpoint import Enclosure, dyadic_enclosure
from .form import IntForm

__all__ = ["Enclosure", "IntForm", "dyadic_enclosure"]
