"""Timed HTTP clients: one `Client` per browser (keep-alive HTTP/1.1, a cookie jar, the CSRF
token, the TLS proxy's `X-Forwarded-Proto`), every request recorded as a `Sample` in a shared
`Recorder`, which also says when the run is over (`--seconds` or `--max-requests`).

A request that gets no answer (connection refused or reset, the 30 s timeout) is a sample with
status 0 and the exception's name, never an exception in the caller.
"""

import http.client
import threading
import time
import urllib.parse
from dataclasses import dataclass

TIMEOUT = 30  # seconds a client waits for an answer


@dataclass
class Sample:
    label: str
    at: float  # seconds since the run started
    ms: float
    status: int  # 0: no answer (connection refused or reset, timeout)
    ok: bool
    error: str = ""  # why there was no answer


class Recorder:
    def __init__(self, *, seconds: float, max_requests: int):
        self.samples: list[Sample] = []
        self.started = time.monotonic()
        self.deadline = self.started + seconds
        self.max_requests = max_requests
        self.stop = threading.Event()

    def now(self) -> float:
        return time.monotonic() - self.started

    def running(self) -> bool:
        if self.stop.is_set():
            return False
        if time.monotonic() >= self.deadline or len(self.samples) >= self.max_requests:
            self.stop.set()
            return False
        return True

    def add(self, sample: Sample) -> None:
        self.samples.append(sample)  # list.append is atomic under the GIL


class Client:
    """One browser: keep-alive HTTP/1.1 to the site, a cookie jar, the CSRF token, timing."""

    def __init__(self, port: int, recorder: Recorder):
        self.port = port
        self.recorder = recorder
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None
        self.answer_headers: dict[str, str] = {}  # the last answer's, names in lower case

    def request(
        self,
        label: str,
        method: str,
        path: str,
        data: dict | None = None,
        *,
        htmx: bool = False,
        expect: tuple[int, ...] = (200,),
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str]:
        """Send one request and record it; `headers` are added to the browser's own (an
        If-None-Match). The answer's headers stay in `answer_headers` (a redirect's Location)."""
        headers = {"X-Forwarded-Proto": "https", "Accept": "text/html", **(headers or {})}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if data is not None:
            data = {"csrfmiddlewaretoken": self.cookies.get("csrftoken", ""), **data}
            body = urllib.parse.urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"https://127.0.0.1:{self.port}"
        at = self.recorder.now()
        started = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            status = response.status
            self.answer_headers = {k.lower(): v for k, v in response.getheaders()}
            for name, value in response.getheaders():
                if name.lower() == "set-cookie":
                    key, _, rest = value.partition("=")
                    self.cookies[key.strip()] = rest.split(";", 1)[0]
            if response.will_close:
                self.close()
        except (OSError, http.client.HTTPException) as error:
            self.close()
            self.answer_headers = {}
            status, text, failure = 0, "", type(error).__name__
        else:
            failure = ""
        ms = 1000 * (time.perf_counter() - started)
        self.recorder.add(Sample(label, at, ms, status, status in expect, failure))
        return status, text

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None
