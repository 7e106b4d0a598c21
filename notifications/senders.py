"""Sending one message: an HTTP POST to a webhook, or one e-mail. Each returns an `Outcome`
(notifications.domain.retry) and never raises for a receiver's failure.

A webhook POST is bounded as a whole, because one store's receiver must not hold the worker
that carries every store's messages: `DEADLINE` seconds from resolving the host name to the
answer's status (a receiver that drips a byte every few seconds is cut off there, whatever
the per-read time-out), and at most `REPLY_LIMIT` bytes of the answer are read (status line,
headers and the start of the body, for the error shown to the store; a 2xx body is not read at
all). The host name is resolved once; every address it gives must be public
(`domain.webhooks.address_is_public`), and the connection goes to one of those very addresses
(the Host header, TLS's SNI and the certificate check keep the name), so a name that answers a
public address to the check and 127.0.0.1 to the connection (DNS rebinding) reaches nothing
private. Redirects are not followed (a webhook that moved must be set again by the store).

Each POST carries the delivery's idempotency key, in the `Idempotency-Key` header and the
JSON (`idempotency_key`): a message is delivered at least once, and a worker that died after
the receiver took it sends it again with the same key (README, Deployment).
"""

import contextlib
import http.client
import ipaddress
import json
import smtplib
import socket
import ssl
import threading
import time
from urllib.parse import urlsplit

import certifi
from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.core.mail.utils import DNS_NAME
from django.utils.translation import gettext as _

from .domain.retry import Outcome, after_failure, http_outcome, retry_after_seconds
from .domain.webhooks import address_is_public, webhook_url_problem

CONNECT_TIMEOUT = 3.0  # per address tried
READ_TIMEOUT = 5.0  # per read, within the deadline
DEADLINE = 10.0  # the whole POST: name, connection, TLS, request, the answer's status and text
REPLY_LIMIT = 8 * 1024  # bytes of the answer read at most (the socket's buffer adds <= 8 KiB)
MAIL_TIMEOUT = 10.0
USER_AGENT = "Guildhall-notifications"


class WebhookAddressError(Exception):
    """The webhook's host cannot be posted to; `final`: trying again will not help."""

    def __init__(self, message: str, *, final: bool):
        super().__init__(message)
        self.final = final


class ReplyTooLong(http.client.HTTPException):
    pass


class Deadline:
    def __init__(self, seconds: float):
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        return max(0.0, self.at - time.monotonic())


def resolve(host: str, port: int, *, timeout: float) -> list[tuple]:
    """getaddrinfo's answers for `host`, waiting at most `timeout` seconds (the system
    resolver's own time-outs can add up to much more; its thread is left to end by itself)."""
    answer: dict = {}

    def lookup():
        try:
            answer["found"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except (OSError, UnicodeError) as error:
            answer["error"] = error

    thread = threading.Thread(target=lookup, name="webhook-resolve", daemon=True)
    thread.start()
    thread.join(timeout)
    if "found" not in answer:
        raise WebhookAddressError(_("The webhook's host name could not be found."), final=False)
    return answer["found"]


def addresses_checked(host: str, port: int, *, allow_loopback: bool, timeout: float):
    """The (family, sockaddr) pairs to connect to: every address `host` resolves to, once,
    each of them public (or, while developing, this machine's loopback)."""
    addresses = []
    for family, _type, _proto, _name, sockaddr in resolve(host, port, timeout=timeout):
        ip = ipaddress.ip_address(sockaddr[0].split("%", 1)[0])
        if not (address_is_public(ip) or (allow_loopback and ip.is_loopback)):
            raise WebhookAddressError(
                _("The webhook's host name points to a private network address."), final=True
            )
        if (family, sockaddr) not in addresses:
            addresses.append((family, sockaddr))
    if not addresses:
        raise WebhookAddressError(_("The webhook's host name could not be found."), final=False)
    return addresses


class _CappedReader:
    """The answer's byte stream, refusing to give more than `limit` bytes in all."""

    def __init__(self, fp, limit: int):
        self.fp, self.left = fp, limit

    def _allow(self, size) -> int:
        if self.left <= 0:
            raise ReplyTooLong(f"more than {REPLY_LIMIT} bytes")
        return self.left if size is None or size < 0 else min(size, self.left)

    def _took(self, data):
        self.left -= len(data)
        return data

    def readline(self, size=-1):
        return self._took(self.fp.readline(self._allow(size)))

    def read(self, size=-1):
        return self._took(self.fp.read(self._allow(size)))

    def read1(self, size=-1):
        return self._took(self.fp.read1(self._allow(size)))

    def readinto(self, buffer):
        view = memoryview(buffer)[: self._allow(len(buffer))]
        count = self.fp.readinto(view)
        self.left -= count or 0
        return count

    def peek(self, size=0):
        return self.fp.peek(size)[: max(self.left, 0)]

    def __getattr__(self, name):  # close, flush, fileno...
        return getattr(self.fp, name)


class _CappedResponse(http.client.HTTPResponse):
    def __init__(self, sock, *args, **kwargs):
        super().__init__(sock, *args, **kwargs)
        self.fp = _CappedReader(self.fp, REPLY_LIMIT)


class PinnedConnection(http.client.HTTPConnection):
    """HTTP(S) to `host` over a socket connected to one of `addresses` (already checked): the
    name is never resolved again. With `tls`, the handshake names `host` (SNI) and checks the
    certificate against it. `abort()` (the deadline's timer) cuts a read that is under way."""

    response_class = _CappedResponse

    def __init__(self, host, port, *, addresses, tls: bool, deadline: Deadline):
        super().__init__(host, port, timeout=READ_TIMEOUT)
        self.addresses, self.tls, self.deadline = addresses, tls, deadline
        self.default_port = 443 if tls else 80  # the Host header names no default port
        self.aborted = False
        self._raw: socket.socket | None = None

    def connect(self):
        error: OSError = TimeoutError("no time left to connect")
        for family, sockaddr in self.addresses:
            if not self.deadline.left():
                break
            raw = self._raw = socket.socket(family, socket.SOCK_STREAM)
            raw.settimeout(max(0.001, min(CONNECT_TIMEOUT, self.deadline.left())))
            try:
                raw.connect(sockaddr)  # a literal address: nothing is resolved here
            except OSError as failed:
                raw.close()
                error = failed
                continue
            raw.settimeout(max(0.001, min(READ_TIMEOUT, self.deadline.left())))
            raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if not self.tls:
                self.sock = raw
                return
            context = ssl.create_default_context(cafile=certifi.where())
            tls = context.wrap_socket(raw, server_hostname=self.host, do_handshake_on_connect=False)
            self._raw = tls  # the handshake, too, is cut by the deadline
            tls.do_handshake()
            self.sock = tls
            return
        raise error

    def close(self):
        super().close()
        if self._raw is not None:
            self._raw.close()  # a socket whose TLS handshake failed was never `self.sock`
            self._raw = None

    def abort(self):
        self.aborted = True
        if self._raw is not None:
            with contextlib.suppress(OSError, ValueError):
                # The plain socket's shutdown (not SSLSocket's): wakes a blocked read.
                socket.socket.shutdown(self._raw, socket.SHUT_RDWR)


def webhook_post(url: str, payload: dict, *, attempts: int, idempotency_key: str = "") -> Outcome:
    deadline = Deadline(DEADLINE)
    local = settings.GUILDHALL_WEBHOOK_LOCAL
    problem = webhook_url_problem(url, allow_local_http=local)
    if problem:
        return after_failure(attempts, problem, final=True)
    parts = urlsplit(url)
    tls = parts.scheme == "https"
    port = parts.port or (443 if tls else 80)
    try:
        addresses = addresses_checked(
            parts.hostname, port, allow_loopback=local, timeout=deadline.left()
        )
    except WebhookAddressError as refused:
        return after_failure(attempts, str(refused), final=refused.final)
    # Discord's JSON; allowed_mentions keeps a player named "@everyone" from pinging anyone.
    body = {**payload, "allowed_mentions": {"parse": []}}
    headers = {"User-Agent": USER_AGENT, "Content-Type": "application/json"}
    if idempotency_key:
        body["idempotency_key"] = idempotency_key
        headers["Idempotency-Key"] = idempotency_key
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    connection = PinnedConnection(
        parts.hostname, port, addresses=addresses, tls=tls, deadline=deadline
    )
    timer = threading.Timer(deadline.left(), connection.abort)
    timer.daemon = True
    timer.start()
    try:
        connection.request("POST", path, body=json.dumps(body).encode(), headers=headers)
        response = connection.getresponse()
        status, retry_header = response.status, response.getheader("Retry-After")
        text = ""
        if not 200 <= status < 300:  # a 2xx's body is not read: nothing in it matters
            with contextlib.suppress(http.client.HTTPException, OSError):
                text = response.read(REPLY_LIMIT).decode("utf-8", "replace")
        timer.cancel()
        if connection.aborted:  # a cut read can look like a short, complete answer
            raise TimeoutError("deadline")
    except (OSError, http.client.HTTPException) as error:
        if connection.aborted:
            return after_failure(
                attempts,
                _("No complete answer within %(seconds)s seconds.") % {"seconds": f"{DEADLINE:g}"},
            )
        if isinstance(error, ReplyTooLong):
            return after_failure(
                attempts, _("The answer was longer than %(bytes)s bytes.") % {"bytes": REPLY_LIMIT}
            )
        if isinstance(error, ssl.SSLCertVerificationError):
            return after_failure(attempts, _("The webhook's server certificate is not valid."))
        if connection.sock is None:
            return after_failure(attempts, _("Could not connect to the webhook's server."))
        if isinstance(error, TimeoutError):
            return after_failure(
                attempts,
                _("No answer within %(seconds)s seconds.") % {"seconds": f"{READ_TIMEOUT:g}"},
            )
        return after_failure(
            attempts, _("The request failed (%(error)s).") % {"error": type(error).__name__}
        )
    finally:
        timer.cancel()
        connection.close()
    try:
        data = json.loads(text) if text else None
    except ValueError:
        data = None
    wait = retry_after_seconds(data, retry_header)
    return http_outcome(attempts, status, text[:2000], wait)


class Mailer:
    """One connection to the mail server for a run of the task, opened at the first mail and
    kept for the next ones (a round's 64 mails are one SMTP session, not 64 handshakes); after
    an error it is closed and the next mail opens a fresh one."""

    def __init__(self):
        self.connection = None

    def send(self, message: EmailMessage) -> None:
        if self.connection is None:
            self.connection = get_connection(
                timeout=getattr(settings, "EMAIL_TIMEOUT", None) or MAIL_TIMEOUT
            )
            self.connection.open()
        message.connection = self.connection
        try:
            message.send()
        except Exception:
            self.close()
            raise

    def close(self) -> None:
        if self.connection is not None:
            with contextlib.suppress(Exception):  # closing a connection that already broke
                self.connection.close()
            self.connection = None


def email_send(
    address: str, payload: dict, *, attempts: int, mailer: Mailer, idempotency_key: str = ""
) -> Outcome:
    if not settings.GUILDHALL_MAIL_DELIVERS:
        return after_failure(
            attempts, _("This site sends no e-mail (no mail server is configured)."), final=True
        )
    subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + payload["subject"]
    try:
        # One Message-ID for every attempt: a mail sent again after a worker died is the same
        # message to the mail system (and to clients that drop duplicates).
        headers = {"Message-ID": f"<{idempotency_key}@{DNS_NAME}>"} if idempotency_key else {}
        message = EmailMultiAlternatives(subject, payload["body"], to=[address], headers=headers)
        if payload.get("html"):  # the store's look (notifications/look.py); older rows have none
            message.attach_alternative(payload["html"], "text/html")
        mailer.send(message)
    except smtplib.SMTPRecipientsRefused:
        return after_failure(attempts, _("The mail server refused the address."), final=True)
    except (smtplib.SMTPException, OSError) as error:
        return after_failure(
            attempts,
            _("The mail server did not take it (%(error)s).") % {"error": type(error).__name__},
        )
    return Outcome(True, None, "")
