"""Where heavy jobs run: this process, local processes, or a Ray cluster.

One mechanism for every heavy job (duels, rollouts, random self-play, data-parallel
training): the job is cut into tasks, each a plain picklable argument, and
:func:`run_tasks` runs ``function`` on each and gives the results back in the order
the tasks were given, whichever backend ran them:

- ``ray=None`` and ``jobs=1``: one after the other, in this process;
- ``ray=None`` and ``jobs>1``: ``jobs`` local processes (``multiprocessing``, forked on
  POSIX, so the workers inherit what is already compiled and loaded);
- ``ray="local"``, ``"auto"`` or ``"HOST:6379"``: Ray remote tasks, one CPU each; Ray
  is started (``local``: a local instance, or the one a ``ray start`` on this machine or
  ``RAY_ADDRESS`` names) or joined (an address) only if it is not running in this
  process yet (a test or notebook may have started it). Ray Client (``ray://``) is
  refused: it needs ``ray[client]`` on the head and here, and the command runs as well
  on a node of the cluster.

A task must depend only on its argument (and on ``shared``, the data every task of a
job needs, sent once per worker or put once in Ray's object store): seeds are part of
the arguments, derived from the job's seed and the task's place (:func:`task_seed`),
and a job is cut into tasks by a rule that does not look at ``jobs`` or at the
cluster when the cutting could change a result. That is what makes the numbers the same
on every backend.

Ray is an optional extra (``pip install gammon[ray]``): it is imported only when a job
asks for it. The core never imports this module.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from gammon.agents.base import seeded_rng
from gammon.core.errors import InvalidOptionError
from gammon.core.variant import variant

A = TypeVar("A")
R = TypeVar("R")

#: What ``--ray`` alone means: start (or join) a Ray instance on this machine.
LOCAL = "local"

_NOTHING: Any = object()


def task_seed(seed: int | str, *parts: object) -> int:
    """A seed (below 2**32, as numpy's generator wants) for the part of a job named by
    ``parts``: the same on every machine, run and backend."""
    return seeded_rng(seed, "task", *parts).getrandbits(32)


_RULES: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}


def rules_of(name: str, options: dict[str, Any]) -> Any:
    """The rules object of a variant's name and options, built once per process. Tasks
    send a variant as (name, options): a rules object that has been used holds its
    compiled kernel, which does not pickle."""
    key = (name, tuple(sorted(options.items())))
    if key not in _RULES:
        _RULES[key] = variant(name, **options)
    return _RULES[key]


def describe(jobs: int, ray: str | None) -> str:
    """The backend in words, for a report: ``"2 processes"``, ``"Ray (auto)"``."""
    if ray is not None:
        return "Ray" if ray == LOCAL else f"Ray ({ray})"
    return "this process" if jobs <= 1 else f"{jobs} processes"


# --- Ray ---------------------------------------------------------------------------------


def import_ray() -> Any:
    """The ``ray`` module, or an error that says how to install it."""
    try:
        import ray  # an optional extra (gammon[ray])
    except ImportError:
        raise InvalidOptionError(
            "--ray needs Ray, an optional extra: pip install 'gammon[ray]' (on every node "
            "of the cluster), or leave out --ray to use local processes") from None
    return ray


#: How long a cluster's address may take to answer before we say nothing is there.
ANSWER_SECONDS = 3.0
#: Where ``ray start`` keeps the token of a cluster that authenticates (Ray 2.59 on).
TOKEN_FILE = Path.home() / ".ray" / "auth_token"


def check_address(address: str) -> tuple[str, int] | None:
    """The host and port of a Ray address (None for ``local`` and ``auto``), or an error
    that says what an address looks like."""
    if address in (LOCAL, "auto"):
        return None
    if address.startswith("ray://"):
        raise InvalidOptionError(
            f"--ray {address}: Ray Client (ray://) is not supported (it needs "
            "'ray[client]' on the head and on this machine); run the command on a node of "
            "the cluster with --ray auto or --ray HEAD:6379")
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536 \
            or any(ch in host for ch in "/ "):
        raise InvalidOptionError(
            f"--ray takes auto, HOST:PORT (a cluster's head, as `ray start --head` prints "
            f"it: 10.0.0.5:6379), or nothing for a local instance; not {address!r}")
    return host, int(port)


#: What a client sends first on an HTTP/2 connection (gRPC's transport, which a Ray
#: head's port speaks), with an empty SETTINGS frame: the server answers with its own.
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_HTTP2_SETTINGS = 4


def _answers(host: str, port: int) -> str | None:
    """Why no Ray head answers at ``host:port`` within :data:`ANSWER_SECONDS`, or None.

    Ray alone would retry for minutes both where nothing listens and where something
    other than a Ray head does (it waits for a gRPC answer that never comes), so the
    port is asked for the first frame of gRPC's transport (HTTP/2): a head sends its
    SETTINGS frame at once, before any authentication. With TLS (``RAY_USE_TLS``) only
    the connection is checked: the handshake is Ray's to make."""
    try:
        connection = socket.create_connection((host, port), timeout=ANSWER_SECONDS)
    except TimeoutError:
        return "no connection"
    except OSError as error:
        return error.strerror or str(error) or type(error).__name__
    header = b""
    with connection:
        if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
            return None
        try:
            connection.sendall(_HTTP2_PREFACE)
            while len(header) < 9:
                chunk = connection.recv(9 - len(header))
                if not chunk:
                    break
                header += chunk
        except TimeoutError:
            return "a connection, but no answer as a Ray head"
        except OSError as error:
            return f"a connection, then {error.strerror or error}"
    if len(header) < 9 or header[3] != _HTTP2_SETTINGS:
        return "something answers there, but not as a Ray head (no gRPC)"
    return None


def connect(address: str, jobs: int = 1) -> Any:
    """Ray, started or joined (see the module text) unless this process already is; the
    ``ray`` module. A local instance started here gets ``jobs`` CPUs when ``jobs > 1``,
    else every core. An address is checked first (its form, then that a Ray head answers
    there within seconds, where Ray itself would wait for minutes: :func:`_answers`); a
    cluster that wants its token (``ray start`` makes one since Ray 2.59) is joined with
    the token this machine keeps (``~/.ray/auth_token``, or Ray's own variables)."""
    where = check_address(address)
    if where is not None and not os.environ.get("RAY_AUTH_MODE") and (
            os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
            or TOKEN_FILE.exists()):
        # A cluster that authenticates wants the token this machine keeps; one that does
        # not ignores it. Ray reads the mode when it starts in this process.
        os.environ["RAY_AUTH_MODE"] = "token"
    ray = import_ray()
    if ray.is_initialized():
        return ray
    options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": True}
    if address == LOCAL:
        if jobs > 1:
            options["num_cpus"] = jobs
        ray.init(**options)
        return ray
    if where is not None:
        why = _answers(*where)
        if why is not None:
            raise InvalidOptionError(
                f"no Ray head at {where[0]}:{where[1]} ({why}; waited at most "
                f"{ANSWER_SECONDS:.0f} s): start the cluster there with `ray start "
                "--head`, or check the address it printed (port 6379 unless --port "
                "said otherwise)")
    try:
        ray.init(address=address, **options)
    except ConnectionError as error:
        raise InvalidOptionError(
            f"cannot join the Ray cluster at {address!r}: {error}. If it authenticates "
            "(the default of `ray start` since Ray 2.59), give this machine its token: "
            "`ray get-auth-token` on the head, into ~/.ray/auth_token or RAY_AUTH_TOKEN"
        ) from None
    return ray


def workers(jobs: int, ray: str | None) -> int:
    """How many tasks can run at once: ``jobs``, or the CPUs of the Ray cluster."""
    if ray is None:
        return max(1, jobs)
    cluster = connect(ray, jobs)
    return max(1, int(cluster.cluster_resources().get("CPU", 1)))


def _task(function: Callable[..., Any], with_shared: bool, shared: Any, argument: Any) -> Any:
    """One task, wherever it runs (on Ray, ``shared`` arrives fetched from its store)."""
    return function(shared, argument) if with_shared else function(argument)


_REMOTE: dict[str, Any] = {}


def _run_ray(function: Callable[..., Any], arguments: Sequence[Any], shared: Any,
             address: str, jobs: int, done: Callable[[int, Any], None] | None) -> list[Any]:
    ray = connect(address, jobs)
    if "task" not in _REMOTE:
        _REMOTE["task"] = ray.remote(num_cpus=1)(_task)
    remote = _REMOTE["task"]
    # The marker for "no shared data" does not survive pickling: a flag says it instead.
    with_shared = shared is not _NOTHING
    shared_ref = ray.put(shared) if with_shared else None
    refs = [remote.remote(function, with_shared, shared_ref, argument)
            for argument in arguments]
    where = {ref: index for index, ref in enumerate(refs)}
    results: list[Any] = [None] * len(refs)
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            index = where[ref]
            results[index] = ray.get(ref)
            if done:
                done(index, results[index])
    return results


# --- local processes ---------------------------------------------------------------------

#: The job a local worker process runs: its function and shared data.
_WORKER: dict[str, Any] = {}


def _start_worker(function: Callable[..., Any], with_shared: bool, shared: Any) -> None:
    _WORKER.update(function=function, with_shared=with_shared, shared=shared)


def _run_indexed(item: tuple[int, Any]) -> tuple[int, Any]:
    index, argument = item
    return index, _task(_WORKER["function"], _WORKER["with_shared"], _WORKER["shared"],
                        argument)


def _run_local(function: Callable[..., Any], arguments: Sequence[Any], shared: Any,
               jobs: int, done: Callable[[int, Any], None] | None) -> list[Any]:
    results: list[Any] = [None] * len(arguments)
    with_shared = shared is not _NOTHING
    if jobs <= 1 or len(arguments) <= 1:
        for index, argument in enumerate(arguments):
            results[index] = _task(function, with_shared, shared, argument)
            if done:
                done(index, results[index])
        return results
    # Forked workers inherit the shared data and the compiled kernels without pickling.
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    processes = min(jobs, len(arguments))
    with context.Pool(processes, initializer=_start_worker,
                      initargs=(function, with_shared, shared)) as pool:
        for index, result in pool.imap_unordered(_run_indexed, enumerate(arguments)):
            results[index] = result
            if done:
                done(index, result)
        pool.close()  # let the workers exit rather than be terminated
        pool.join()
    return results


# --- the one door --------------------------------------------------------------------------


def run_tasks(function: Callable[..., R], arguments: Sequence[Any], jobs: int = 1,
              ray: str | None = None, *, shared: Any = _NOTHING,
              done: Callable[[int, R], None] | None = None) -> list[R]:
    """``function(argument)`` for every argument (``function(shared, argument)`` when
    ``shared`` is given), on ``jobs`` local processes or on Ray at ``ray`` (see the
    module text); the results in the order of ``arguments``.

    ``function`` must be a module-level function (workers import it by name) and its
    arguments, ``shared`` and results picklable. ``done(index, result)`` is called here
    as each task finishes, in whatever order they finish. With Ray, returned numpy
    arrays may be read-only views of Ray's object store.
    """
    if ray is not None:
        return _run_ray(function, arguments, shared, ray, jobs, done)
    return _run_local(function, arguments, shared, jobs, done)
