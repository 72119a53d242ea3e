"""Where a user's model comes from: a Python factory (``--game``), an explicit JSON model, a
Storm DRN file or a PRISM/JANI file (``--model``), with the DRN property options (the PRISM/JANI
ones are :mod:`exactplay.api.symbolic`'s)."""

from __future__ import annotations

import argparse

from ..errors import UsageError

__all__ = ["is_drn", "add_drn_arguments", "check_drn_arguments", "load_drn_model", "load_model", "state_limit",
           "recorded_params", "record_params"]


def is_drn(path: str | None) -> bool:
    """A DRN file, by its name: ``.drn``, or ``.drn.gz`` gzip-compressed."""
    return bool(path) and str(path).lower().endswith((".drn", ".drn.gz"))


def add_drn_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("a DRN model (Storm's explicit format): the property to compute")
    g.add_argument("--objective", choices=["Pmax", "Pmin", "Rmax", "Rmin", "Tmax", "Tmin"],
                   help="maximum or minimum probability of reaching --target, expected reward until --target, or "
                        "(a CTMC or Markov automaton) expected time until --target")
    g.add_argument("--target", metavar="EXPR",
                   help="a label expression as in PRISM and Storm: labels (bare, or \"quoted\" when they hold other "
                        "characters), true, false, ! (not) binding tighter than & (and), & tighter than | (or), "
                        "parentheses: 'finished & !(\"agree\" | timeout)'")
    g.add_argument("--avoid", metavar="EXPR", help="Pmax/Pmin only: reach --target without passing these states "
                                                   "(!avoid U target)")
    g.add_argument("--reward", metavar="NAME", help="Rmax/Rmin: the reward model (when the file has several)")


def check_drn_arguments(args) -> None:
    """A DRN model's property is complete (an option no input of this kind takes is refused before,
    by :func:`exactplay.cli.inputs.refuse_unconsumed`)."""
    if is_drn(getattr(args, "model", None)) and (not args.objective or not args.target):
        raise UsageError(f"{args.model}: a DRN model needs --objective Pmax|Pmin|Rmax|Rmin|Tmax|Tmin and --target EXPR")


def state_limit(args) -> int:
    """``--max-states`` (default :data:`~exactplay.model.compiled.MAX_STATES`), at least 1."""
    from ..model.compiled import MAX_STATES

    limit = getattr(args, "max_states", None)
    limit = MAX_STATES if limit is None else limit
    if limit < 1:
        raise UsageError("--max-states must be at least 1")
    return limit


def load_drn_model(args):
    """``(model, order, drn)`` for ``--model FILE.drn`` and the property options; a file declaring more
    states than ``--max-states`` is refused at its header."""
    from ..interop.drn import drn_to_model, read_drn
    from ..model.collector import fewer_collections

    with fewer_collections(freeze=True):  # (the file's arrays: big lists the collector would walk again and again)
        drn = read_drn(args.model, state_limit(args))
        return drn_to_model(drn, args.objective, args.target, args.avoid, args.reward) + (drn,)


def load_model(args, progress):
    """``(model, source)`` from ``--game FACTORY --param ...`` or ``--model FILE`` (JSON or DRN); every
    source is refused at ``--max-states`` states, before the states past it are read or enumerated."""
    limit = state_limit(args)
    if args.model:
        from ..interop.file_kind import is_symbolic

        if is_symbolic(args.model):  # PRISM, PRISM-games or JANI, with --const and --prop
            from .symbolic import load_symbolic

            return load_symbolic(args).model, args.model
        check_drn_arguments(args)
        if is_drn(args.model):
            return load_drn_model(args)[0], args.model
        from ..model import load_model_file

        return load_model_file(args.model, limit), args.model
    from ..model import build_model, parse_params
    from ..model.load import make_game

    params = parse_params(args.param)
    game = make_game(args.game, params)
    shown = args.game + "".join(f" {k}={v}" for k, v in params.items())
    return build_model(game, limit, progress), shown


def recorded_params(args) -> dict:
    """The factory's parameters as a certificate records them (``--param goal=5 --param p=1/6``:
    ``{"goal": 5, "p": "1/6"}``: integers, booleans and texts as they are, a fraction as ``"p/q"``);
    ``{}`` for a ``--model`` file.  ``check --expect goal=5`` compares them."""
    if not getattr(args, "game", None):
        return {}
    from ..model import parse_params

    return record_params(parse_params(args.param))


def record_params(params: dict) -> dict:
    """Parameters as a certificate records them: a fraction as ``"p/q"``, the rest as it is.

    >>> from fractions import Fraction
    >>> record_params({"goal": 5, "p": Fraction(1, 6), "name": "fair"})
    {'goal': 5, 'p': '1/6', 'name': 'fair'}
    """
    from fractions import Fraction

    from ..numbers.backends import format_pq

    return {k: format_pq(v) if isinstance(v, Fraction) else v for k, v in params.items()}
