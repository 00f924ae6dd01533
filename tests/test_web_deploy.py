"""docs/deploy.md's nginx configuration, as written there, in front of two server
processes on one PostgreSQL database: TLS, websockets, the redirect to https, the
headers, and two people playing a game through it (its ports, certificate and files
swapped for the test's own)."""

from __future__ import annotations

import json
import os
import re
import shutil
import ssl
import subprocess
import urllib.request
from pathlib import Path

import pytest
from browser import Server, free_port
from postgres import Postgres

DEPLOY = Path(__file__).resolve().parent.parent / "docs" / "deploy.md"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def documented_config() -> str:
    """The ```nginx block of docs/deploy.md."""
    found = re.search(r"```nginx\n(.*?)```", DEPLOY.read_text(), re.S)
    assert found, "docs/deploy.md has no nginx configuration"
    return found.group(1)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if not Path(NGINX).exists():
        why = "nginx is not installed (make test installs Debian's nginx)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    folder = tmp_path_factory.mktemp("nginx")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=127.0.0.1", "-keyout", str(folder / "key.pem"),
                    "-out", str(folder / "cert.pem")], check=True, capture_output=True)
    cluster = Postgres().start()
    database = cluster.database()
    servers = [Server(database).start(), Server(database).start()]
    http, https = free_port(), free_port()
    config = documented_config()
    config = config.replace("server 127.0.0.1:8001;", f"server 127.0.0.1:{servers[0].port};")
    config = config.replace("server 127.0.0.1:8002;", f"server 127.0.0.1:{servers[1].port};")
    config = config.replace("listen 80;", f"listen 127.0.0.1:{http};")
    config = config.replace("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
    config = re.sub(r"ssl_certificate \S+;", f"ssl_certificate {folder / 'cert.pem'};", config)
    config = re.sub(r"ssl_certificate_key \S+;", f"ssl_certificate_key {folder / 'key.pem'};",
                    config)
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    (folder / "nginx.conf").write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\n"
        + "events {}\nhttp {\n"
        + f"access_log {folder / 'access.log'};\n"
        + "".join(f"{name}_temp_path {path};\n".replace("body_", "client_body_")
                  for name, path in temp.items())
        + config + "}\n")
    started = subprocess.run([NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
                             capture_output=True, text=True)
    assert started.returncode == 0, started.stderr
    yield https, http, folder, servers
    subprocess.run([NGINX, "-c", str(folder / "nginx.conf"), "-p", str(folder), "-s", "stop"],
                   capture_output=True)
    for server in servers:
        server.stop()
    cluster.stop()


def insecure() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the test's own certificate
    return context


def request(url: str, body: dict | None = None) -> tuple[int, dict[str, str], bytes]:
    data = None if body is None else json.dumps(body).encode()
    sent = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(sent, context=insecure(), timeout=20) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def logs(folder: Path, servers: list[Server]) -> str:
    """What nginx and the two servers logged, for a failure's message."""
    return "\n".join(f"--- {path}:\n{path.read_text()[-3000:]}" for path in
                     [folder / "error.log", *(server.log for server in servers)])


def test_the_documented_nginx_serves_two_processes_over_tls_with_websockets(site):
    from websockets.sync.client import connect

    https, http, folder, servers = site
    base = f"https://127.0.0.1:{https}"
    redirect = subprocess.run(["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} "
                               "%{redirect_url}", f"http://127.0.0.1:{http}/"],
                              capture_output=True, text=True)
    assert redirect.stdout.startswith("301 https://")
    status, headers, page = request(base + "/")
    assert status == 200 and b"New table" in page
    assert "max-age" in headers["Strict-Transport-Security"]
    assert "script-src 'self'" in headers["content-security-policy"]
    status, _, body = request(base + "/api/tables", {"variant": "hypergammon-1",
                                                     "seats": ["human", "human"]})
    assert status == 201, body
    made = json.loads(body)
    status, _, body = request(base + f"/api/tables/{made['id']}/seats", {})
    other = json.loads(body)
    url = f"wss://127.0.0.1:{https}/ws/{made['id']}"
    try:
        with (connect(url, ssl=insecure(), open_timeout=30) as first,
              connect(url, ssl=insecure(), open_timeout=30) as second):
            sockets = {first: made["token"], second: other["token"]}
            for socket, token in sockets.items():
                socket.send(json.dumps({"type": "hello", "token": token}))
            over = False
            moves = 0
            while not over:  # every state goes to both: read one from each in turn
                for socket in sockets:
                    message = json.loads(socket.recv(timeout=30))
                    if message["type"] != "state":
                        continue
                    table = message["table"]
                    over = table["over"]
                    if table.get("actions") and not over:
                        socket.send(json.dumps({"type": "act", "version": table["version"],
                                                "index": 0}))
                        moves += 1
    except TimeoutError as slow:  # on a loaded machine: say where it waited
        raise AssertionError(f"{slow}\n{logs(folder, servers)}") from slow
    assert moves >= 2 and table["result"]
    log = (folder / "access.log").read_text()
    assert "/ws/" in log and made["token"] not in log  # no token in any address
