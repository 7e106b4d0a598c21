"""Login rate limit (django-axes, counted in PostgreSQL).

5 failed logins for one username from one IP address refuse that username from that address,
even with the right password, with HTTP 429 and a page that says to wait 15 minutes. A flood
from one address never locks the owner out of another one, and tries refused during a lockout
do not prolong it. Both the site login and the admin login are covered, and the count is
shared by every server process because it lives in the database.
"""

import json
import os
import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
from axes.models import AccessAttempt
from django.db import connection
from django.test import RequestFactory
from django.urls import reverse

from core.clientip import client_ip
from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "correct-horse-battery"  # UserFactory's
LIMIT = 5
HOME = "203.0.113.7"  # documentation addresses (RFC 5737)
ELSEWHERE = "198.51.100.9"

LOGINS = [
    pytest.param("account_login", "/", id="site"),  # LOGIN_REDIRECT_URL
    pytest.param("admin:login", "/admin/", id="admin"),  # the admin form's own `next`
]


@pytest.fixture
def olive(db):
    return UserFactory(username="olive", is_staff=True)


@pytest.fixture
def bob(db):
    return UserFactory(username="bob", is_staff=True)


def log_in(
    client, username, password=PASSWORD, *, ip=HOME, url="account_login", next_url="", **headers
):
    # allauth's form (the site's) names the box `login`; the admin's names it `username`.
    box = "username" if url == "admin:login" else "login"
    form = {box: username, "password": password, "next": next_url}
    return client.post(reverse(url), form, REMOTE_ADDR=ip, **headers)


def logged_in_as(client):
    return client.session.get("_auth_user_id")


def fail(client, username, times, *, ip=HOME, url="account_login"):
    """Wrong passwords; the attempt that reaches the limit is already answered with the lockout."""
    for _ in range(times):
        response = log_in(client, username, "wrong password", ip=ip, url=url)
    return response


def assert_locked_out(response):
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many login attempts" in text
    assert "Please wait 15 minutes, then try again." in text
    assert 'name="password"' not in text


def age_attempts(minutes):
    """Move every recorded failure `minutes` into the past, as if that time had gone by."""
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=minutes)
        attempt.save(update_fields=["attempt_time"])


@pytest.mark.parametrize(("url", "lands_on"), LOGINS)
def test_the_right_password_works_after_failures_below_the_limit(client, olive, url, lands_on):
    response = fail(client, "olive", LIMIT - 1, url=url)
    assert response.status_code == 200  # the form again, with its usual error

    response = log_in(client, "olive", url=url, next_url=lands_on if url == "admin:login" else "")

    assert response.status_code == 302
    assert response["Location"] == lands_on
    assert logged_in_as(client) == str(olive.pk)


@pytest.mark.parametrize(("url", "lands_on"), LOGINS)
def test_at_the_limit_even_the_right_password_is_refused(client, olive, url, lands_on):
    assert_locked_out(fail(client, "olive", LIMIT, url=url))

    response = log_in(client, "olive", url=url)

    assert_locked_out(response)
    assert logged_in_as(client) is None


def test_failures_on_the_site_and_in_the_admin_add_up(client, olive):
    fail(client, "olive", 3, url="account_login")
    assert_locked_out(fail(client, "olive", 2, url="admin:login"))

    assert_locked_out(log_in(client, "olive", url="account_login"))


def test_the_lockout_page_is_the_login_page_with_the_wait_message(client, olive):
    fail(client, "olive", LIMIT)

    response = log_in(client, "olive")

    assert "registration/login.html" in [t.name for t in response.templates]
    assert f"after {LIMIT} failed attempts" in response.content.decode()
    assert f'href="{reverse("account_login")}"' in response.content.decode()


def test_failures_from_many_addresses_do_not_lock_the_username_everywhere(client, olive):
    # Locking a username from every address let anyone keep its owner out: the limit is
    # per username and address.
    for n in range(LIMIT):
        log_in(client, "olive", "wrong password", ip=f"192.0.2.{n + 1}")

    response = log_in(client, "olive", ip=ELSEWHERE)
    assert response.status_code == 302
    assert logged_in_as(client) == str(olive.pk)


def test_a_flood_from_one_address_does_not_lock_the_owner_out_from_another(client, olive):
    assert_locked_out(fail(client, "olive", 3 * LIMIT, ip=HOME))
    assert_locked_out(fail(client, "olive", LIMIT, ip=HOME, url="admin:login"))

    response = log_in(client, "olive", ip=ELSEWHERE)

    assert response.status_code == 302
    assert logged_in_as(client) == str(olive.pk)


def test_a_flood_during_the_lockout_does_not_extend_it(client, olive):
    """Wrong passwords every few minutes all through the lockout, from the locked address and
    from others: 15 minutes after it began the right password works again from there."""
    assert_locked_out(fail(client, "olive", LIMIT, ip=HOME))
    for _ in range(3):
        age_attempts(4)
        assert_locked_out(fail(client, "olive", 10, ip=HOME))
        assert_locked_out(fail(client, "olive", 10, ip=HOME, url="admin:login"))
        fail(client, "olive", 2, ip=ELSEWHERE)
    age_attempts(3)  # 15 minutes since the lockout began
    client.logout()

    response = log_in(client, "olive", ip=HOME)

    assert response.status_code == 302
    assert logged_in_as(client) == str(olive.pk)


def test_someone_elses_failures_elsewhere_do_not_lock_another_user(client, olive, bob):
    assert_locked_out(fail(client, "olive", LIMIT, ip=HOME))

    response = log_in(client, "bob", ip=ELSEWHERE)

    assert response.status_code == 302
    assert logged_in_as(client) == str(bob.pk)


def test_failures_for_other_usernames_from_the_same_address_do_not_lock_another_user(client, bob):
    # Five people on the store's network mistyping their own passwords: bob, on the same
    # network, still logs in.
    for name in ["ann", "cy", "dee", "eve", "olive"]:
        log_in(client, name, "wrong password", ip=HOME)

    response = log_in(client, "bob", ip=HOME)
    assert response.status_code == 302
    assert logged_in_as(client) == str(bob.pk)


def test_the_lockout_ends_after_the_cool_off(client, olive):
    fail(client, "olive", LIMIT)

    age_attempts(14)
    assert_locked_out(log_in(client, "olive"))

    age_attempts(1)
    response = log_in(client, "olive")
    assert response.status_code == 302
    assert logged_in_as(client) == str(olive.pk)


def test_tries_refused_during_the_lockout_do_not_prolong_it(client, olive):
    fail(client, "olive", LIMIT)
    age_attempts(10)

    for _ in range(3):
        assert_locked_out(log_in(client, "olive"))
    age_attempts(5)

    assert log_in(client, "olive").status_code == 302


def test_failures_spaced_more_than_the_cool_off_apart_do_not_add_up(client, olive):
    for _ in range(LIMIT - 1):
        log_in(client, "olive", "wrong password")
        age_attempts(16)
    log_in(client, "olive", "wrong password")

    assert log_in(client, "olive").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_failures_in_another_server_process_count_too(client, olive):
    """Two workers: 3 failures here and 2 in another process lock the username in both."""
    fail(client, "olive", 3)
    other_worker = textwrap.dedent(
        """
        import json, django
        django.setup()
        from django.test import Client
        from django.test.utils import setup_test_environment
        setup_test_environment()
        client = Client()
        codes = [
            client.post("/accounts/login/", {"login": "olive", "password": "wrong"},
                        REMOTE_ADDR="203.0.113.7").status_code
            for _ in range(3)
        ]
        print(json.dumps(codes))
        """
    )
    db = connection.settings_dict
    host = quote(db["HOST"], safe="")
    env = {
        **os.environ,
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        # A socket directory as the host (make test's embedded server) must be percent-encoded.
        "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{host}:"
        f"{db['PORT'] or 5432}/{db['NAME']}",
    }
    result = subprocess.run(
        [sys.executable, "-c", other_worker],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr

    # The other process saw this one's 3 failures: its 2nd failure reached the limit.
    assert json.loads(result.stdout.strip().splitlines()[-1]) == [200, 429, 429]
    assert_locked_out(log_in(client, "olive"))


@pytest.mark.parametrize(
    ("proxies", "forwarded_for", "remote_addr", "expected"),
    [
        (0, None, "203.0.113.7", "203.0.113.7"),
        (0, "198.51.100.9", "127.0.0.1", "127.0.0.1"),  # no proxy: the header is the client's
        (1, "203.0.113.7", "127.0.0.1", "203.0.113.7"),
        (1, "1.2.3.4, 203.0.113.7", "127.0.0.1", "203.0.113.7"),  # spoofed entry on the left
        (2, "1.2.3.4, 203.0.113.7, 10.0.0.2", "127.0.0.1", "203.0.113.7"),
        (1, "2001:db8::1", "127.0.0.1", "2001:db8::1"),
        (1, None, "127.0.0.1", "127.0.0.1"),
        (1, "not-an-address", "127.0.0.1", "127.0.0.1"),
        (2, "203.0.113.7", "127.0.0.1", "127.0.0.1"),  # fewer entries than proxies
    ],
)
def test_the_client_address_is_the_one_the_proxies_saw(
    settings, proxies, forwarded_for, remote_addr, expected
):
    settings.PROXY_COUNT = proxies
    headers = {"HTTP_X_FORWARDED_FOR": forwarded_for} if forwarded_for else {}
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR=remote_addr, **headers)

    assert client_ip(request) == expected


def test_behind_a_proxy_clients_are_counted_by_their_own_address(client, settings, bob):
    settings.PROXY_COUNT = 1
    for _ in range(LIMIT):
        log_in(client, "bob", "wrong password", ip="127.0.0.1", HTTP_X_FORWARDED_FOR=HOME)

    spoofing = log_in(client, "bob", ip="127.0.0.1", HTTP_X_FORWARDED_FOR=f"{ELSEWHERE}, {HOME}")
    assert_locked_out(spoofing)
    response = log_in(client, "bob", ip="127.0.0.1", HTTP_X_FORWARDED_FOR=ELSEWHERE)
    assert response.status_code == 302


def test_production_trusts_one_proxy_and_development_none(settings):
    assert settings.PROXY_COUNT == 0  # the tests run with DEBUG=1
    production = subprocess.run(
        [sys.executable, "-c", "from config import settings; print(settings.PROXY_COUNT)"],
        cwd=ROOT,
        env={**os.environ, "DEBUG": "0", "SECRET_KEY": "x" * 50},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert production.stdout.strip() == "1", production.stderr
