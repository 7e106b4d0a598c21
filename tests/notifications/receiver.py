"""A fake webhook receiver for the tests: a real HTTP server on 127.0.0.1 in a thread.

It answers each POST with the next of its scripted answers (status, JSON body, headers, delay
before answering), repeating the last one, and keeps every request it got (path, headers,
JSON body) so a test can assert what arrived. `url` is where it listens. Two hostile answers:
`drip_every` sends the answer's head one byte at a time at that pace (for `drip_for`
seconds, then ends it), `filler` follows the head with that many bytes of body; `sent`
counts the bytes the receiver managed to write.
"""

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Answer:
    status: int = 204
    body: dict | None = None
    headers: dict = field(default_factory=dict)
    delay: float = 0.0
    drip_every: float = 0.0
    drip_for: float = 0.0
    filler: int = 0


class FakeReceiver:
    def __init__(self, *answers: Answer):
        self.answers = list(answers) or [Answer()]
        self.requests: list[dict] = []
        self.sent = 0
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with receiver.lock:
                    receiver.requests.append(
                        {
                            "path": self.path,
                            "headers": dict(self.headers),
                            "json": json.loads(raw or b"null"),
                            "at": time.time(),
                        }
                    )
                    answer = (
                        receiver.answers.pop(0)
                        if len(receiver.answers) > 1
                        else receiver.answers[0]
                    )
                if answer.delay:
                    time.sleep(answer.delay)
                try:
                    if answer.drip_every:
                        return self.drip(answer)
                    if answer.filler:
                        return self.fill(answer)
                except (BrokenPipeError, ConnectionResetError):
                    return  # the client hung up: what the bounded tests expect
                body = json.dumps(answer.body).encode() if answer.body is not None else b""
                try:
                    self.send_response(answer.status)
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    if body:
                        self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up waiting (a time-out test)

            def send_raw(self, data: bytes):
                self.wfile.write(data)
                self.wfile.flush()
                with receiver.lock:
                    receiver.sent += len(data)

            def drip(self, answer):
                self.send_raw(b"HTTP/1.1 %d Dripping\r\n" % answer.status)
                end = time.monotonic() + answer.drip_for
                self.send_raw(b"X-Drip: ")
                while time.monotonic() < end:
                    self.send_raw(b"a")
                    time.sleep(answer.drip_every)
                self.send_raw(b"\r\nContent-Length: 0\r\n\r\n")

            def fill(self, answer):
                head = f"HTTP/1.1 {answer.status} Big\r\nContent-Length: {answer.filler}\r\n\r\n"
                self.send_raw(head.encode())
                chunk, left = b"x" * 65536, answer.filler
                while left > 0:
                    self.send_raw(chunk[:left])
                    left -= len(chunk)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/api/webhooks/123/secret-token"

    def contents(self) -> list[str]:
        with self.lock:
            return [r["json"]["content"] for r in self.requests]

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
