"""Running the ``exactplay`` command line in-process, for the CLI tests."""

import json

from exactplay.cli.main import main


def run(capsys, *argv):
    """``exactplay ARGV`` in-process: (exit status, stdout, stderr); arguments may be paths."""
    try:
        status = main([str(a) for a in argv])
    except SystemExit as exc:  # --help and --version exit through argparse
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def strict(text):
    """``text`` parsed as strict JSON: NaN, Infinity and -Infinity are refused."""
    def bad(x):
        raise ValueError(f"non-strict JSON constant {x}")

    return json.loads(text, parse_constant=bad)
