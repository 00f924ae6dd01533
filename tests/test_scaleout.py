"""Scale-out: the same seed gives the same numbers in this process, in local processes
and on Ray (a local instance, ``ray.init(num_cpus=2)``), for duels, rollouts, random
self-play and data-parallel training; and the CLI reads ``--ray`` with or without its
address."""

from __future__ import annotations

import json
import os
import random
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

import gammon
from gammon.agents import duel
from gammon.agents.parallel import run_tasks, task_seed
from gammon.agents.playouts import CHUNK, random_games
from gammon.analysis.cli import network_evaluator
from gammon.analysis.hint import rate_plays
from gammon.analysis.rollout import rollout
from gammon.cli.main import app, ray_argv
from gammon.core.errors import InvalidOptionError
from gammon.nn.network import Network
from gammon.training.train import Rounds, Settings, Trainer

runner = CliRunner()
HYPER = "hypergammon-2"


@pytest.fixture(scope="module")
def ray_local():
    """One local Ray instance for the module: every ``ray=...`` below joins it (Ray is
    started only where it is not running yet)."""
    ray = pytest.importorskip("ray")  # the test extra installs it
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    yield "local"
    ray.shutdown()


def _key(result):
    return [(r.index, r.seating, r.returns, r.decisions, r.finished) for r in result.results]


def test_tasks_come_back_in_order_on_every_backend(ray_local):
    arguments = list(range(7))
    expected = [task_seed(a) for a in arguments]
    seen: list[int] = []
    assert run_tasks(task_seed, arguments) == expected
    assert run_tasks(task_seed, arguments, jobs=2) == expected
    assert run_tasks(task_seed, arguments, ray=ray_local,
                     done=lambda i, _: seen.append(i)) == expected
    assert sorted(seen) == arguments
    # Shared data reaches every task.
    assert run_tasks(task_seed, [1, 2], ray=ray_local, shared=5) == [task_seed(5, 1),
                                                                     task_seed(5, 2)]


def test_a_duel_is_the_same_locally_and_on_ray(ray_local):
    local = duel(HYPER, ["heuristic", "random"], 8, seed=3, jobs=2)
    remote = duel(HYPER, ["heuristic", "random"], 8, seed=3, ray=ray_local)
    assert _key(local) == _key(remote)
    assert local.agents[0].points == remote.agents[0].points
    assert local.margin == remote.margin
    assert remote.backend.startswith("Ray") and local.backend == "2 processes"


def test_selfplay_is_the_same_on_every_backend(ray_local):
    rules = gammon.variant(HYPER)
    games = CHUNK + 300  # two chunks, the second with a seed of its own
    one = random_games(rules, games, 4, 10_000)
    assert np.array_equal(one, random_games(rules, games, 4, 10_000, jobs=2))
    assert np.array_equal(one, random_games(rules, games, 4, 10_000, ray=ray_local))
    # Up to a chunk, the games are those of one seeded call of the compiled playouts.
    assert np.array_equal(one[:CHUNK], rules.random_playouts(CHUNK, 4, 10_000))


def test_a_rollout_is_the_same_locally_and_on_ray(ray_local):
    evaluator = network_evaluator(gammon.variant(HYPER), None)
    rules = evaluator.variant
    start = rules.initial_state()
    while start.is_chance:
        start = start.apply(start.sample_chance(random.Random(3)))
    starts = [(r.text, start.apply(r.action)) for r in rate_plays(start, evaluator)[:2]]
    local = rollout(rules, evaluator, starts, start.position.turn, 12, seed=5, jobs=2)
    remote = rollout(rules, evaluator, starts, start.position.turn, 12, seed=5,
                     ray=ray_local)
    assert local == remote


def _weights(trainer: Trainer) -> list[np.ndarray]:
    net = trainer.network
    return [net.w1.copy(), net.b1.copy(), net.w2.copy(), net.b2.copy()]


def test_data_parallel_training_gives_the_same_weights_everywhere(ray_local):
    rules = gammon.variant(HYPER)
    settings = Settings(rules.name, rules.options(), hidden=8, seed=7)
    before = _weights(Trainer(settings))
    ends = []
    for jobs, ray in ((1, None), (2, None), (1, ray_local)):
        trainer = Trainer(settings, rounds=Rounds(shards=3, games=2, jobs=jobs, ray=ray))
        trainer.advance(6)  # a full round
        trainer.advance(4)  # a short one, shared out over the shards alike
        assert trainer.games == 10
        ends.append(_weights(trainer))
    for end in ends[1:]:
        assert all(np.array_equal(a, b) for a, b in zip(ends[0], end, strict=True))
    assert not all(np.array_equal(a, b) for a, b in zip(before, ends[0], strict=True))


def test_data_parallel_training_needs_the_compiled_self_play():
    with pytest.raises(InvalidOptionError, match="compiled self-play"):
        Trainer(Settings("multi-gam", hidden=4), rounds=Rounds(2, 1))


def test_the_ray_flag_takes_an_optional_address():
    assert ray_argv(["duel", "--ray"]) == ["duel", "--ray", "local"]
    assert ray_argv(["duel", "--ray", "--games", "3"]) == ["duel", "--ray", "local",
                                                          "--games", "3"]
    assert ray_argv(["duel", "--ray", HYPER]) == ["duel", "--ray", "local", HYPER]
    for address in ("auto", "local", "ray://head:10001", "127.0.0.1:6379", "head:6379"):
        assert ray_argv(["duel", "--ray", address]) == ["duel", "--ray", address]
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
    assert ray_argv(["rollout", "--ray", xgid]) == ["rollout", "--ray", "local", xgid]
    assert ray_argv(["duel", "--", "--ray"]) == ["duel", "--", "--ray"]


def test_the_cli_runs_on_ray(ray_local, tmp_path):
    base = ["duel", HYPER, "--games", "4", "--seed", "2", "--json"]
    local = json.loads(runner.invoke(app, [*base, "--jobs", "2"]).output)
    for flag in (["--ray"], ["--ray", "auto"]):  # Ray is running: --ray joins it
        result = runner.invoke(app, [*base, *flag])
        assert result.exit_code == 0, result.output
        remote = json.loads(result.output)
        assert remote["agents"][0]["points"] == local["agents"][0]["points"]
        assert remote["margin"] == local["margin"]
    # --ray alone before the variant's name.
    result = runner.invoke(app, ["duel", "--ray", HYPER, "--games", "4", "--seed", "2",
                                 "--json"])
    assert result.exit_code == 0 and json.loads(result.output)["margin"] == local["margin"]
    play = ["selfplay", HYPER, "--games", "300", "--seed", "4", "--json"]
    one = json.loads(runner.invoke(app, play).output)
    on_ray = json.loads(runner.invoke(app, [*play, "--ray"]).output)
    assert one["players"] == on_ray["players"] and one["mean_plays"] == on_ray["mean_plays"]
    # Training in rounds: the weights of --shards alone (this process) are Ray's.
    nets = []
    for name, flag in (("here", []), ("ray", ["--ray"])):
        out = tmp_path / f"{name}.npz"
        result = runner.invoke(app, ["train", HYPER, "--games", "6", "--hidden", "4",
                                     "--check-every", "0", "--shards", "3",
                                     "--shard-games", "2", "--out", str(out), *flag])
        assert result.exit_code == 0, result.output
        nets.append(Network.load(out))
    assert np.array_equal(nets[0].w1, nets[1].w1) and np.array_equal(nets[0].b2, nets[1].b2)
    assert nets[1].meta["stretches"][-1]["rounds"] == {"shards": 3, "games": 2}


def test_without_ray_the_message_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` fails
    with pytest.raises(InvalidOptionError, match=r"pip install 'gammon\[ray\]'"):
        duel(HYPER, ["heuristic", "random"], 2, ray="local")
    result = runner.invoke(app, ["duel", HYPER, "--games", "2", "--ray"])
    assert result.exit_code == 2 and "pip install" in result.output


# --- joining a cluster by its address (issue 32) --------------------------------------------


@pytest.mark.parametrize("address", ["garbage", ":6379", "head:port", "a b:6379", "h/x:1"])
def test_a_malformed_address_says_what_an_address_is(address):
    from gammon.agents.parallel import check_address

    with pytest.raises(InvalidOptionError, match="--ray takes auto, HOST:PORT"):
        check_address(address)
    result = runner.invoke(app, ["duel", HYPER, "--games", "2", f"--ray={address}"])
    assert result.exit_code == 2 and "--ray takes auto" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("address", ["ray://head:10001", "ray://:1"])
def test_rays_client_is_refused_clearly(address):
    """`--ray ray://HOST:10001` needed ray[client], which gammon[ray] does not install
    (and the head serves Ray Client only with it): it is refused, saying what to use."""
    result = runner.invoke(app, ["duel", HYPER, "--games", "2", "--ray", address])
    assert result.exit_code == 2
    text = " ".join(result.output.split())
    assert "Ray Client (ray://) is not supported" in text and "--ray HEAD:6379" in text


#: HTTP/2 frames a server that is not Ray sends: its SETTINGS, and on stream 1 a header
#: block with END_STREAM (HPACK, no Huffman): an HTTP 404 (a web server that speaks HTTP/2),
#: or gRPC's "UNIMPLEMENTED" (a gRPC server without Ray's services).
_SETTINGS_FRAME = bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _headers_frame(block: bytes) -> bytes:
    return len(block).to_bytes(3, "big") + bytes([1, 5, 0, 0, 0, 1]) + block


_ANSWERS = {
    "http2": _headers_frame(b"\x8d"),  # :status 404 (HPACK's static entry 13)
    "grpc": _headers_frame(b"\x88\x0f\x10\x10application/grpc"  # :status 200, content-type
                           b"\x00\x0bgrpc-status\x0212"),  # grpc-status: 12 (UNIMPLEMENTED)
}


@pytest.fixture
def listener():
    """What listens on a free port of this machine: nothing, a socket that never answers,
    an HTTP/1 server (which answers, but not in HTTP/2), an HTTP/2 server that sends its
    SETTINGS and then nothing (``h2-silent``), one that answers every request with a 404
    (``http2``), or a gRPC server without Ray's services (``grpc``): ``listener(kind) ->
    port``."""
    import http.server
    import socket
    import threading

    servers: list = []

    def answer(connection: socket.socket, kind: str) -> None:
        with connection:
            try:
                connection.sendall(_SETTINGS_FRAME)
                received = b""
                while len(received) < 24 + 9 + 9:  # the preface, SETTINGS, a HEADERS frame
                    chunk = connection.recv(65536)
                    if not chunk:
                        return
                    received += chunk
                if kind in _ANSWERS:
                    connection.sendall(_ANSWERS[kind])
                while connection.recv(65536):  # h2-silent: read, never answer
                    pass
            except OSError:
                pass

    def serve(sock: socket.socket, kind: str) -> None:
        while True:
            try:
                connection, _ = sock.accept()
            except OSError:
                return
            threading.Thread(target=answer, args=(connection, kind), daemon=True).start()

    def start(kind: str) -> int:
        if kind == "http":
            server = http.server.HTTPServer(("127.0.0.1", 0),
                                            http.server.BaseHTTPRequestHandler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers.append(server)
            return int(server.server_address[1])
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
        if kind == "closed":
            sock.close()
            return port
        sock.listen()  # "silent": the kernel accepts connections; nobody ever answers them
        servers.append(sock)
        if kind != "silent":
            threading.Thread(target=serve, args=(sock, kind), daemon=True).start()
        return port

    yield start
    for server in servers:
        if isinstance(server, http.server.HTTPServer):
            server.shutdown()
            server.server_close()
        else:
            server.close()


def _selfplay(*flag: str, env: dict[str, str] | None = None) -> tuple[int, str, float]:
    """``gammon selfplay backgammon`` with ``flag`` in a process of its own (this module's
    Ray may be running here), as a user runs it: its exit code, its error output on one
    line, and the seconds it took. Stopped at 60 s: a test that waits that long fails."""
    import os
    import subprocess
    import time

    environment = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    began = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, "-m", "gammon", "selfplay", "backgammon",
                               "--games", "50", *flag], capture_output=True, text=True,
                              timeout=60, env={**environment, **(env or {})})
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(flag)} with {env}: still waiting after 60 s")
    return done.returncode, " ".join(done.stderr.split()), time.perf_counter() - began


def _refusal(monkeypatch, address: str, env: dict[str, str] | None = None) -> tuple[str, float]:
    """What ``--ray address`` is told before Ray is started or joined (the check of
    :func:`gammon.agents.parallel.reach`, in this process), and the seconds it took."""
    import time

    from gammon.agents import parallel

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    # Restored after the test, whatever the check sets (it asks Ray for token mode).
    monkeypatch.setenv("RAY_AUTH_MODE", os.environ.get("RAY_AUTH_MODE", ""))
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    began = time.perf_counter()
    with pytest.raises(InvalidOptionError) as refused:
        parallel.reach(address)
    return " ".join(str(refused.value).split()), time.perf_counter() - began


def test_a_wrong_address_is_an_error_of_the_command_within_seconds(listener):
    """As a user runs it: `--ray 127.0.0.1:9999` waited ten minutes; it exits at once
    with what was asked and what is there, and no traceback."""
    port = listener("closed")
    code, text, took = _selfplay("--ray", f"127.0.0.1:{port}")
    assert code == 2, text[-2000:]
    assert (f"no Ray head at 127.0.0.1:{port} (given with --ray): nothing listens there "
            "(connection refused)") in text
    assert "ray start --head" in text and "Traceback" not in text
    assert took < 30


@pytest.mark.parametrize(("kind", "why"), [
    ("closed", "nothing listens there (connection refused)"),
    ("silent", "a connection, but no answer within 3 s"),
    ("http", "something that does not speak HTTP/2 (gRPC's transport): not a Ray head"),
    ("h2-silent", "an HTTP/2 server that did not answer a call within 3 s"),
    ("http2", "an HTTP/2 server that is not gRPC (HTTP 404): not a Ray head"),
    ("grpc", "a gRPC server without Ray's services: not a Ray head"),
])
def test_a_wrong_address_fails_within_seconds(listener, monkeypatch, kind, why):
    """An address where something other than a Ray head listens waited as long (Ray
    waits for a gRPC answer, and retries while an HTTP/2 server is silent). Each is said
    within seconds: what was asked, and what is there."""
    port = listener(kind)
    text, took = _refusal(monkeypatch, f"127.0.0.1:{port}")
    assert f"no Ray head at 127.0.0.1:{port} (given with --ray): {why}" in text
    assert "ray start --head" in text
    assert took < 30


@pytest.mark.parametrize("address", ["local", "auto"])
def test_an_address_in_ray_address_is_checked_like_one_given(listener, monkeypatch, address):
    """`RAY_ADDRESS=127.0.0.1:1 gammon selfplay backgammon --ray` (or `--ray auto`) waited
    without end: Ray reads the variable itself. The address it names is checked as one
    given with --ray is, and the message says where it came from."""
    port = listener("closed")
    text, took = _refusal(monkeypatch, address, {"RAY_ADDRESS": f"127.0.0.1:{port}"})
    assert (f"no Ray head at 127.0.0.1:{port} (from RAY_ADDRESS): nothing listens there "
            "(connection refused)") in text
    assert "or unset RAY_ADDRESS" in text
    assert took < 30


def test_the_address_a_ray_start_left_is_checked_too(listener, tmp_path):
    """`--ray` alone joins the cluster the last `ray start` here recorded (Ray's
    ray_current_cluster file, under RAY_TMPDIR): a head gone since is said as such. In a
    process of its own: this module's Ray keeps its own record here."""
    port = listener("closed")
    (tmp_path / "ray").mkdir()
    (tmp_path / "ray" / "ray_current_cluster").write_text(f"127.0.0.1:{port}")
    code, text, took = _selfplay("--ray", env={"RAY_TMPDIR": str(tmp_path)})
    assert code == 2, text[-2000:]
    assert (f"no Ray head at 127.0.0.1:{port} (from the last `ray start` on this machine "
            "(Ray's ray_current_cluster file)): nothing listens there") in text
    assert took < 30


@pytest.mark.parametrize(("value", "says"), [
    ("garbage", "RAY_ADDRESS (which --ray reads) takes auto, HOST:PORT"),
    ("ray://head:10001", "RAY_ADDRESS=ray://head:10001: Ray Client (ray://) is not supported"),
])
def test_a_malformed_ray_address_says_where_it_came_from(monkeypatch, value, says):
    text, _ = _refusal(monkeypatch, "local", {"RAY_ADDRESS": value})
    assert says in text


def test_an_address_given_with_the_flag_wins_over_ray_address(listener, monkeypatch):
    """As Ray has it: RAY_ADDRESS stands in only for no address or auto."""
    port = listener("closed")
    text, _ = _refusal(monkeypatch, f"127.0.0.1:{port}", {"RAY_ADDRESS": "garbage"})
    assert f"no Ray head at 127.0.0.1:{port} (given with --ray)" in text


def test_auto_without_a_cluster_on_this_machine_says_so(monkeypatch):
    """`--ray auto` with no RAY_ADDRESS, no `ray start` recorded and no head running here."""
    from gammon.agents import parallel

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(parallel, "_found_on_this_machine", lambda auto: None)
    with pytest.raises(InvalidOptionError, match=r"--ray auto: no Ray cluster found on "
                       r"this machine .*--ray HEAD:6379"):
        parallel.resolve_address("auto")


def test_a_raylets_port_is_named_as_such(ray_local):
    """The port of a node's raylet (a gRPC server of Ray's) instead of the head's GCS port
    took 24 s and hinted at a token: it is named for what it is, within seconds."""
    import ray

    node = ray.nodes()[0]
    host, port = node["NodeManagerAddress"], node["NodeManagerPort"]
    code, text, took = _selfplay("--ray", f"{host}:{port}")
    assert code == 2, text[-2000:]
    assert (f"no Ray head at {host}:{port} (given with --ray): a Ray raylet's port (a "
            "node's), not the head's GCS port") in text
    assert "token" not in text and took < 30


@pytest.mark.parametrize(("env", "says"), [
    ({"RAY_AUTH_TOKEN_PATH": "/nonexistent/auth_token"},
     "a Ray head that wants a token, and this machine has none (/nonexistent/auth_token)"),
    ({"RAY_AUTH_TOKEN": "not-the-token"},
     "a Ray head that refuses this machine's token (RAY_AUTH_TOKEN)"),
])
def test_a_head_that_wants_another_token_says_so(ray_local, env, says):
    """A head that authenticates (Ray's default since 2.59) and no token here, or another
    one: said within seconds, with where the token was looked for."""
    import ray

    from gammon.agents.grpc_probe import call

    host, _, port = ray.get_runtime_context().gcs_address.rpartition(":")
    if call(host, int(port), "/ray.rpc.NodeInfoGcsService/GetClusterId").status != 16:
        pytest.skip("this Ray starts its local instances without token authentication")
    code, text, took = _selfplay("--ray", f"{host}:{port}",
                                 env={"RAY_AUTH_TOKEN": "", **env})
    assert code == 2, text[-2000:]
    assert f"no Ray head at {host}:{port} (given with --ray): {says}" in text
    assert "ray get-auth-token" in text and took < 30


def test_a_machine_that_is_not_a_node_of_the_cluster_is_told_so(ray_local, monkeypatch):
    """A driver joins through a raylet of the cluster on its machine; where none runs,
    ray.init looked for one for a minute. The head is asked for its nodes instead."""
    import ray
    from ray._private import services

    from gammon.agents import parallel
    from gammon.agents.parallel import why_not_a_node

    host, _, port = ray.get_runtime_context().gcs_address.rpartition(":")
    assert why_not_a_node(host, int(port)) is None  # this machine is the fixture's node
    monkeypatch.setattr(parallel, "NODE_SECONDS", 1.0)
    monkeypatch.setattr(services, "find_node_ids", lambda: ["ab" * 28])  # another's raylet
    why = why_not_a_node(host, int(port))
    assert why is not None and "this machine is not a node of that cluster" in why
    assert f"its nodes: {ray.nodes()[0]['NodeManagerAddress']})" in why
    assert f"ray start --address={host}:{port}" in why
    monkeypatch.setattr(services, "find_node_ids", lambda: [])  # no raylet here at all
    why = why_not_a_node(host, int(port))
    assert why is not None and "(no raylet runs here)" in why


def test_the_heads_own_address_answers_as_a_ray_head(ray_local):
    """The check that refuses the addresses above lets a running head's through."""
    import ray

    from gammon.agents.parallel import why_no_head

    host, _, port = ray.get_runtime_context().gcs_address.rpartition(":")
    assert why_no_head(host, int(port)) is None


@pytest.mark.slow  # about 40 s: the head starts, then the duel joins it
def test_a_duel_joins_a_cluster_started_by_ray_start_at_its_address():
    """`ray start --head` in a process of its own (token authentication on, as Ray makes
    it since 2.59), then a duel given its address: it joins with this machine's token and
    gives the numbers of a local run."""
    import os
    import shutil
    import signal
    import socket
    import subprocess
    import tempfile
    import time
    from pathlib import Path

    ray_cli = shutil.which("ray", path=str(Path(sys.executable).parent))
    assert ray_cli is not None, "the test extra installs Ray, and its ray command with it"
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    folder = tempfile.mkdtemp(prefix="gr", dir="/tmp")  # Ray's socket paths are short
    head = subprocess.Popen([ray_cli, "start", "--head", "--block", f"--port={port}",
                             "--num-cpus=1", "--include-dashboard=false",
                             "--disable-usage-stats", f"--temp-dir={folder}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(1)
        time.sleep(3)  # the head's services behind its port
        base = ["duel", HYPER, "--games", "4", "--seed", "2", "--json"]
        done = subprocess.run([sys.executable, "-m", "gammon", *base, "--ray",
                               f"127.0.0.1:{port}"], capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        local = json.loads(runner.invoke(app, base).output)
        assert json.loads(done.stdout)["margin"] == local["margin"]
    finally:
        try:
            os.killpg(head.pid, signal.SIGTERM)
            head.wait(timeout=60)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(head.pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
