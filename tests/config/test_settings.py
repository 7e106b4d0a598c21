"""Production settings: `check --deploy` is clean, and nothing insecure is a silent default.

The production values are read from a real `DEBUG=0` process (settings.py decides them at
import), then a response made under them is checked for the headers a browser acts on: HSTS,
the Content-Security-Policy, no framing, no sniffing, and cookies only sent over HTTPS.
"""

import json
import os
import secrets
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from django.test import override_settings

from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
DATABASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/guildhall")

# What production sets, as the deployment documents it (docs/operations.md: Configuration).
PRODUCTION = {
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),  # 67 random characters
    "ALLOWED_HOSTS": "leagues.example.com",
    "DATABASE_URL": DATABASE_URL,
}

# The settings that decide what a browser is told; read from a DEBUG=0 process below.
SECURITY_SETTINGS = [
    "SECURE_SSL_REDIRECT",
    "SECURE_PROXY_SSL_HEADER",
    "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS",
    "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE",
    "SESSION_COOKIE_HTTPONLY",
    "CSRF_COOKIE_SECURE",
    "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY",
    "SECURE_CROSS_ORIGIN_OPENER_POLICY",
    "X_FRAME_OPTIONS",
    "CONTENT_SECURITY_POLICY",
]

STRICT_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "object-src": "'none'",
}


def policy(response) -> dict[str, str]:
    """The Content-Security-Policy header as {directive: sources} (its order is not fixed)."""
    directives = (
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    return {name: sources for name, sources in directives}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    # Start from this environment less what tests set for themselves (the browser tests allow
    # sync ORM calls beside Playwright's event loop, which `check --deploy` rightly flags).
    unset = {"DEBUG", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def check_deploy(**env: str) -> subprocess.CompletedProcess:
    return manage("check", "--deploy", "--fail-level", "WARNING", **{**PRODUCTION, **env})


@pytest.fixture(scope="module")
def production_settings() -> dict:
    """The security settings as a DEBUG=0 process with production variables has them."""
    script = textwrap.dedent(
        f"""
        import json
        from django.conf import settings
        print(json.dumps({{name: getattr(settings, name) for name in {SECURITY_SETTINGS!r}}}))
        """
    )
    result = manage("shell", "--no-imports", "-c", script, **PRODUCTION)
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    values["SECURE_PROXY_SSL_HEADER"] = tuple(values["SECURE_PROXY_SSL_HEADER"])
    return values


def test_check_deploy_is_clean_with_production_variables():
    result = check_deploy()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


@pytest.mark.parametrize(
    ("env", "warning"),
    [
        pytest.param({"SECRET_KEY": "short"}, "security.W009", id="weak-secret-key"),
        pytest.param({"SECURE_HSTS_SECONDS": "0"}, "security.W004", id="no-hsts"),
        pytest.param({"SECURE_SSL_REDIRECT": "0"}, "security.W008", id="no-https-redirect"),
    ],
)
def test_check_deploy_fails_on_a_weakened_setting(env, warning):
    """The clean check above means something: one weaker value and it exits non-zero."""
    result = check_deploy(**env)
    assert result.returncode != 0
    assert warning in result.stdout + result.stderr


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", DEBUG="0", ALLOWED_HOSTS="leagues.example.com")
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_development_check_passes_without_any_variables():
    result = manage("check", DEBUG="1")
    assert result.returncode == 0, result.stderr


def test_production_values(production_settings):
    assert production_settings["SECURE_HSTS_SECONDS"] >= 60 * 60 * 24 * 365
    assert production_settings["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert production_settings["SECURE_HSTS_PRELOAD"] is True
    assert production_settings["SESSION_COOKIE_SECURE"] is True
    assert production_settings["CSRF_COOKIE_SECURE"] is True
    assert production_settings["SESSION_COOKIE_HTTPONLY"] is True
    assert production_settings["X_FRAME_OPTIONS"] == "DENY"


@pytest.mark.django_db
def test_a_production_response_carries_the_security_headers(client, production_settings):
    with override_settings(**production_settings):
        response = client.get("/accounts/login/", secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert policy(response) == STRICT_POLICY
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    csrf = response.cookies["csrftoken"]
    assert csrf["secure"] is True


@pytest.mark.django_db
def test_production_cookies_are_secure_and_the_session_is_not_readable_by_scripts(
    client, production_settings
):
    user = UserFactory(username="olive")
    with override_settings(**production_settings):
        login = client.get("/accounts/login/", secure=True)
        response = client.post(
            "/accounts/login/",
            {
                "login": user.username,
                "password": "correct-horse-battery",
                "csrfmiddlewaretoken": login.cookies["csrftoken"].value,
            },
            secure=True,
        )
    assert response.status_code == 302  # logged in
    session = response.cookies["sessionid"]
    assert session["secure"] is True
    assert session["httponly"] is True
    assert policy(response) == STRICT_POLICY


@pytest.mark.django_db
def test_production_sends_plain_http_to_https(client, production_settings):
    with override_settings(**production_settings):
        plain = client.get("/accounts/login/")
        proxied = client.get("/accounts/login/", headers={"x-forwarded-proto": "https"})
    assert plain.status_code == 301
    assert plain["Location"] == "https://testserver/accounts/login/"
    assert "Strict-Transport-Security" not in plain  # HSTS only over HTTPS, as the RFC says
    assert proxied.status_code == 200  # the proxy terminated TLS and said so
    assert "preload" in proxied["Strict-Transport-Security"]


@pytest.mark.django_db
def test_development_responses_carry_the_same_policy(client):
    """Development and the tests run under the policy too, so a page that breaks shows it."""
    response = client.get("/")
    assert policy(response) == STRICT_POLICY


@pytest.mark.parametrize(
    ("url", "scheme"),
    [
        ("sqlite:///db.sqlite3", "sqlite"),
        ("mysql://user:secret@127.0.0.1:3306/guildhall", "mysql"),
        ("127.0.0.1:5432/guildhall", "(missing)"),
    ],
)
def test_settings_refuse_a_database_that_is_not_postgresql(url, scheme):
    result = manage("check", DEBUG="1", DATABASE_URL=url)
    assert result.returncode != 0
    assert f"DATABASE_URL names the '{scheme}' scheme" in result.stderr
    assert "PostgreSQL only" in result.stderr
    assert "secret" not in result.stderr  # the error never prints a password


@pytest.mark.parametrize("scheme", ["postgres", "postgresql", "pgsql"])
def test_settings_accept_every_postgresql_scheme(scheme):
    url = DATABASE_URL.replace(DATABASE_URL.split("://", 1)[0], scheme, 1)
    result = manage("check", DEBUG="1", DATABASE_URL=url)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("hosts", "debug", "url"),
    [
        (["leagues.example.com", "www.example.com"], False, "https://leagues.example.com"),
        (["*", ".example.com", "leagues.example.com"], False, "https://leagues.example.com"),
        (["*"], False, ""),
        ([], False, ""),
        (["127.0.0.1", "localhost"], True, "http://127.0.0.1:8000"),
    ],
)
def test_the_sites_address_for_notification_links(hosts, debug, url):
    from config.settings import base_url

    assert base_url(hosts, debug) == url
