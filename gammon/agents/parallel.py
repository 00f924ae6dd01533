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
  process yet (a test or notebook may have started it); whichever way a cluster is named,
  a Ray head must answer at its address within seconds (:func:`connect`). Ray Client (``ray://``) is
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
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypedDict, TypeVar, cast, overload

from gammon.agents.base import seeded_rng
from gammon.core.errors import InvalidOptionError
from gammon.core.protocol import Rules
from gammon.core.variant import variant

if TYPE_CHECKING:  # grpc_probe needs h2, an optional extra: imported when it is asked for
    from gammon.agents.grpc_probe import Answer

A = TypeVar("A")
R = TypeVar("R")
S = TypeVar("S")

#: What ``--ray`` alone means: start (or join) a Ray instance on this machine.
LOCAL = "local"

_NOTHING = object()


def task_seed(seed: int | str, *parts: object) -> int:
    """A seed (below 2**32, as numpy's generator wants) for the part of a job named by
    ``parts``: the same on every machine, run and backend."""
    return seeded_rng(seed, "task", *parts).getrandbits(32)


_RULES: dict[tuple[str, tuple[tuple[str, object], ...]], Rules] = {}


# Any: the tasks that call this read what their own variants add to the protocol (the
# track games' ``kernel``, ``random_playouts``'s ``max_turns``).
def rules_of(name: str, options: Mapping[str, object]) -> Any:
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


def import_ray() -> ModuleType:
    """The ``ray`` module, or an error that says how to install it."""
    try:
        import ray  # an optional extra (gammon[ray])
    except ImportError:
        raise InvalidOptionError(
            "--ray needs Ray, an optional extra: pip install 'gammon[ray]' (on every node "
            "of the cluster), or leave out --ray to use local processes") from None
    return ray


#: How long a cluster's address may take to answer one call before we say nothing is there
#: (two calls at most: the head's service, then a raylet's).
ANSWER_SECONDS = 3.0
#: Where ``ray start`` keeps the token of a cluster that authenticates (Ray 2.59 on).
TOKEN_FILE = Path.home() / ".ray" / "auth_token"
#: Ray's own variable for the address of its cluster, read for ``--ray`` and ``--ray auto``.
ENV = "RAY_ADDRESS"
#: The words of an address's origin in a message.
FROM_FLAG, FROM_ENV = "given with --ray", f"from {ENV}"
FROM_RAY_START = "from the last `ray start` on this machine (Ray's ray_current_cluster file)"
FROM_PROCESS = "of a Ray head running on this machine"


def check_address(address: str, origin: str = FROM_FLAG) -> tuple[str, int] | None:
    """The host and port of a Ray address (None for ``local`` and ``auto``), or an error
    that says what an address looks like; ``origin`` says where the address came from."""
    if address in (LOCAL, "auto"):
        return None
    named = "--ray" if origin == FROM_FLAG else f"{ENV} (which --ray reads)"
    if address.startswith("ray://"):
        given = f"--ray {address}" if origin == FROM_FLAG else f"{ENV}={address}"
        raise InvalidOptionError(
            f"{given}: Ray Client (ray://) is not supported (it needs "
            "'ray[client]' on the head and on this machine); run the command on a node of "
            "the cluster with --ray auto or --ray HEAD:6379")
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536 \
            or any(ch in host for ch in "/ "):
        raise InvalidOptionError(
            f"{named} takes auto, HOST:PORT (a cluster's head, as `ray start --head` "
            f"prints it: 10.0.0.5:6379), or nothing for a local instance; not {address!r}")
    return host, int(port)


def _found_on_this_machine(auto: bool) -> tuple[str, str] | None:
    """The address of a cluster Ray itself would join here without being told one, and
    where it comes from: the last ``ray start`` (what ``ray.init()`` joins), or for
    ``auto`` also any Ray head running here (Ray's older rule); None where there is none."""
    try:
        from ray._private import services  # Ray's own search (a private module: guarded)

        recorded = services.find_bootstrap_address(None)
        if recorded:
            return str(recorded), FROM_RAY_START
        if auto:
            running = sorted(services.find_gcs_addresses())
            if running:
                return str(running[0]), FROM_PROCESS
    except Exception:  # a Ray that searches otherwise: ray.init searches
        return ("auto", "found by Ray's own search") if auto else None
    return None


def resolve_address(address: str) -> tuple[str | None, str]:
    """The address ``--ray address`` names, as Ray reads it, and where it comes from (the
    words for a message); None for a local instance to start here. A HOST:PORT given is
    that address; ``auto`` and ``local`` (``--ray`` alone) take ``RAY_ADDRESS`` where it is
    set, else the cluster a ``ray start`` on this machine left (``auto`` also any Ray head
    running here); ``local`` with none of them starts Ray here, ``auto`` is refused."""
    if check_address(address) is not None:
        return address, FROM_FLAG
    value = os.environ.get(ENV, "")
    if value and value != "auto":
        if value == LOCAL:
            return None, FROM_ENV
        check_address(value, FROM_ENV)
        return value, FROM_ENV
    auto = address == "auto" or value == "auto"
    found = _found_on_this_machine(auto)
    if found is not None:
        return found
    if auto:
        raise InvalidOptionError(
            "--ray auto: no Ray cluster found on this machine (RAY_ADDRESS is not set, no "
            "`ray start` is recorded here and no Ray head runs here): start one with `ray "
            "start --head`, give its head's address with --ray HEAD:6379, or use --ray "
            "alone to start Ray in this command")
    return None, "started here"


def _token() -> tuple[str | None, str]:
    """The token ``ray.init`` sends a cluster that authenticates, and where it is kept:
    ``RAY_AUTH_TOKEN``, the file ``RAY_AUTH_TOKEN_PATH`` names, or ``~/.ray/auth_token``."""
    if os.environ.get("RAY_AUTH_TOKEN"):
        return os.environ["RAY_AUTH_TOKEN"].strip(), "RAY_AUTH_TOKEN"
    path = Path(os.environ.get("RAY_AUTH_TOKEN_PATH") or TOKEN_FILE).expanduser()
    try:
        return path.read_text().strip() or None, str(path)
    except OSError:
        return None, str(path)


#: The calls that tell a Ray head from what else may listen: the GCS's (at the head's
#: address), then a raylet's (a node's own port, an easy mistake: `ray start` prints both).
_GCS_CALL = "/ray.rpc.NodeInfoGcsService/GetClusterId"
_RAYLET_CALL = "/ray.rpc.NodeManagerService/GetSystemConfig"
_OK, _UNIMPLEMENTED, _UNAUTHENTICATED = 0, 12, 16


#: What to do, by what answers at an address that is not a Ray head's.
_START_IT = ("start the cluster there with `ray start --head`, or check the address it "
             "printed (port 6379 unless --port said otherwise)")
_HEADS_ADDRESS = ("give the head's address, the one `ray start --head` printed (port 6379 "
                  "unless --port said otherwise)")
_COPY_TOKEN = ("copy the head's token (`ray get-auth-token` on the head) into "
               "~/.ray/auth_token or RAY_AUTH_TOKEN")


class _Call(Protocol):
    """What :func:`gammon.agents.grpc_probe.call` takes and gives."""

    def __call__(self, host: str, port: int, path: str, message: bytes = b"", *,
                 metadata: dict[str, str] | None = None, timeout: float = 3.0) -> Answer: ...


def _probe() -> _Call:
    """:func:`gammon.agents.grpc_probe.call`, or an error that says how to install ``h2``
    (the HTTP/2 library it speaks with, in the ``ray`` extra)."""
    try:
        from gammon.agents.grpc_probe import call
    except ImportError as error:
        if (error.name or "").partition(".")[0] not in ("h2", "hpack", "hyperframe"):
            raise
        raise InvalidOptionError(
            "--ray with a cluster's address needs h2 (the HTTP/2 library that asks the "
            "address whether a Ray head answers), an optional extra with Ray: "
            "pip install 'gammon[ray]'") from None
    return call


def why_no_head(host: str, port: int) -> tuple[str, str] | None:
    """What answers at ``host:port`` instead of a Ray head and what to do, in words, within
    two calls of :data:`ANSWER_SECONDS` at most; None where a Ray head answers (and takes
    this machine's token, where it wants one).

    Ray alone retries for minutes where nothing listens, where something other than a Ray
    head does (it waits for a gRPC answer that never comes), and at a raylet's port, then
    hints at a token. So the head's own service is asked for the cluster's id, by one gRPC
    call with a deadline (:mod:`gammon.agents.grpc_probe`), with the token ``ray.init``
    would send; where that service is not there, a raylet's is asked for. With TLS
    (``RAY_USE_TLS``) only the connection is checked: the handshake is Ray's to make."""
    call = _probe()

    seconds = f"{ANSWER_SECONDS:.0f} s"
    if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
        try:
            socket.create_connection((host, port), timeout=ANSWER_SECONDS).close()
        except ConnectionRefusedError:
            return "nothing listens there (connection refused)", _START_IT
        except OSError as error:
            return f"no connection within {seconds} ({error.strerror or error})", _START_IT
        return None
    token, kept = _token()
    use_token = token is not None and os.environ.get("RAY_AUTH_MODE", "token") == "token"
    metadata = {"authorization": f"Bearer {token}"} if use_token else None
    answer = call(host, port, _GCS_CALL, metadata=metadata, timeout=ANSWER_SECONDS)
    if answer.error is None and answer.status == _OK and answer.message is not None:
        return None
    if answer.error == "refused":
        return "nothing listens there (connection refused)", _START_IT
    if answer.error == "no connection":
        return f"no connection within {seconds}", _START_IT
    if answer.error == "timeout":
        return (f"an HTTP/2 server that did not answer a call within {seconds}"
                if answer.http2 else f"a connection, but no answer within {seconds}"), _START_IT
    if answer.error == "not HTTP/2":
        return ("something that does not speak HTTP/2 (gRPC's transport): not a Ray head",
                _START_IT)
    if answer.error is not None:
        return f"something that {answer.error}: not a Ray head", _START_IT
    if answer.status == _UNAUTHENTICATED:
        if metadata is None:
            why = ("RAY_AUTH_MODE is not token here" if token is not None
                   else f"this machine has none ({kept})")
            return f"a Ray head that wants a token, and {why}", _COPY_TOKEN
        return f"a Ray head that refuses this machine's token ({kept})", _COPY_TOKEN
    if answer.status is None:
        return (f"an HTTP/2 server that is not gRPC (HTTP {answer.http or 'without status'}): "
                "not a Ray head"), _START_IT
    if answer.status == _UNIMPLEMENTED:
        raylet = call(host, port, _RAYLET_CALL, metadata=metadata, timeout=ANSWER_SECONDS)
        if raylet.error is None and raylet.status in (_OK, _UNAUTHENTICATED):
            return "a Ray raylet's port (a node's), not the head's GCS port", _HEADS_ADDRESS
        return "a gRPC server without Ray's services: not a Ray head", _START_IT
    return (f"a gRPC server that answers {answer.status} ({answer.grpc_message or 'no text'}):"
            " not a Ray head that takes calls"), _START_IT


_NODES_CALL = "/ray.rpc.NodeInfoGcsService/GetAllNodeInfo"
#: How long a raylet running here may take to show among the cluster's live nodes (one
#: that has just started registers within seconds; ``ray.init`` would wait a minute).
NODE_SECONDS = 15.0


def why_not_a_node(host: str, port: int) -> str | None:
    """Why this machine cannot join the cluster whose head answers at ``host:port``, or
    None: a driver joins through a raylet of the cluster on its own machine, and
    ``ray.init`` looks for one for a minute before it says so. So this machine's raylets
    (Ray's own search: its processes) must include one of the head's live nodes: said at
    once where no raylet runs here, else asked of the head (calls of
    :data:`ANSWER_SECONDS` at most) for up to :data:`NODE_SECONDS`, while a raylet that
    has just started registers. None too where that cannot be asked (a Ray whose private
    modules moved, TLS): ``ray.init`` decides."""
    import time

    call = _probe()

    if os.environ.get("RAY_USE_TLS", "0").lower() in ("1", "true"):
        return None
    token, _ = _token()
    use_token = token is not None and os.environ.get("RAY_AUTH_MODE", "token") == "token"
    metadata = {"authorization": f"Bearer {token}"} if use_token else None
    deadline = time.monotonic() + NODE_SECONDS
    while True:
        try:
            from ray._private.services import find_node_ids
            from ray.core.generated import gcs_service_pb2 as generated

            messages: ModuleType = generated  # protobuf's generated classes, unknown to mypy
            local = set(find_node_ids())
            nodes = []
            if local:
                request = messages.GetAllNodeInfoRequest(state_filter=0)  # ALIVE
                answer = call(host, port, _NODES_CALL, request.SerializeToString(),
                              metadata=metadata, timeout=ANSWER_SECONDS)
                if answer.status != _OK or answer.message is None:
                    return None
                nodes = list(messages.GetAllNodeInfoReply.FromString(
                    answer.message).node_info_list)
        except Exception:  # a Ray that keeps these otherwise: ray.init decides
            return None
        if any(node.node_id.hex() in local for node in nodes):
            return None
        if not local or time.monotonic() >= deadline:
            break
        time.sleep(1)
    if not local:
        return ("this machine is not a node of that cluster (no raylet runs here). Run the "
                f"command on a node of the cluster, or make this machine one first: ray "
                f"start --address={host}:{port}")
    where = ", ".join(sorted({node.node_manager_address for node in nodes})) or "none alive"
    return (f"this machine is not a node of that cluster (the raylets here are not among "
            f"its live nodes within {NODE_SECONDS:.0f} s; its nodes: {where}). Run the "
            f"command on one of them, or make this machine a node first: ray start "
            f"--address={host}:{port}")


def reach(address: str) -> tuple[str | None, str]:
    """The cluster ``--ray address`` names, and where the address comes from (see
    :func:`resolve_address`; None: a local instance to start here), once a Ray head has
    answered there and this machine is one of its nodes. Ray itself is neither started
    nor joined: every failure is an :class:`InvalidOptionError` that says what was
    tried, within seconds."""
    target, origin = resolve_address(address)
    if target is None:
        return None, origin
    where = check_address(target, origin) if target != "auto" else None
    if where is not None:
        if not os.environ.get("RAY_AUTH_MODE") and _token()[0] is not None:
            # A cluster that authenticates wants the token this machine keeps; one that
            # does not ignores it. Ray reads the mode when it starts in this process.
            os.environ["RAY_AUTH_MODE"] = "token"
        found = why_no_head(*where)
        if found is not None:
            why, fix = found
            unset = "; or unset RAY_ADDRESS" if origin == FROM_ENV else ""
            raise InvalidOptionError(
                f"no Ray head at {where[0]}:{where[1]} ({origin}): {why}. To join it, "
                f"{fix}{unset}")
        stranger = why_not_a_node(*where)
        if stranger is not None:
            raise InvalidOptionError(
                f"cannot join the Ray cluster at {where[0]}:{where[1]} ({origin}): {stranger}")
    return target, origin


def connect(address: str, jobs: int = 1) -> ModuleType:
    """Ray, started or joined (see the module text) unless this process already is; the
    ``ray`` module. A local instance started here gets ``jobs`` CPUs when ``jobs > 1``,
    else every core. The address joined is checked first, by :func:`reach`
    (:func:`resolve_address` says which it is and where it comes from: --ray, RAY_ADDRESS
    or the last ``ray start`` here; :func:`why_no_head` that a Ray head answers there,
    within seconds, where Ray itself would wait for minutes); a cluster that wants its
    token (``ray start`` makes one since Ray 2.59) is joined with the token this machine
    keeps (``~/.ray/auth_token``, or Ray's own variables). Every failure is an
    :class:`InvalidOptionError` that says what was tried."""
    check_address(address)
    ray = import_ray()
    if ray.is_initialized():
        return ray
    target, origin = reach(address)
    options: dict[str, object] = {"include_dashboard": False, "log_to_driver": True}
    if target is None:
        if jobs > 1:
            options["num_cpus"] = jobs
        try:
            ray.init(address=LOCAL, **options)
        except Exception as error:  # Ray's errors are of every kind
            raise InvalidOptionError(
                f"--ray: Ray did not start on this machine: {_first_line(error)}") from None
        return ray
    try:
        ray.init(address=target, **options)
    except Exception as error:  # Ray's errors are of every kind
        raise InvalidOptionError(
            f"cannot join the Ray cluster at {target} ({origin}), though its head "
            f"answers: {_first_line(error)}") from None
    return ray


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def workers(jobs: int, ray: str | None) -> int:
    """How many tasks can run at once: ``jobs``, or the CPUs of the Ray cluster."""
    if ray is None:
        return max(1, jobs)
    cluster = connect(ray, jobs)
    return max(1, int(cluster.cluster_resources().get("CPU", 1)))


def _task(function: Callable[..., R], with_shared: bool, shared: object, argument: object
          ) -> R:
    """One task, wherever it runs (on Ray, ``shared`` arrives fetched from its store)."""
    return function(shared, argument) if with_shared else function(argument)


#: Ray's remote function of :func:`_task` (Ray has no types here: Any).
_REMOTE: dict[str, Any] = {}


def _run_ray(function: Callable[..., R], arguments: Sequence[object], shared: object,
             address: str, jobs: int, done: Callable[[int, R], None] | None) -> list[R]:
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
    results: dict[int, R] = {}
    pending = list(refs)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            index = where[ref]
            results[index] = ray.get(ref)
            if done:
                done(index, results[index])
    return [results[index] for index in range(len(refs))]


# --- local processes ---------------------------------------------------------------------

class _Job(TypedDict, total=False):
    function: Callable[..., object]
    with_shared: bool
    shared: object


#: The job a local worker process runs: its function and shared data.
_WORKER: _Job = {}


def _start_worker(function: Callable[..., object], with_shared: bool, shared: object) -> None:
    _WORKER.update({"function": function, "with_shared": with_shared, "shared": shared})


def _run_indexed(item: tuple[int, object]) -> tuple[int, object]:
    index, argument = item
    return index, _task(_WORKER["function"], _WORKER["with_shared"], _WORKER["shared"],
                        argument)


def _run_local(function: Callable[..., R], arguments: Sequence[object], shared: object,
               jobs: int, done: Callable[[int, R], None] | None) -> list[R]:
    results: dict[int, R] = {}
    with_shared = shared is not _NOTHING
    if jobs <= 1 or len(arguments) <= 1:
        for index, argument in enumerate(arguments):
            results[index] = _task(function, with_shared, shared, argument)
            if done:
                done(index, results[index])
        return [results[index] for index in range(len(arguments))]
    # Forked workers inherit the shared data and the compiled kernels without pickling.
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    processes = min(jobs, len(arguments))
    with context.Pool(processes, initializer=_start_worker,
                      initargs=(function, with_shared, shared)) as pool:
        for index, result in pool.imap_unordered(_run_indexed, enumerate(arguments)):
            # The worker ran ``function``, which gives an R; the type does not travel
            # through the worker's global job.
            results[index] = cast(R, result)
            if done:
                done(index, results[index])
        pool.close()  # let the workers exit rather than be terminated
        pool.join()
    return [results[index] for index in range(len(arguments))]


# --- the one door --------------------------------------------------------------------------


@overload
def run_tasks(function: Callable[[A], R], arguments: Sequence[A], jobs: int = 1,
              ray: str | None = None, *,
              done: Callable[[int, R], None] | None = None) -> list[R]: ...
@overload
def run_tasks(function: Callable[[S, A], R], arguments: Sequence[A], jobs: int = 1,
              ray: str | None = None, *, shared: S,
              done: Callable[[int, R], None] | None = None) -> list[R]: ...
def run_tasks(function: Callable[..., R], arguments: Sequence[object], jobs: int = 1,
              ray: str | None = None, *, shared: object = _NOTHING,
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
