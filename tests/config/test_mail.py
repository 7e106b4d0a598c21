"""Mail settings from the environment, and a password reset offered only when mail can arrive.

With an SMTP URL or EMAIL_HOST the site sends real mail; with DEBUG and nothing set (`make
run`) mails are printed on the console; in production with no mail configured the login page
does not offer a reset and every reset page answers 404 (it used to say "we've emailed you"
when no mail could ever arrive).
"""

import json
import re
import textwrap

import pytest
from django.core import mail
from django.urls import reverse

from config.mail import CONSOLE, DUMMY, SMTP, MailConfigError, mail_settings, parse_email_url
from tests.config.test_settings import PRODUCTION, manage
from tests.factories import UserFactory

RESET_PAGES = [
    "/accounts/password/reset/",
    "/accounts/password/reset/done/",
    "/accounts/password/reset/key/1-set-password/",
    "/accounts/password/reset/key/done/",
]


# --- the settings ------------------------------------------------------------------------------


def test_an_smtp_url_gives_every_smtp_setting():
    values = parse_email_url("smtp://mailer%40den.example:p%3Ass@mail.example.com:587/?tls=True")
    assert values == {
        "EMAIL_BACKEND": SMTP,
        "EMAIL_HOST": "mail.example.com",
        "EMAIL_PORT": 587,
        "EMAIL_HOST_USER": "mailer@den.example",
        "EMAIL_HOST_PASSWORD": "p:ss",
        "EMAIL_USE_TLS": True,
        "EMAIL_USE_SSL": False,
    }


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("smtps://u:p@mail.example.com", {"EMAIL_USE_SSL": True, "EMAIL_PORT": 465}),
        ("smtp://mail.example.com/?ssl=1&timeout=7", {"EMAIL_USE_SSL": True, "EMAIL_TIMEOUT": 7}),
        ("smtp://mail.example.com", {"EMAIL_PORT": 25, "EMAIL_USE_TLS": False}),
        ("smtp://mail.example.com/?tls=true", {"EMAIL_PORT": 587, "EMAIL_HOST_USER": ""}),
        ("console://", {"EMAIL_BACKEND": CONSOLE}),
    ],
)
def test_url_variants(url, expected):
    values = parse_email_url(url)
    assert {key: values.get(key) for key in expected} == expected


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://mail.example.com", "scheme 'http' is not supported"),
        ("smtp://:587", "host is missing"),
        ("smtp://mail.example.com:port", "port is not a number"),
        ("smtp://mail.example.com/?tls=1&ssl=1", "not both"),
        ("smtp://mail.example.com/?timeout=soon", "timeout must be a number"),
    ],
)
def test_a_bad_url_is_refused_with_a_reason(url, message):
    with pytest.raises(MailConfigError, match=message):
        parse_email_url(url)


def test_the_usual_variables_work_without_a_url():
    values = mail_settings(
        {
            "EMAIL_HOST": "mail.example.com",
            "EMAIL_PORT": "2525",
            "EMAIL_HOST_USER": "den",
            "EMAIL_HOST_PASSWORD": "secret",
            "EMAIL_USE_TLS": "1",
            "DEFAULT_FROM_EMAIL": "Dragon's Den <leagues@den.example>",
        },
        debug=False,
    )
    assert values["EMAIL_BACKEND"] == SMTP
    assert (values["EMAIL_HOST"], values["EMAIL_PORT"]) == ("mail.example.com", 2525)
    assert (values["EMAIL_HOST_USER"], values["EMAIL_HOST_PASSWORD"]) == ("den", "secret")
    assert values["EMAIL_USE_TLS"] is True and values["EMAIL_USE_SSL"] is False
    assert values["DEFAULT_FROM_EMAIL"] == values["SERVER_EMAIL"]
    assert values["GUILDHALL_MAIL_DELIVERS"] is True


@pytest.mark.parametrize(
    ("environ", "debug", "backend", "delivers"),
    [
        ({}, True, CONSOLE, True),  # make run: reset mails print in its terminal
        ({}, False, DUMMY, False),  # production with no mail: no reset offered
        ({"EMAIL_URL": "console://"}, False, CONSOLE, False),  # printed, reaches no user
        ({"EMAIL_URL": "smtp://mail.example.com"}, True, SMTP, True),
    ],
)
def test_without_mail_nothing_pretends_to_send(environ, debug, backend, delivers):
    values = mail_settings(environ, debug=debug)
    assert values["EMAIL_BACKEND"] == backend
    assert values["GUILDHALL_MAIL_DELIVERS"] is delivers


def read_settings(**env) -> dict:
    names = ["EMAIL_BACKEND", "GUILDHALL_MAIL_DELIVERS", "EMAIL_HOST", "DEFAULT_FROM_EMAIL"]
    script = textwrap.dedent(
        f"""
        import json
        from django.conf import settings
        print(json.dumps({{name: getattr(settings, name, None) for name in {names!r}}}))
        """
    )
    result = manage("shell", "--no-imports", "-c", script, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_real_process_reads_the_mail_variables():
    assert read_settings(**PRODUCTION)["GUILDHALL_MAIL_DELIVERS"] is False
    assert read_settings(DEBUG="1")["EMAIL_BACKEND"] == CONSOLE
    configured = read_settings(
        **PRODUCTION,
        EMAIL_URL="smtp://u:p@mail.example.com:587/?tls=True",
        DEFAULT_FROM_EMAIL="leagues@den.example",
    )
    assert configured == {
        "EMAIL_BACKEND": SMTP,
        "GUILDHALL_MAIL_DELIVERS": True,
        "EMAIL_HOST": "mail.example.com",
        "DEFAULT_FROM_EMAIL": "leagues@den.example",
    }


def test_a_bad_mail_url_stops_the_site_with_a_reason():
    result = manage("check", **PRODUCTION, EMAIL_URL="smtp://mail.example.com:port")
    assert result.returncode != 0
    assert "EMAIL_URL: the port is not a number" in result.stderr


# --- the pages ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_without_mail_the_reset_is_not_offered_and_its_pages_are_404(client, settings):
    settings.GUILDHALL_MAIL_DELIVERS = False
    UserFactory(username="olive", email="olive@den.example")

    login = client.get(reverse("account_login")).content.decode()
    assert reverse("account_reset_password") not in login
    assert "Ask your store's owner" in login
    for url in RESET_PAGES:
        assert client.get(url).status_code == 404, url
    response = client.post("/accounts/password/reset/", {"email": "olive@den.example"})
    assert response.status_code == 404
    assert mail.outbox == []


@pytest.mark.django_db
def test_with_mail_the_login_page_offers_a_reset_that_arrives_and_works(client, settings):
    settings.GUILDHALL_MAIL_DELIVERS = True
    olive = UserFactory(username="olive", email="olive@den.example")

    login = client.get(reverse("account_login")).content.decode()
    assert f'href="{reverse("account_reset_password")}"' in login
    response = client.post(reverse("account_reset_password"), {"email": "olive@den.example"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["olive@den.example"]

    link = re.search(
        r"http://testserver(/accounts/password/reset/key/\S+/)", mail.outbox[0].body
    ).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200
    done = client.post(
        form.redirect_chain[-1][0],
        {"password1": "a-new-long-passphrase", "password2": "a-new-long-passphrase"},
    )
    assert done.status_code == 302
    olive.refresh_from_db()
    assert olive.check_password("a-new-long-passphrase")
