"""A fake webhook receiver for the tests: a real HTTP server on 127.0.0.1 in a thread.

It answers each POST with the next of its scripted answers (status, JSON body, headers, delay
before answering), repeating the last one, and keeps every request it got (path, JSON body)
so a test can assert what arrived. `url` is where it listens.
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


class FakeReceiver:
    def __init__(self, *answers: Answer):
        self.answers = list(answers) or [Answer()]
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length)
                with receiver.lock:
                    receiver.requests.append(
                        {"path": self.path, "json": json.loads(raw or b"null"), "at": time.time()}
                    )
                    answer = (
                        receiver.answers.pop(0)
                        if len(receiver.answers) > 1
                        else receiver.answers[0]
                    )
                if answer.delay:
                    time.sleep(answer.delay)
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
