"""One account per address and per username, ignoring case, even when sign-ups race
(issue 30, break 12).

Ten people (or one script) press "Sign up" at the same moment with one address, or one
username: the form's checks all run before any account exists, so they all pass. The database
keeps one account per lower(username) and per lower(email) (accounts/migrations), and each
loser gets what a sign-up one second later gets: a sentence on the form, or, where the site
hides which addresses have accounts, the usual "check your mail" page, never a 500.
"""

import importlib
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import IntegrityError, connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.concurrency import run_together
from tests.factories import UserFactory

User = get_user_model()
MIGRATION = importlib.import_module("accounts.migrations.0001_one_account_per_username_and_address")
RACERS = 10
PASSWORD = "a-long-table-passphrase"
USERNAME_TAKEN = "A user with that username already exists."
EMAIL_TAKEN = "A user is already registered with this email address."


def sign_up_client():
    return Client()


def sign_up(n, *, email, username):
    def job():
        response = Client().post(
            reverse("account_signup"),
            {
                "email": email,
                "username": username,
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
            REMOTE_ADDR=f"192.0.2.{n + 1}",
        )
        errors = response.context["form"].errors if response.status_code == 200 else {}
        return response.status_code, errors

    return job


def outcomes_of(jobs):
    outcomes = run_together(*jobs)
    raised = [o for o in outcomes if isinstance(o, BaseException)]
    assert raised == [], raised  # the test client re-raises a view's error: a 500
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_racing_sign_ups_with_one_address_make_one_account(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "none"  # the site says plainly the address is taken
    outcomes = outcomes_of(
        sign_up(n, email="race@players.example", username=f"racer{n}") for n in range(RACERS)
    )

    assert User.objects.filter(email__iexact="race@players.example").count() == 1
    assert sorted(status for status, _ in outcomes) == [200] * (RACERS - 1) + [302]
    for status, errors in outcomes:
        if status == 200:
            assert errors == {"email": [EMAIL_TAKEN]}


@pytest.mark.django_db(transaction=True)
def test_where_addresses_are_not_revealed_the_losers_get_the_usual_mail_page():
    # With mail, allauth never says an address has an account: a later sign-up with it gets
    # "check your mail" and the address's owner a mail saying someone tried. So do the losers.
    outcomes = outcomes_of(
        sign_up(n, email="Race@Players.example", username=f"racer{n}") for n in range(RACERS)
    )

    assert User.objects.filter(email__iexact="race@players.example").count() == 1
    assert [status for status, _ in outcomes] == [302] * RACERS
    # The winner's verification mail; the losers' "you already have an account" notes fall
    # under allauth's one mail per address every 3 minutes, as a later sign-up's would.
    assert [m.to for m in mail.outbox] == [["race@players.example"]]
    assert "/accounts/confirm-email/" in mail.outbox[0].body


@pytest.mark.django_db
def test_a_loser_whose_mail_goes_first_sends_the_winners_verification(settings):
    """The race above in its worst order, fixed: the winner's account is stored, its mail not
    yet sent, when a loser's sign-up with the address sends its mail. allauth would send "you
    already have an account" and take the address's one mail in 3 minutes, so the winner's
    verification would never come; the loser's sends the winner's verification instead."""
    from allauth.account.models import EmailAddress

    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    winner = UserFactory(username="first", email="race@players.example")
    EmailAddress.objects.create(user=winner, email=winner.email, primary=True, verified=False)
    status, errors = sign_up(1, email="Race@Players.example", username="second")()
    assert (status, errors) == (302, {})
    assert [m.to for m in mail.outbox] == [["race@players.example"]]
    assert "/accounts/confirm-email/" in mail.outbox[0].body
    # An account of yesterday gets allauth's note, as before.
    mail.outbox.clear()
    User.objects.filter(pk=winner.pk).update(date_joined=timezone.now() - timedelta(days=1))
    EmailAddress.objects.filter(user=winner).update(email="old@players.example")
    User.objects.filter(pk=winner.pk).update(email="old@players.example")
    status, _ = sign_up(2, email="old@players.example", username="third")()
    assert status == 302
    assert [m.to for m in mail.outbox] == [["old@players.example"]]
    assert "/accounts/confirm-email/" not in mail.outbox[0].body


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("verification", "lands_on"),
    [("mandatory", "account_email_verification_sent"), ("none", "my_guildhall")],
)
def test_a_double_tapped_sign_up_makes_one_account_and_both_taps_land_alike(
    settings, verification, lands_on
):
    settings.ACCOUNT_EMAIL_VERIFICATION = verification
    taps = 4

    def tap(n):
        def job():
            response = sign_up_client().post(
                reverse("account_signup"),
                {
                    "email": "tap@players.example",
                    "username": "tap",
                    "password1": PASSWORD,
                    "password2": PASSWORD,
                },
            )
            return response.status_code, response.get("Location")

        return job

    outcomes = outcomes_of(tap(n) for n in range(taps))

    assert User.objects.filter(username__iexact="tap").count() == 1
    assert outcomes == [(302, reverse(lands_on))] * taps
    if verification == "mandatory":
        assert [m.to for m in mail.outbox] == [["tap@players.example"]]
        assert "/accounts/confirm-email/" in mail.outbox[0].body


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "spellings",
    [
        pytest.param(["pat"] * RACERS, id="one-spelling"),
        pytest.param(
            ["pats", "Pats", "PATS", "pAts", "paTs", "patS", "PaTs", "pAtS", "PAts", "paTS"],
            id="any-case",
        ),
    ],
)
def test_racing_sign_ups_with_one_username_make_one_account_and_no_error(spellings):
    outcomes = outcomes_of(
        sign_up(n, email=f"pat{n}@players.example", username=name)
        for n, name in enumerate(spellings)
    )

    assert User.objects.filter(username__iexact=spellings[0]).count() == 1
    assert sorted(status for status, _ in outcomes) == [200] * (RACERS - 1) + [302]
    for status, errors in outcomes:
        if status == 200:
            assert errors == {"username": [USERNAME_TAKEN]}


@pytest.mark.django_db
def test_the_database_refuses_a_second_account_by_case_alone():
    UserFactory(username="pat", email="pat@players.example")

    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(username="PAT", email="other@players.example")
    with pytest.raises(IntegrityError), transaction.atomic():
        UserFactory(username="pat2", email="PAT@Players.Example")
    # Accounts without an address (made in the admin) are many.
    UserFactory(username="judge1", email="")
    UserFactory(username="judge2", email="")


@pytest.mark.django_db
def test_the_migration_names_existing_duplicates_instead_of_changing_them():
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX accounts_user_username_lower_uniq")
        cursor.execute("DROP INDEX accounts_user_email_lower_uniq")
    assert MIGRATION.duplicate_accounts_message(connection) is None
    first = UserFactory(username="pat", email="pat@players.example")
    second = UserFactory(username="Pat", email="pat2@players.example")
    third = UserFactory(username="sam", email="PAT@players.example")

    message = MIGRATION.duplicate_accounts_message(connection)

    assert f"username 'pat': pat (#{first.pk}), Pat (#{second.pk})" in message
    assert f"address 'pat@players.example': pat (#{first.pk}), sam (#{third.pk})" in message
    assert "then run migrate again" in message


@pytest.mark.django_db
def test_the_same_sign_up_sent_again_later_goes_where_the_first_went(client):
    first = sign_up(0, email="tap@players.example", username="tap")()
    again = client.post(
        reverse("account_signup"),
        {
            "email": "TAP@players.example",
            "username": "Tap",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert first == (302, {})
    assert again.status_code == 302
    assert again["Location"] == reverse("account_email_verification_sent")
    assert User.objects.filter(username__iexact="tap").count() == 1
    assert len(mail.outbox) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("password", "seconds_ago"),
    [("another-long-passphrase", 0), (PASSWORD, 31)],
    ids=["other-password", "older-account"],
)
def test_a_repeat_is_not_a_way_to_test_passwords(client, password, seconds_ago):
    # Only a sign-up seconds old, with its own password, counts as sent again; anything else
    # is refused as a taken username, whatever the password: the log-in (and its lockout) is
    # where passwords are checked.
    sign_up(0, email="tap@players.example", username="tap")()
    User.objects.filter(username="tap").update(
        date_joined=timezone.now() - timedelta(seconds=seconds_ago)
    )

    response = client.post(
        reverse("account_signup"),
        {
            "email": "tap@players.example",
            "username": "tap",
            "password1": password,
            "password2": password,
        },
    )

    assert response.status_code == 200
    assert response.context["form"].errors["username"] == [USERNAME_TAKEN]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("username", "PAT", "Another account already has this username"),
        ("email", "Pat@Players.Example", "Another account already has this e-mail address"),
    ],
)
def test_the_admin_says_which_field_another_account_has(client, field, value, says):
    UserFactory(username="pat", email="pat@players.example")
    sam = UserFactory(username="sam", email="sam@players.example")
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    form = {
        "username": sam.username,
        "email": sam.email,
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "12:00:00",
        "initial-date_joined_0": "2026-01-01",
        "initial-date_joined_1": "12:00:00",
        field: value,
    }

    response = client.post(reverse("admin:auth_user_change", args=[sam.pk]), form)

    assert response.status_code == 200
    assert says in " ".join(response.context["adminform"].form.errors[field])
    sam.refresh_from_db()
    assert getattr(sam, field) != value
