"""A decklist link, wherever it is read (the deck form, the import), passes one rule
(core.links.link_clean): a space is written as %20, a link that is not a web address is
refused with the reason, and the import takes every link the site has stored, older rows
with a space in them included, so an export always imports."""

import pytest
from django.urls import reverse

from exchange.services import organization_export, organization_import
from tests.factories import TournamentFactory
from tests.leagues.test_exchange import wipe_site
from tests.tournaments.play import register
from tournaments.errors import TournamentError
from tournaments.models import Entry
from tournaments.services.decks import entry_deck_set

pytestmark = pytest.mark.django_db

SPACED = "https://e.example/a b"


@pytest.fixture
def event(league):
    return TournamentFactory(league=league, name="Modern Friday", slug="modern-friday")


def ann(event) -> Entry:
    register(event, "Ann")
    return Entry.objects.get(tournament=event, player__name="Ann")


def test_the_deck_form_writes_a_space_in_a_link_as_percent_20(event, organizer_client):
    entry = ann(event)
    response = organizer_client.post(
        reverse("entry_deck", args=[event.slug, entry.pk]),
        {"name": "Burn", "url": f"  {SPACED}\t", "text": ""},
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.decklist_url == "https://e.example/a%20b"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("https://[::1/deck", "The decklist link is not a web address"),
        ("https:///no-host", "The decklist link must be a web address starting with https://"),
        ("ftp://e.example/a", "The decklist link must be a web address starting with https://"),
        ("https://e.example/" + "a b" * 166, "characters long once its spaces are written"),
    ],
    ids=["broken-ipv6", "no-host", "ftp", "long-with-spaces"],
)
def test_a_link_that_is_not_a_web_address_is_refused_on_its_field(event, url, message):
    entry = ann(event)
    with pytest.raises(TournamentError) as caught:
        entry_deck_set(entry=entry, name="Burn", url=url)
    assert caught.value.field == "url"
    assert message in caught.value.message
    entry.refresh_from_db()
    assert entry.decklist_url == ""


@pytest.mark.parametrize(
    ("stored", "imported"),
    [
        (SPACED, "https://e.example/a%20b"),
        ("https://e.example/deck\tlist", "https://e.example/deck%09list"),
        ("https://moxfield/decks/abc", "https://moxfield/decks/abc"),  # no dot in the host
        ("https://e.example:99999/x", "https://e.example:99999/x"),
        ("https://e.example/k%C3%A4se", "https://e.example/k%C3%A4se"),
        # 498 characters: with its spaces as %20 it would not fit the column; kept as stored.
        ("https://e.example/" + "a b" * 160, "https://e.example/" + "a b" * 160),
    ],
    ids=["space", "tab", "no-tld", "odd-port", "encoded", "long-with-spaces"],
)
def test_an_export_with_an_older_rows_link_imports(event, stored, imported):
    """Rows saved before the rule (the form took any http(s) address with a host) export as
    they are, and the import takes them."""
    entry = ann(event)
    entry_deck_set(entry=entry, name="Burn", url="https://e.example/burn")
    Entry.objects.filter(pk=entry.pk).update(decklist_url=stored)  # as an older row holds it
    data = organization_export(organization=event.league.organization)
    wipe_site()

    organization_import(data=data)

    assert Entry.objects.get(player__name="Ann").decklist_url == imported


def test_the_import_refuses_a_link_the_site_never_took_with_its_path(event):
    ann(event)
    data = organization_export(organization=event.league.organization)
    wipe_site()
    data["leagues"][0]["tournaments"][0]["entries"][0]["decklist_url"] = "javascript:alert(1)"

    with pytest.raises(Exception) as caught:
        organization_import(data=data)

    assert str(caught.value) == (
        "$.leagues[0].tournaments[0].entries[0].decklist_url: The decklist link must be a web "
        "address starting with https:// or http://."
    )
