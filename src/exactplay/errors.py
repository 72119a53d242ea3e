"""The two kinds of failure a user can see, and their exit statuses.

* :class:`UsageError` -- bad input or usage: exit status 2.
* :class:`VerificationError` -- a certificate, an answer file or a check failed:
  exit status 1.  It names the field and the state where it failed.
* :class:`MalformedCertificate` -- the file is not a certificate at all (not
  readable, not JSON, envelope fields missing): bad input, exit status 2 if it
  reaches the CLI; ``exactplay check`` counts it as a certificate that failed
  (exit status 1, as for one that does not verify).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


class ExactplayError(Exception):
    """Base class of the errors the CLI prints as one line."""

    exit_status = EXIT_USAGE


class UsageError(ExactplayError, ValueError):
    """The input or the invocation is wrong; nothing was computed."""

    exit_status = EXIT_USAGE


class VerificationError(ExactplayError):
    """A certificate or a claimed answer does not verify.

    ``field`` is the certificate field (e.g. ``"table"``, ``"policy"``) and
    ``state`` the game state, when there is one.
    """

    exit_status = EXIT_FAILED

    def __init__(self, message: str, field: str | None = None, state: object = None):
        self.field = field
        self.state = state
        parts = []
        if field is not None:
            parts.append(f"field {field!r}")
        if state is not None:
            parts.append(f"state {state}")
        where = f" ({', '.join(parts)})" if parts else ""
        super().__init__(f"{message}{where}")


class MalformedCertificate(VerificationError):
    """The file cannot be read as a certificate; nothing was verified."""

    exit_status = EXIT_USAGE
