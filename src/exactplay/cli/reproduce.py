"""The command line that reproduces a run, rebuilt from what was parsed (a report's "Reproduce")."""

from __future__ import annotations

import argparse

from .inputs import given_options

__all__ = ["command_words"]

LEFT_OUT = ("--output", "--quiet", "--json")  # where the output goes and how it is shown: not the result


def command_words(parser: argparse.ArgumentParser, args: argparse.Namespace, head: list[str],
                  output: str = "DIR") -> list[str]:
    """The words after ``exactplay`` that reproduce ``args``: ``head`` (the command), every option
    given with a value other than its default, as the parser reads it back, and ``-o output``."""
    words = list(head)
    for flag, value in given_options(parser, args).items():
        if flag in LEFT_OUT:
            continue
        if parser._option_string_actions[flag].nargs == 0:  # a switch: --full, --no-claims
            words.append(flag)
            continue
        for item in value if isinstance(value, list) else [value]:
            words += [flag, str(item)]
    return words + ["-o", output]
