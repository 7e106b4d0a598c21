"""Sending one message: an HTTP POST to a webhook, or one e-mail. Each returns an `Outcome`
(notifications.domain.retry) and never raises for a receiver's failure.

Short time-outs (3 s to connect, 5 s for each read) keep a dead or slow receiver from holding
a worker: a delivery that times out is tried again later like any 5xx. Redirects are not
followed (a webhook that moved must be set again by the store).
"""

import contextlib
import ipaddress
import smtplib
import socket
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.core.mail import EmailMessage, get_connection

from .domain.retry import Outcome, after_failure, http_outcome, retry_after_seconds
from .domain.webhooks import webhook_url_problem

CONNECT_TIMEOUT = 3.0
READ_TIMEOUT = 5.0
MAIL_TIMEOUT = 10.0
USER_AGENT = "Guildhall-notifications"


def host_is_private(url: str) -> bool:
    """Whether the URL's host name resolves to this machine or a private network (a public
    name can be pointed at one after the store saved it)."""
    host = urlsplit(url).hostname or ""
    try:
        found = socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP)
    except (OSError, UnicodeError):
        return False  # no address: the POST fails and says so
    for *_, sockaddr in found:
        ip = ipaddress.ip_address(sockaddr[0].split("%", 1)[0])
        if ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_reserved:
            return True
    return False


def webhook_post(url: str, payload: dict, *, attempts: int) -> Outcome:
    local = settings.GUILDHALL_WEBHOOK_LOCAL
    problem = webhook_url_problem(url, allow_local_http=local)
    if problem is None and not local and host_is_private(url):
        problem = "The webhook's host name points to a private network address."
    if problem:
        return after_failure(attempts, problem, final=True)
    # Discord's JSON; allowed_mentions keeps a player named "@everyone" from pinging anyone.
    body = {**payload, "allowed_mentions": {"parse": []}}
    try:
        response = requests.post(
            url,
            json=body,
            timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
            allow_redirects=False,
            headers={"User-Agent": USER_AGENT},
        )
    except requests.Timeout:
        return after_failure(attempts, f"No answer within {READ_TIMEOUT:g} seconds.")
    except requests.ConnectionError:
        return after_failure(attempts, "Could not connect to the webhook's server.")
    except requests.RequestException as error:
        return after_failure(attempts, f"The request failed ({type(error).__name__}).")
    text = response.text[:2000]
    try:
        data = response.json()
    except ValueError:
        data = None
    wait = retry_after_seconds(data, response.headers.get("Retry-After"))
    return http_outcome(attempts, response.status_code, text, wait)


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


def email_send(address: str, payload: dict, *, attempts: int, mailer: Mailer) -> Outcome:
    if not settings.GUILDHALL_MAIL_DELIVERS:
        return after_failure(
            attempts, "This site sends no e-mail (no mail server is configured).", final=True
        )
    subject = settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + payload["subject"]
    try:
        mailer.send(EmailMessage(subject, payload["body"], to=[address]))
    except smtplib.SMTPRecipientsRefused:
        return after_failure(attempts, "The mail server refused the address.", final=True)
    except (smtplib.SMTPException, OSError) as error:
        return after_failure(attempts, f"The mail server did not take it ({type(error).__name__}).")
    return Outcome(True, None, "")
