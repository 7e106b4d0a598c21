"""Outgoing mail settings from the environment: an SMTP URL, or Django's usual variables.

`mail_settings(environ, debug=...)` returns the Django settings to set and whether mail can
reach its reader (`GUILDHALL_MAIL_DELIVERS`): the password reset is offered only then. In
order: `EMAIL_URL` (`smtp://user:pass@host:587/?tls=True`, `smtps://...` for TLS from the
start, `console://` to print mails, which reach no user unless DEBUG is on), else
`EMAIL_HOST` with `EMAIL_PORT`, `EMAIL_HOST_USER`, `EMAIL_HOST_PASSWORD`, `EMAIL_USE_TLS`,
`EMAIL_USE_SSL`, else with DEBUG on the console backend (`make run` prints reset mails in its
terminal), else no mail at all. The URL is parsed here with urllib (about 30 lines) rather
than by a package: the one that does it has had no release since 2022, and the format is
small. No Django import: settings.py calls it.
"""

from urllib.parse import parse_qs, unquote, urlsplit

SMTP = "django.core.mail.backends.smtp.EmailBackend"
CONSOLE = "django.core.mail.backends.console.EmailBackend"
DUMMY = "django.core.mail.backends.dummy.EmailBackend"
_TRUE = {"1", "true", "yes", "on"}


class MailConfigError(ValueError):
    pass


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in _TRUE


def _port(text: str | None, default: int, source: str) -> int:
    if text is None or text == "":
        return default
    try:
        port = int(text)
    except ValueError:
        raise MailConfigError(f"{source}: the port {text!r} is not a number") from None
    if not 0 < port < 65536:
        raise MailConfigError(f"{source}: the port {port} is out of range")
    return port


def parse_email_url(url: str) -> dict:
    """Django's EMAIL_* settings from `smtp://user:pass@host:port/?tls=True&timeout=10`.

    User and password are percent-decoded (write "@" as %40). Query options: `tls` (STARTTLS),
    `ssl` (TLS from the start, as the `smtps` scheme), `timeout` (seconds).
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme == "console":
        return {"EMAIL_BACKEND": CONSOLE}
    if scheme not in {"smtp", "smtps"}:
        raise MailConfigError(
            f"EMAIL_URL: the scheme {parts.scheme!r} is not supported; use smtp://, smtps:// "
            "or console://"
        )
    try:
        port = parts.port
    except ValueError:
        raise MailConfigError("EMAIL_URL: the port is not a number from 1 to 65535") from None
    if not parts.hostname:
        raise MailConfigError("EMAIL_URL: the host is missing (smtp://user:pass@HOST:587)")
    query = {key.lower(): values[-1] for key, values in parse_qs(parts.query).items()}
    use_ssl = scheme == "smtps" or _flag(query.get("ssl"))
    use_tls = _flag(query.get("tls"))
    if use_ssl and use_tls:
        raise MailConfigError("EMAIL_URL: choose tls (STARTTLS) or ssl (smtps), not both")
    values = {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": parts.hostname,
        "EMAIL_PORT": port or (465 if use_ssl else 587 if use_tls else 25),
        "EMAIL_HOST_USER": unquote(parts.username or ""),
        "EMAIL_HOST_PASSWORD": unquote(parts.password or ""),
        "EMAIL_USE_TLS": use_tls,
        "EMAIL_USE_SSL": use_ssl,
    }
    if "timeout" in query:
        try:
            values["EMAIL_TIMEOUT"] = float(query["timeout"])
        except ValueError:
            raise MailConfigError("EMAIL_URL: timeout must be a number of seconds") from None
    return values


def mail_settings(environ, *, debug: bool) -> dict:
    """The EMAIL_* settings and GUILDHALL_MAIL_DELIVERS for this environment."""
    url = environ.get("EMAIL_URL", "").strip()
    host = environ.get("EMAIL_HOST", "").strip()
    if url:
        values = parse_email_url(url)
    elif host:
        use_ssl, use_tls = _flag(environ.get("EMAIL_USE_SSL")), _flag(environ.get("EMAIL_USE_TLS"))
        if use_ssl and use_tls:
            raise MailConfigError("Set EMAIL_USE_TLS or EMAIL_USE_SSL, not both")
        values = {
            "EMAIL_BACKEND": SMTP,
            "EMAIL_HOST": host,
            "EMAIL_PORT": _port(environ.get("EMAIL_PORT"), 25, "EMAIL_PORT"),
            "EMAIL_HOST_USER": environ.get("EMAIL_HOST_USER", ""),
            "EMAIL_HOST_PASSWORD": environ.get("EMAIL_HOST_PASSWORD", ""),
            "EMAIL_USE_TLS": use_tls,
            "EMAIL_USE_SSL": use_ssl,
        }
    elif debug:
        values = {"EMAIL_BACKEND": CONSOLE}
    else:
        values = {"EMAIL_BACKEND": DUMMY}  # nothing configured: nothing pretends to send
    # The console reaches a developer at `make run`, not a user of a production site.
    backend = values["EMAIL_BACKEND"]
    values["GUILDHALL_MAIL_DELIVERS"] = backend == SMTP or (backend == CONSOLE and debug)
    sender = environ.get("DEFAULT_FROM_EMAIL", "").strip()
    if sender:
        values["DEFAULT_FROM_EMAIL"] = sender
        values["SERVER_EMAIL"] = sender
    return values
