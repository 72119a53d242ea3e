"""exactplay: exact optimal-play values of games of chance, and audits of float solvers."""

__version__ = "0.1.0"
