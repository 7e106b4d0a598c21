"""An account's own language (issue 45): chosen on its settings page or with the footer's
switch, kept on the account (core.models.AccountLanguage), read on every page after and on a
fresh log-in; "no choice" gives the store's or the browser's language back."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from core import languages
from core.models import AccountLanguage
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"  # UserFactory's


def html_lang(response) -> str:
    match = re.search(r'<html lang="([^"]*)">', response.content.decode())
    assert match, "no <html lang=...>"
    return match.group(1)


def log_in(client: Client, username: str):
    response = client.post(reverse("account_login"), {"login": username, "password": PASSWORD})
    assert response.status_code == 302, response.content.decode()[:2000]
    return response


@pytest.fixture
def pat(db):
    return UserFactory(username="pat-lang")


def test_the_settings_page_lists_every_language_named_in_itself_and_no_choice(client, pat):
    client.force_login(pat)

    page = client.get(reverse("account_language")).content.decode()

    for code, name in settings.LANGUAGES:
        assert f'value="{code}"' in page
        assert name in page
    assert "No choice (the store&#x27;s or your browser&#x27;s)" in page
    # My Guildhall links to it.
    assert reverse("account_language") in client.get(reverse("my_guildhall")).content.decode()


def test_choosing_polish_is_kept_on_the_account_and_read_at_the_next_log_in(client, pat):
    log_in(client, "pat-lang")

    response = client.post(reverse("account_language"), {"language": "pl"}, follow=True)

    assert AccountLanguage.objects.get(user=pat).language == "pl"
    assert client.session[languages.SESSION_KEY] == "pl"
    assert html_lang(response) == "pl"
    assert html_lang(client.get(reverse("my_guildhall"))) == "pl"
    # Pressed twice: the same one row, the same answer.
    again = client.post(reverse("account_language"), {"language": "pl"}, follow=True)
    assert again.status_code == 200 and html_lang(again) == "pl"
    assert list(AccountLanguage.objects.filter(user=pat).values_list("language", flat=True)) == [
        "pl"
    ]

    # Another device, no cookie, a browser asking for English: the account's language wins.
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    log_in(phone, "pat-lang")
    assert phone.session[languages.SESSION_KEY] == "pl"
    assert html_lang(phone.get(reverse("my_guildhall"))) == "pl"


def test_no_choice_removes_the_accounts_language(client, pat):
    log_in(client, "pat-lang")
    client.post(reverse("account_language"), {"language": "pl"})

    response = client.post(
        reverse("account_language"), {"language": ""}, follow=True, HTTP_ACCEPT_LANGUAGE="en"
    )

    assert not AccountLanguage.objects.filter(user=pat).exists()
    assert languages.SESSION_KEY not in client.session
    assert html_lang(response) == "en"
    # The footer's cookie the choice set is gone with it: the browser's language is read.
    assert html_lang(client.get(reverse("my_guildhall"), HTTP_ACCEPT_LANGUAGE="de")) == "de"
    # Pressed twice: nothing to remove, no error.
    assert client.post(reverse("account_language"), {"language": ""}).status_code == 302
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    log_in(phone, "pat-lang")
    assert languages.SESSION_KEY not in phone.session
    assert html_lang(phone.get(reverse("my_guildhall"))) == "en"


def test_an_unknown_language_is_refused_and_changes_nothing(client, pat):
    log_in(client, "pat-lang")
    client.post(reverse("account_language"), {"language": "de"})

    response = client.post(reverse("account_language"), {"language": "xx-klingon"})

    assert response.status_code == 400
    page = response.content.decode()
    # Refused in the account's own language (German, chosen just before), naming the code.
    assert '<html lang="de">' in page and "xx-klingon" in page
    assert AccountLanguage.objects.get(user=pat).language == "de"
    assert client.session[languages.SESSION_KEY] == "de"


def test_the_page_needs_an_account(client):
    response = client.get(reverse("account_language"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_the_footers_switch_works_without_a_script_for_a_visitor(client):
    home = client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE="en")
    page = home.content.decode()
    # The footer's form: a plain POST to /i18n/setlang/ with `language` and `next`.
    assert '<form class="language-switch" method="post" action="/i18n/setlang/">' in page
    assert 'name="language"' in page and 'name="next"' in page

    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})

    assert response.status_code == 302 and response["Location"] == "/"
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert html_lang(client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE="en")) == "de"
    assert not AccountLanguage.objects.exists()


def test_the_footers_switch_of_a_logged_in_account_is_kept_on_the_account(client, pat):
    log_in(client, "pat-lang")

    response = client.post("/i18n/setlang/", {"language": "de", "next": "/"})

    assert response.status_code == 302
    assert AccountLanguage.objects.get(user=pat).language == "de"
    assert html_lang(client.get(reverse("my_guildhall"))) == "de"
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")
    log_in(phone, "pat-lang")
    assert html_lang(phone.get(reverse("my_guildhall"))) == "de"
