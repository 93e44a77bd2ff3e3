"""What the tests share: the server under test (from the environment), a loopback webhook
receiver, two loopback proxies that misbehave once (a 429, a dropped answer), and a loopback TCP
proxy that plays the load balancer (cut, restored, sent to another instance)."""

from __future__ import annotations

import http.server
import json
import os
import socket
import socketserver
import threading
import time
import unittest
import uuid
from typing import Any, Callable, Dict, List, Optional, Tuple

PLATFORM_URL = os.environ.get("UNDERSTUDY_BASE_URL")
MAILBOX_URL = os.environ.get("MAILBOX_BASE_URL")
API_KEY = os.environ.get("UNDERSTUDY_API_KEY")
#: A second instance of the platform on the same database (the room resumes on it).
OTHER_PLATFORM_URL = os.environ.get("UNDERSTUDY_OTHER_BASE_URL")

needs_platform = unittest.skipUnless(
    PLATFORM_URL and API_KEY, "set UNDERSTUDY_BASE_URL and UNDERSTUDY_API_KEY (server/test/sdk/python-sdk.test.ts does)"
)
needs_mailbox = unittest.skipUnless(
    MAILBOX_URL and API_KEY, "set MAILBOX_BASE_URL and UNDERSTUDY_API_KEY (server/test/sdk/python-sdk.test.ts does)"
)

needs_two_instances = unittest.skipUnless(
    PLATFORM_URL and OTHER_PLATFORM_URL and API_KEY,
    "set UNDERSTUDY_BASE_URL, UNDERSTUDY_OTHER_BASE_URL and UNDERSTUDY_API_KEY (server/test/sdk/python-sdk.test.ts does)",
)

WAIT_SECONDS = 60.0


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def unwrap(body: Any) -> Any:
    """Some platform answers carry the legacy envelope `{status, data}`; the resource is `data`."""
    if isinstance(body, dict) and isinstance(body.get("data"), dict) and "id" not in body:
        return body["data"]
    return body


def wait_for(condition: Callable[[], Any], what: str, timeout: float = WAIT_SECONDS) -> Any:
    """Polls until `condition()` is truthy (a cap against hanging, not a timing assertion)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


class _Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True


class WebhookReceiver:
    """An HTTP server on 127.0.0.1 that keeps every request's headers and raw body, answering 204."""

    def __init__(self) -> None:
        received: List[Tuple[Dict[str, str], bytes]] = []
        self.received = received

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                received.append(({k: v for k, v in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = _Server(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/hook"

    def wait(self, test: Callable[[Dict[str, str], bytes], bool], what: str) -> Tuple[Dict[str, str], bytes]:
        return wait_for(lambda: next(((h, b) for h, b in list(self.received) if test(h, b)), None), what)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _read_http_message(sock: socket.socket) -> bytes:
    """One HTTP/1.1 request or response with a Content-Length body (what urllib and the server send)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        if name.strip().lower() == b"transfer-encoding" and b"chunked" in value.lower():
            while not body.endswith(b"0\r\n\r\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                body += chunk
            return head + b"\r\n\r\n" + body
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


class FlakyProxy:
    """A loopback TCP proxy in front of `target`. Each request is forwarded whole and its answer
    read whole; `misbehave(n, request)` then decides what the client gets for the n-th request:
    None (the real answer), b"" (the connection is dropped: the server did the work, the client
    never hears of it), or other bytes (sent instead of the real answer)."""

    def __init__(self, target: str, misbehave: Callable[[int, bytes], Optional[bytes]]) -> None:
        host, _, port = target.split("://", 1)[1].split("/", 1)[0].partition(":")
        self._target = (host, int(port or 80))
        self._misbehave = misbehave
        self.requests: List[bytes] = []
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def headers_of(self, index: int) -> Dict[str, str]:
        head = self.requests[index].split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
        return {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in head)}

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        with client:
            request = _read_http_message(client)
            if not request:
                return
            with self._lock:
                self.requests.append(request)
                number = len(self.requests)
            instead = self._misbehave(number, request)
            if instead is not None and instead != b"":
                client.sendall(instead)
                return
            with socket.create_connection(self._target) as upstream:
                upstream.sendall(request)
                answer = _read_http_message(upstream)
            if instead == b"":
                client.shutdown(socket.SHUT_RDWR)  # answer swallowed: as if the network failed
                return
            client.sendall(answer)

    def close(self) -> None:
        self._listener.close()


def http_answer(status: int, reason: str, headers: Dict[str, str], body: Dict[str, Any]) -> bytes:
    raw = json.dumps(body).encode()
    lines = [f"HTTP/1.1 {status} {reason}", "Content-Type: application/json", f"Content-Length: {len(raw)}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + raw


def _address(url: str) -> Tuple[str, int]:
    host, _, port = url.split("://", 1)[1].split("/", 1)[0].partition(":")
    return host, int(port or 80)


class TcpProxy:
    """A loopback TCP proxy that plays the load balancer: `cut()` drops every open connection and
    refuses new ones (accepted, then closed at once), `restore()` forwards again, `retarget(url)`
    sends new connections elsewhere. The port stays the same throughout. `targets` lists where
    each forwarded connection went; `refused` counts those turned away while cut."""

    def __init__(self, target: str) -> None:
        self._target = _address(target)
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._lock = threading.Lock()
        self._cut = False
        self._open: List[socket.socket] = []
        self.targets: List[Tuple[str, int]] = []
        self.refused = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def retarget(self, target: str) -> None:
        with self._lock:
            self._target = _address(target)

    def cut(self) -> None:
        with self._lock:
            self._cut = True
            connections, self._open = self._open, []
        for connection in connections:
            _shut(connection)

    def restore(self) -> None:
        with self._lock:
            self._cut = False

    def close(self) -> None:
        self.cut()
        self._listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            with self._lock:
                cut, target = self._cut, self._target
                if cut:
                    self.refused += 1
            if cut:
                _shut(client)
                continue
            try:
                upstream = socket.create_connection(target)
            except OSError:
                _shut(client)
                continue
            with self._lock:
                self.targets.append(target)
                self._open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            _shut(source)
            _shut(sink)


def _shut(sock: socket.socket) -> None:
    """Closes a socket another thread may be reading: shutdown() wakes that reader, close() alone does not."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
