"""Accounts as a player meets them: sign up, verify the address from the mail, log in by
username or address; bad input refused and nothing made; the store's own people never asked
to verify; the Discord log-in present only when the site has a Discord application."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from tests.config.test_settings import PRODUCTION, manage
from tests.factories import OrganizationFactory, UserFactory, organizer_of

pytestmark = pytest.mark.django_db
User = get_user_model()

SIGNUP = {
    "email": "pat@players.example",
    "username": "pat",
    "password1": "a-long-table-passphrase",
    "password2": "a-long-table-passphrase",
}


def logged_in(client):
    return client.session.get("_auth_user_id")


def test_sign_up_then_verify_the_address_from_the_mail_then_log_in(client):
    response = client.post(reverse("account_signup"), SIGNUP)

    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert logged_in(client) is None  # not before the address is verified
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["pat@players.example"]
    link = re.search(r"http://testserver(/accounts/confirm-email/\S+/)", mail.outbox[0].body)

    # Logging in before clicking the link only sends the mail again.
    refused = client.post(
        reverse("account_login"), {"login": "pat", "password": SIGNUP["password1"]}
    )
    assert refused["Location"] == reverse("account_email_verification_sent")
    assert logged_in(client) is None

    page = client.get(link.group(1))
    assert page.status_code == 200 and "pat@players.example" in page.content.decode()
    confirmed = client.post(link.group(1))
    assert confirmed.status_code == 302
    pat = User.objects.get(username="pat")
    assert EmailAddress.objects.get(user=pat).verified
    assert logged_in(client) == str(pat.pk)

    client.logout()
    by_address = client.post(
        reverse("account_login"), {"login": "PAT@players.example", "password": SIGNUP["password1"]}
    )
    assert by_address.status_code == 302
    assert logged_in(client) == str(pat.pk)


@pytest.mark.parametrize(
    ("change", "field", "says"),
    [
        ({"password2": "something-else-entirely"}, "password2", "same password"),
        ({"email": "not-an-address"}, "email", "valid email"),
        ({"username": ""}, "username", "required"),
        ({"password1": "short", "password2": "short"}, "password1", "too short"),
    ],
)
def test_bad_sign_up_input_says_what_is_wrong_and_makes_no_account(client, change, field, says):
    response = client.post(reverse("account_signup"), {**SIGNUP, **change})

    assert response.status_code == 200
    errors = " ".join(response.context["form"].errors.get(field, []))
    assert says in errors.lower(), response.context["form"].errors
    assert not User.objects.filter(username=SIGNUP["username"]).exists()
    assert mail.outbox == []


def test_an_address_already_in_use_makes_no_second_account(client):
    # allauth does not tell a stranger that an address has an account (no enumeration): the
    # page reads as usual, and no second account is made.
    client.post(reverse("account_signup"), SIGNUP)
    again = client.post(reverse("account_signup"), {**SIGNUP, "username": "pat2"})
    assert again.status_code == 302
    assert not User.objects.filter(username="pat2").exists()
    assert User.objects.filter(email__iexact=SIGNUP["email"]).count() == 1
    assert all(m.to == [SIGNUP["email"]] for m in mail.outbox)


def test_the_stores_own_people_are_not_asked_to_verify(client):
    store = OrganizationFactory()
    olive = organizer_of(store, username="olive")
    # Even with an unverified address on record (allauth's e-mail page adds one).
    EmailAddress.objects.create(user=olive, email=olive.email, verified=False, primary=True)

    response = client.post(
        reverse("account_login"), {"login": "olive", "password": "correct-horse-battery"}
    )

    assert response.status_code == 302 and response["Location"] == "/"
    assert logged_in(client) == str(olive.pk)
    assert mail.outbox == []


def test_a_player_with_an_unverified_address_is_asked_to_verify(client):
    pat = UserFactory(username="pat")
    EmailAddress.objects.create(user=pat, email=pat.email, verified=False, primary=True)

    response = client.post(
        reverse("account_login"), {"login": "pat", "password": "correct-horse-battery"}
    )

    assert response["Location"] == reverse("account_email_verification_sent")
    assert logged_in(client) is None
    assert len(mail.outbox) == 1


def test_without_mail_accounts_work_at_once_and_with_mail_they_verify():
    """Verification needs mail: a site that cannot send any does not ask for it."""
    show = "from django.conf import settings; print(settings.ACCOUNT_EMAIL_VERIFICATION)"
    without = manage("shell", "-c", show, **PRODUCTION)
    with_mail = manage(
        "shell", "-c", show, **PRODUCTION, EMAIL_URL="smtp://mail.example.com:587/?tls=True"
    )
    assert without.stdout.strip().splitlines()[-1] == "none", without.stderr
    assert with_mail.stdout.strip().splitlines()[-1] == "mandatory", with_mail.stderr


def test_sign_up_can_be_closed(client, settings):
    settings.GUILDHALL_SIGNUP_OPEN = False
    response = client.post(reverse("account_signup"), SIGNUP)
    assert "closed" in response.content.decode().lower()
    assert not User.objects.filter(username="pat").exists()


# --- Discord ---------------------------------------------------------------------------------

DISCORD = {
    "discord": {
        "SCOPE": ["identify", "email"],
        "APPS": [{"client_id": "123456789012345678", "secret": "not-a-real-secret"}],
    }
}


def test_without_a_discord_application_there_is_no_discord_log_in(client):
    page = client.get(reverse("account_login")).content.decode()
    assert "Discord" not in page
    assert client.post("/accounts/discord/login/").status_code == 404
    assert client.get("/accounts/discord/login/callback/?code=x&state=y").status_code == 404


@override_settings(SOCIALACCOUNT_PROVIDERS=DISCORD)
def test_with_a_discord_application_the_log_in_goes_to_discord_with_its_client_id(client):
    page = client.get(reverse("account_login")).content.decode()
    assert "Log in with Discord" in page

    response = client.post("/accounts/discord/login/")

    assert response.status_code == 302
    target = urlsplit(response["Location"])
    assert target.netloc == "discord.com" and target.path.startswith("/api/oauth2/authorize")
    query = parse_qs(target.query)
    assert query["client_id"] == ["123456789012345678"]
    assert set(query["scope"][0].split()) == {"identify", "email"}
    assert query["redirect_uri"] == ["http://testserver/accounts/discord/login/callback/"]
    assert query["state"][0]


@override_settings(SOCIALACCOUNT_PROVIDERS=DISCORD)
def test_a_discord_callback_that_this_site_did_not_start_is_refused_without_a_request(client):
    # No state of ours in the session: allauth refuses before asking Discord anything (the
    # test has no network, so a request to Discord would fail loudly rather than pass).
    response = client.get("/accounts/discord/login/callback/?code=abc&state=forged")
    assert response.status_code in (200, 401)
    assert "_auth_user_id" not in client.session
    assert not User.objects.exists()
