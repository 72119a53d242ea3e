"""Where a user's model comes from: a Python factory (``--game``), an explicit JSON model, a
Storm DRN file or a PRISM/JANI file (``--model``), with the DRN property options (the PRISM/JANI
ones are :mod:`exactplay.symbolic_cli`'s)."""

from __future__ import annotations

import argparse

from .errors import UsageError

__all__ = ["is_drn", "add_drn_arguments", "check_drn_arguments", "load_drn_model", "load_model"]


def is_drn(path: str | None) -> bool:
    return bool(path) and str(path).lower().endswith(".drn")


def add_drn_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("a DRN model (Storm's explicit format): the property to compute")
    g.add_argument("--objective", choices=["Pmax", "Pmin", "Rmax", "Rmin"],
                   help="maximum or minimum probability of reaching --target, or expected reward until --target")
    g.add_argument("--target", metavar="EXPR",
                   help='labels joined by &, each optionally negated with !; quote labels with other characters: '
                        "'finished & !\"agree\"'")
    g.add_argument("--avoid", metavar="EXPR", help="Pmax/Pmin only: reach --target without passing these states "
                                                   "(!avoid U target)")
    g.add_argument("--reward", metavar="NAME", help="Rmax/Rmin: the reward model (when the file has several)")


def check_drn_arguments(args) -> None:
    drn = is_drn(getattr(args, "model", None))
    given = [name for name in ("objective", "target", "avoid", "reward") if getattr(args, name, None)]
    if drn and (not args.objective or not args.target):
        raise UsageError(f"{args.model}: a DRN model needs --objective Pmax|Pmin|Rmax|Rmin and --target EXPR")
    if not drn and given:
        raise UsageError(f"--{given[0]} is for a DRN model (--model FILE.drn)")


def load_drn_model(args):
    """``(model, order)`` for ``--model FILE.drn`` and the property options."""
    from .interop.drn import drn_to_model, read_drn

    drn = read_drn(args.model)
    return drn_to_model(drn, args.objective, args.target, args.avoid, args.reward) + (drn,)


def load_model(args, progress):
    """``(model, source)`` from ``--game FACTORY --param ...`` or ``--model FILE`` (JSON or DRN)."""
    from .model import build_model, load_model_file, parse_params
    from .model.compiled import MAX_STATES
    from .model.load import make_game

    limit = MAX_STATES if args.max_states is None else args.max_states
    if limit < 1:
        raise UsageError("--max-states must be at least 1")
    from .symbolic_cli import check_symbolic_arguments

    check_symbolic_arguments(args)  # --const, --prop, ... only with a PRISM/JANI model
    if args.model:
        if args.param:
            raise UsageError("--param is for --game factories; a --model file has no parameters")
        from .interop.symbolic import is_symbolic

        if is_symbolic(args.model):  # PRISM, PRISM-games or JANI, with --const and --prop
            from .symbolic_cli import load_symbolic

            return load_symbolic(args).model, args.model
        check_drn_arguments(args)
        model = load_drn_model(args)[0] if is_drn(args.model) else load_model_file(args.model)
        if len(model) > limit:
            raise UsageError(f"{args.model}: {len(model):,} states is more than --max-states {limit:,}")
        return model, args.model
    params = parse_params(args.param)
    game = make_game(args.game, params)
    shown = args.game + "".join(f" {k}={v}" for k, v in params.items())
    return build_model(game, limit, progress), shown
