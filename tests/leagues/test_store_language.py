"""A store's language (issue 45): its owner picks it on the setup page; visitors who chose no
language read its leagues' pages in it, one who chose another reads theirs, and the shared
page cache never serves one language's page to the other. Its mails follow the recipient."""

import re

import pytest
from django.conf import settings
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from audit.models import AuditEntry
from core import pagecache
from core.models import AccountLanguage
from leagues.models import Organization, Role
from tests.factories import LeagueFactory, UserFactory, organizer_of

pytestmark = pytest.mark.django_db

PROFILE = {"name": "Dragon's Den", "address": "", "time_zone": ""}


@pytest.fixture
def owner(organization):
    return organizer_of(organization, role=Role.OWNER, username="owen")


@pytest.fixture
def as_owner(client, owner):
    client.force_login(owner)
    return client


def lang_of(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.content.decode()).group(1)


def set_language(as_owner, organization, code: str):
    url = reverse("store_profile", args=[organization.slug])
    return as_owner.post(url, {**PROFILE, "language": code})


def test_the_setup_page_offers_the_language_with_its_help(as_owner, organization):
    page = as_owner.get(reverse("store_profile", args=[organization.slug])).content.decode()
    assert "Language of the store&#x27;s pages" in page
    assert (
        "Visitors who chose no language read the store&#x27;s pages in it, and mails to "
        "accounts that chose none are written in it." in page
    )
    assert '<option value="de">Deutsch</option>' in page


def test_an_unknown_language_names_the_field_and_changes_nothing(as_owner, organization):
    response = set_language(as_owner, organization, "xx")
    assert response.status_code == 400
    page = response.content.decode()
    assert 'href="#id_language"' in page
    assert "Language of the store&#x27;s pages: “xx” is not a language Guildhall speaks" in page
    organization.refresh_from_db()
    assert organization.language == ""
    assert not AuditEntry.objects.filter(organization=organization).exists()


def test_the_language_is_saved_and_in_the_stores_history(as_owner, organization):
    assert set_language(as_owner, organization, "de").status_code == 302
    organization.refresh_from_db()
    assert organization.language == "de"
    entry = AuditEntry.objects.filter(organization=organization).latest("pk")
    assert entry.before["language"] == "" and entry.after["language"] == "de"
    # The owner chose no language: the History is now in the store's German, unless asked.
    as_owner.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = as_owner.get(reverse("audit_log", args=[organization.slug])).content.decode()
    assert "Language de" in page


@pytest.fixture
def german_league(as_owner, organization, client):
    league = LeagueFactory(organization=organization, slug="friday")
    assert set_language(as_owner, organization, "de").status_code == 302
    client.logout()
    return reverse("league_detail", args=[league.slug])


def test_a_visitor_reads_the_stores_language_unless_they_chose_one(german_league, client):
    assert lang_of(client.get(german_league)) == "de"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    assert lang_of(client.get(german_league)) == "fr"


def test_with_the_page_cache_a_language_is_never_served_to_the_other(
    german_league,
    settings,
):
    settings.GUILDHALL_PAGE_CACHE = True
    cache.clear()
    pagecache.recent.clear()
    german, french = Client(), Client()
    french.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    for _ in range(2):  # the second round is served from the cache
        de, fr = german.get(german_league), french.get(german_league)
        assert (de.status_code, fr.status_code) == (200, 200)
        assert (lang_of(de), lang_of(fr)) == ("de", "fr")
        assert de["ETag"] and fr["ETag"] and de["ETag"] != fr["ETag"]
    # The other order on an empty cache: the French page first, the German one still German.
    cache.clear()
    pagecache.recent.clear()
    fr, de = french.get(german_league), german.get(german_league)
    assert (lang_of(fr), lang_of(de)) == ("fr", "de")
    assert de["ETag"] != fr["ETag"]
    # A German refresh with the French ETag gets the German page, not a 304.
    again = german.get(german_league, HTTP_IF_NONE_MATCH=fr["ETag"])
    assert again.status_code == 200 and lang_of(again) == "de"


def test_changing_the_language_is_seen_at_once_with_the_cache_on(
    german_league,
    settings,
    as_owner,
    owner,
    organization,
):
    settings.GUILDHALL_PAGE_CACHE = True
    cache.clear()
    pagecache.recent.clear()
    visitor = Client()
    assert lang_of(visitor.get(german_league)) == "de"
    as_owner.force_login(owner)
    assert set_language(as_owner, organization, "es").status_code == 302
    assert lang_of(visitor.get(german_league)) == "es"


@pytest.fixture
def languages_written(monkeypatch):
    """The language active each time the invitation's text is translated, per recipient."""
    from leagues.services import store as store_services

    written: dict[str, set[str]] = {}
    real_mail, real_gettext = store_services.send_mail, store_services._
    current: set[str] = set()

    def gettext(text):
        current.add(translation.get_language())
        return real_gettext(text)

    def send_mail(subject, body, sender, to, **kwargs):
        written[to[0]] = set(current)
        current.clear()
        return real_mail(subject, body, sender, to, **kwargs)

    monkeypatch.setattr(store_services, "_", gettext)
    monkeypatch.setattr(store_services, "send_mail", send_mail)
    return written


def test_an_invitation_is_written_in_its_recipients_language(
    as_owner, organization, django_capture_on_commit_callbacks, languages_written
):
    """The account behind the address chose French: its mail is in French, whatever the
    store's language or the owner's (who reads Polish); an address with no account gets the
    store's (German)."""
    Organization.objects.filter(pk=organization.pk).update(language="de")
    judy = UserFactory(email="judy@example.com")
    AccountLanguage.objects.create(user=judy, language="fr")
    as_owner.cookies[settings.LANGUAGE_COOKIE_NAME] = "pl"
    for email in ("judy@example.com", "nobody@example.com"):
        with django_capture_on_commit_callbacks(execute=True):
            response = as_owner.post(
                reverse("staff_invite", args=[organization.slug]), {"email": email, "role": "judge"}
            )
        assert response.status_code == 200
    assert len(mail.outbox) == 2
    assert languages_written == {"judy@example.com": {"fr"}, "nobody@example.com": {"de"}}
    # Written in French (the catalogue's), not in the owner's Polish nor the store's German.
    assert mail.outbox[0].subject == "[Guildhall] Rejoindre Dragon's Den en tant que Juge / TO"
    assert mail.outbox[0].subject != "[Guildhall] Join Dragon's Den as Judge / TO"


def test_a_store_in_english_invites_in_english(
    as_owner, organization, django_capture_on_commit_callbacks, languages_written
):
    with django_capture_on_commit_callbacks(execute=True):
        as_owner.post(
            reverse("staff_invite", args=[organization.slug]),
            {"email": "nobody@example.com", "role": "judge"},
        )
    assert languages_written == {"nobody@example.com": {"en"}}
    assert mail.outbox[0].body.startswith("Hello,\n\nowen invites you to join Dragon's Den")
