"""The ``exactplay`` command line: :mod:`exactplay.cli.main` is the entry point (``python3 -m exactplay``).

It only wraps the Python API: each command parses its options, calls the layers below and prints
what :mod:`exactplay.present` renders.
"""
