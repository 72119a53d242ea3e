"""Ball certificates of built-in games with cycles (hold): the game's model on the dyadic grid,
rebuilt by the checker from its own rules (``recurrence: game``)."""

from __future__ import annotations

from ..checker import MAX_STATES  # the checker's limit on a rebuilt model
from ..errors import UsageError
from ..progress import SILENT
from .certificate import game_ball_certificate, refuse_unverified
from .fixpoint import NotEnclosed

__all__ = ["MAX_STATES", "certify_hold_ball"]


def certify_hold_ball(target: int, faces: int, prec: int, progress=SILENT) -> dict:
    """The ball certificate of Hold or Continue? at ``target``/``faces`` on the grid ``2^-prec``, verified
    by the stdlib checker (:func:`.certificate.refuse_unverified`) before it is returned."""
    bound = 2 * (target + 1) ** 3 + 2  # the checker's bound on the states (checker.rules.hold.state_bound)
    if bound > MAX_STATES:
        raise UsageError(f"certify hold --backend ball: the checker rebuilds the whole model, up to {bound:,} "
                         f"states at target {target}, more than its {MAX_STATES:,} (target <= 113)")
    params = {"target": target, "faces": faces}
    try:
        cert, _ = game_ball_certificate("hold", params, params, "V(0,0)", prec, progress=progress)
    except NotEnclosed as exc:
        raise UsageError(f"--backend ball: {exc}") from None
    refuse_unverified(cert, progress)  # before the caller writes it
    return cert
