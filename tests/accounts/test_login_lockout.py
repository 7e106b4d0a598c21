"""The login lockout counts an account, not a spelling of it (issue 30, break 2).

An account logs in by its username or its address, in any letter case, on the site and in the
admin. After five wrong passwords from one address under any mix of those spellings, every
spelling is refused there, the right password included.
"""

import pytest
from allauth.account.models import EmailAddress
from axes.models import AccessAttempt

from accounts.lockout import account_key
from tests.config.test_login_ratelimit import (
    ELSEWHERE,
    LIMIT,
    assert_locked_out,
    fail,
    log_in,
    logged_in_as,
)
from tests.factories import UserFactory

SPELLINGS = ["pa2", "PA2", "Pa2", "pa2@players.example", "PA2@PLAYERS.EXAMPLE"]
LOGINS = ["account_login", "admin:login"]


@pytest.fixture
def pa2(db):
    user = UserFactory(username="pa2", email="pa2@players.example", is_staff=True)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


@pytest.mark.parametrize("url", LOGINS)
@pytest.mark.parametrize("spelling", SPELLINGS)
def test_after_the_limit_no_spelling_of_the_account_gets_in(client, pa2, spelling, url):
    assert_locked_out(fail(client, "pa2", LIMIT))

    response = log_in(client, spelling, url=url)

    assert_locked_out(response)
    assert logged_in_as(client) is None


@pytest.mark.parametrize("url", LOGINS)
def test_failures_under_different_spellings_add_up(client, pa2, url):
    for spelling in ["PA2", "pa2@players.example", "Pa2@Players.Example", "pA2"]:
        assert log_in(client, spelling, "wrong password", url=url).status_code == 200
    assert_locked_out(log_in(client, "PA2@PLAYERS.EXAMPLE", "wrong password", url=url))

    assert_locked_out(log_in(client, "pa2", url="account_login"))
    assert_locked_out(log_in(client, "pa2", url="admin:login"))
    assert logged_in_as(client) is None


def test_a_second_address_of_the_account_counts_against_the_same_lock(client, pa2):
    EmailAddress.objects.create(user=pa2, email="Second@Players.Example", verified=True)
    fail(client, "second@players.example", LIMIT)

    assert_locked_out(log_in(client, "PA2"))


def test_the_lock_stays_per_address_and_per_account(client, pa2):
    other = UserFactory(username="pa3", email="pa3@players.example")
    EmailAddress.objects.create(user=other, email=other.email, verified=True, primary=True)
    assert_locked_out(fail(client, "PA2", LIMIT))

    assert log_in(client, "PA2", ip=ELSEWHERE).status_code == 302
    assert logged_in_as(client) == str(pa2.pk)
    client.logout()
    assert log_in(client, "PA3@players.example").status_code == 302
    assert logged_in_as(client) == str(other.pk)


def test_failures_are_recorded_under_one_key(client, pa2):
    for spelling in SPELLINGS:
        log_in(client, spelling, "wrong password")

    assert set(AccessAttempt.objects.values_list("username", flat=True)) == {"pa2"}


@pytest.mark.django_db
def test_a_name_that_is_no_account_counts_in_lower_case():
    assert account_key("  Ghost ") == "ghost"
    assert account_key("GHOST@Nowhere.Example") == "ghost@nowhere.example"
    assert account_key("") == ""
    assert len(account_key("x" * 1000)) == 255
