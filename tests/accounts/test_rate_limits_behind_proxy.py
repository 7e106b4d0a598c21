"""allauth's rate limits (sign-up, password reset) count each visitor by the address the rest
of the site uses (issue 30, break 3).

Behind the reverse proxy every request comes from the proxy's address; allauth read that one
and so one visitor's 20 reset requests or 120 sign-ups a minute gave every visitor a 429. It
now asks core.clientip.client_ip, as the login lockout does: the address PROXY_COUNT entries
from the right of X-Forwarded-For.
"""

import pytest
from allauth.account.adapter import get_adapter
from django.test import RequestFactory
from django.urls import reverse

from core.clientip import client_ip

pytestmark = pytest.mark.django_db

PROXY = "127.0.0.1"  # REMOTE_ADDR of every request: the proxy in front of gunicorn
NOISY = "203.0.113.7"  # documentation addresses (RFC 5737)
QUIET = "198.51.100.9"
RESET_LIMIT = 20  # allauth's reset_password: 20/m/ip (and 5/m/key: each try another address)
SIGNUP_LIMIT = 120  # settings.ACCOUNT_RATE_LIMITS["signup"]


@pytest.fixture
def behind_one_proxy(settings):
    settings.PROXY_COUNT = 1


def through_proxy(client, url, data, visitor, *, spoofed=None):
    forwarded = f"{spoofed}, {visitor}" if spoofed else visitor
    return client.post(url, data, REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)


def reset(client, n, visitor, **kwargs):
    return through_proxy(
        client,
        reverse("account_reset_password"),
        {"email": f"reader{n}@players.example"},
        visitor,
        **kwargs,
    )


def test_reset_requests_are_limited_per_visitor_not_per_proxy(client, behind_one_proxy):
    for n in range(RESET_LIMIT):
        assert reset(client, n, NOISY).status_code == 302

    assert reset(client, RESET_LIMIT, NOISY).status_code == 429
    # A spoofed entry on the left does not get the noisy visitor a fresh count.
    assert reset(client, RESET_LIMIT + 1, NOISY, spoofed=QUIET).status_code == 429
    # Another visitor through the same proxy still gets the mail.
    response = reset(client, RESET_LIMIT + 2, QUIET)
    assert response.status_code == 302
    assert response["Location"] == reverse("account_reset_password_done")


def test_sign_ups_are_limited_per_visitor_not_per_proxy(client, behind_one_proxy):
    # Sign-ups that fail (passwords that differ) count as much as any: no account is made.
    refused = {
        "email": "flood@players.example",
        "username": "flood",
        "password1": "a-long-table-passphrase",
        "password2": "another-long-passphrase",
    }
    url = reverse("account_signup")
    for _ in range(SIGNUP_LIMIT):
        assert through_proxy(client, url, refused, NOISY).status_code == 200
    assert through_proxy(client, url, refused, NOISY).status_code == 429

    response = through_proxy(
        client,
        url,
        {
            **refused,
            "email": "quiet@players.example",
            "username": "quiet",
            "password2": "a-long-table-passphrase",
        },
        QUIET,
    )
    assert response.status_code == 302


@pytest.mark.parametrize(
    ("proxies", "forwarded_for", "expected"),
    [
        (0, "198.51.100.9", "127.0.0.1"),
        (1, "1.2.3.4, 203.0.113.7", "203.0.113.7"),
        (1, "not-an-address", "127.0.0.1"),
    ],
)
def test_allauth_asks_the_sites_one_client_address(settings, proxies, forwarded_for, expected):
    settings.PROXY_COUNT = proxies
    request = RequestFactory().post(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded_for
    )

    assert get_adapter().get_client_ip(request) == client_ip(request) == expected
