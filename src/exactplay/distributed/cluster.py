"""A Dask client: a ``LocalCluster`` of ``workers`` processes, or a running scheduler.

Workers run one thread each (the tiles are pure-Python/GMP work: threads would share one
interpreter lock).  The client talks to the workers directly (``direct_to_workers``), so
gathering results does not route data through the scheduler.  Every worker must be able
to import ``exactplay`` (the same version as the client).
"""

from __future__ import annotations

import contextlib
import logging

from exactplay.errors import UsageError

CONNECT_TIMEOUT = 10  # seconds to reach a scheduler before giving up
# the workers' statistical profiler samples every thread's stack every 10 ms: CPU that grows
# with the wall-clock time, not with the work (a real cluster's workers are configured there)
LOCAL_CONFIG = {"distributed.worker.profile.enabled": False}


def worker_addresses(client) -> list[str]:
    """The workers' addresses, sorted (tiles are placed by index into this list)."""
    out = sorted(client.scheduler_info(n_workers=-1)["workers"])
    if not out:  # a worker may be re-registering (a missed heartbeat on a loaded machine): wait a little
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except Exception:
            raise UsageError("the Dask cluster has no workers") from None
        out = sorted(client.scheduler_info(n_workers=-1)["workers"])
    if not out:
        raise UsageError("the Dask cluster has no workers")
    return out


def _check_address(address: str) -> None:
    """A UsageError for an address Dask cannot parse (before a Client half-exists to be cleaned up)."""
    from distributed.comm import parse_address, parse_host_port
    from distributed.comm.registry import get_backend

    try:
        scheme, loc = parse_address(address)
        get_backend(scheme)
        if not loc:
            raise ValueError("no host")
        if scheme in ("tcp", "tls", "ws", "wss"):
            parse_host_port(loc)  # a port that is not a number
    except Exception as exc:
        reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
        raise UsageError(f"--scheduler {address}: not a Dask scheduler address ({reason}); "
                         "expected e.g. tcp://host:8786") from None


@contextlib.contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None, processes: bool = True):
    """Yield a connected ``distributed.Client``; close what was opened on exit.

    ``scheduler``: an address such as ``tcp://10.0.0.5:8786`` (a UsageError of one line
    if it cannot be reached or has no workers); otherwise a LocalCluster of ``workers``
    workers (default 2) that lives as long as the context.
    """
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--workers / --scheduler need Dask: python3 -m pip install 'exactplay[dask]'") from None

    if scheduler:
        _check_address(scheduler)
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT, direct_to_workers=True, set_as_default=False)
        except Exception as exc:  # refused, timed out, bad address, wrong protocol: one line, not a traceback
            reason = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            raise UsageError(f"--scheduler {scheduler}: cannot reach the Dask scheduler ({reason})") from None
        try:
            client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except Exception:
            client.close()
            raise UsageError(f"--scheduler {scheduler}: the scheduler has no workers") from None
        try:
            yield client
        finally:
            client.close()
        return
    n = 2 if workers is None else workers
    if n < 1:
        raise UsageError("--workers must be at least 1")
    with dask.config.set(LOCAL_CONFIG), \
            LocalCluster(n_workers=n, threads_per_worker=1, processes=processes, dashboard_address=None,
                         scheduler_kwargs={"dashboard": False, "dashboard_address": ":0"},  # any free port
                         silence_logs=logging.ERROR) as cluster, \
            Client(cluster, direct_to_workers=True, set_as_default=False) as client:
        client.wait_for_workers(n)  # registered with the scheduler, not only started
        yield client
