"""`manage.py match_decks`: decks named before card data matched to cards where their names
are exact; the rest listed with why, on the command line and on the TO's Players & decks
page."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.tournaments.play import register
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_exact_names_match_the_rest_are_listed(league, organizer_client):
    event = TournamentFactory(league=league, name="cEDH Friday", slug="cedh-friday", pods=True)
    decks = {
        "Ann": "Thrasios, Triton Hero / Tymna the Weaver",
        "Bob": "kinnan",
        "Cat": "Thrasios, Triton Hero / Prime Speaker Zegana",
        "Dan": "Najeela, the Blade-Blossom",
    }
    for name, deck in decks.items():
        register(event, name)
        Entry.objects.filter(player__name=name).update(deck_name=deck)  # saved before cards
    page_url = reverse("event_registration", args=[event.slug])
    assert "Decks not matched" not in organizer_client.get(page_url).content.decode()
    with pytest.raises(CommandError, match="load_cards"):
        call_command("match_decks")
    from .sample import SAMPLE

    call_command("load_cards", str(SAMPLE), stdout=io.StringIO())
    page = organizer_client.get(page_url).content.decode()
    assert 'Decks not matched to cards <span class="muted">· 2</span>' in page
    assert "Bob</a>: “kinnan”: no card named exactly kinnan</li>" in page
    assert "Cat</a>: “Thrasios, Triton Hero / Prime Speaker Zegana”: these cards cannot" in page
    assert "2 more decks name their commanders exactly" in page
    out = io.StringIO()
    call_command("match_decks", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Matched 2 deck(s) to cards; 2 not matched."
    assert lines[1].endswith("Bob: “kinnan”: no card named exactly kinnan")
    assert lines[2].endswith("cannot be commanders together")
    ann = Entry.objects.get(player__name="Ann")
    assert (ann.deck_identity, ann.deck_name) == ("WUBG", decks["Ann"])
    page = organizer_client.get(page_url).content.decode()
    assert "Bob</a>: “kinnan”" in page and "more deck" not in page
    again = io.StringIO()
    call_command("match_decks", "--store", league.organization.slug, stdout=again)
    assert again.getvalue().startswith("Matched 0 deck(s) to cards; 2 not matched.")
