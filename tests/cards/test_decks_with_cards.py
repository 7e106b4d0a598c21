"""Decks with card data loaded: the commander picked from legal commanders, stored by exact
names in a stable order with its color identity; a pasted list checked in the event's
decklist format with every problem kept for the player (escaped on the page); the TO's list
of entries without a legal list; without card data, today's free-text decks."""

import io
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory
from tests.tournaments.play import register
from tournaments.errors import TournamentError
from tournaments.models import Entry, Tournament
from tournaments.selectors import decks as deck_selectors
from tournaments.services.decks import deck_settings_set, entry_deck_set

pytestmark = pytest.mark.django_db

BAD_LIST = """Commander
1 Thrasios, Triton Hero
1 Tymna the Weaver

Deck
1 Sol Ring
1 Sol Ring
1 Mana Crypt
1 Lightning Bolt
1 <b>Not a card</b>
30 Island
30 Plains
31 Swamp
"""
GOOD_LIST = (
    "Commander\n1 Thrasios, Triton Hero\n1 Tymna the Weaver\n\nDeck\n1 Sol Ring\n97 Island\n"
)


@pytest.fixture
def event(league):
    return TournamentFactory(league=league, name="cEDH Friday", slug="cedh-friday", pods=True)


def entry_of(event, name="Ann"):
    register(event, name)
    return Entry.objects.get(tournament=event, player__name=name)


def test_without_card_data_names_stay_free_text(event):
    ann = entry_of(event)
    entry_deck_set(entry=ann, name="kinnan  /  some homebrew")
    ann.refresh_from_db()
    assert (ann.deck_name, ann.deck_identity, ann.deck_legal) == (
        "kinnan / some homebrew",
        "",
        None,
    )


def test_commanders_stored_by_exact_names_in_a_stable_order(event, sample_cards_loaded):
    ann = entry_of(event)
    entry_deck_set(entry=ann, name="tymna the weaver / THRASIOS, triton hero")
    ann.refresh_from_db()
    assert ann.deck_name == "Thrasios, Triton Hero / Tymna the Weaver"
    assert ann.deck_identity == "WUBG" and len(ann.deck_commander_ids) == 2


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Dockside Extortionist", "Dockside Extortionist is banned in Commander."),
        ("Sol Ring", "Sol Ring cannot be a commander (Artifact)."),
        ("Thrasios, Triton Hero / Prime Speaker Zegana", "cannot be commanders together"),
        ("Karlach, Fury of Avernus / Raised by Giants / Tymna the Weaver", "at most two"),
        ("Kinan", "No card named “Kinan”"),
    ],
)
def test_commanders_that_cannot_lead_are_refused(event, sample_cards_loaded, name, message):
    ann = entry_of(event)
    with pytest.raises(TournamentError, match=re.escape(message)) as error:
        entry_deck_set(entry=ann, name=name)
    assert error.value.field == "name"
    ann.refresh_from_db()
    assert ann.deck_name == ""


def test_a_background_and_partner_with_pairs(event, sample_cards_loaded):
    ann, bob = entry_of(event), entry_of(event, "Bob")
    entry_deck_set(entry=ann, name="Raised by Giants + Karlach, Fury of Avernus")
    entry_deck_set(entry=bob, name="Toothy, Imaginary Friend / Pir, Imaginative Rascal")
    ann.refresh_from_db(), bob.refresh_from_db()
    assert (ann.deck_name, ann.deck_identity) == (
        "Karlach, Fury of Avernus / Raised by Giants",
        "RG",
    )
    assert (bob.deck_name, bob.deck_identity) == (
        "Pir, Imaginative Rascal / Toothy, Imaginary Friend",
        "UG",
    )


def test_a_list_checked_in_the_events_format(event, sample_cards_loaded):
    deck_settings_set(
        tournament=event, deadline=None, visibility="after_cut", decklist_format="commander",
        decklist_required=True,
    )  # fmt: skip
    ann, bob = entry_of(event), entry_of(event, "Bob")
    entry_deck_set(entry=ann, name="Thrasios, Triton Hero / Tymna the Weaver", text=BAD_LIST)
    entry_deck_set(entry=bob, name="Thrasios, Triton Hero / Tymna the Weaver", text=GOOD_LIST)
    ann.refresh_from_db(), bob.refresh_from_db()
    assert ann.deck_legal is False and bob.deck_legal is True
    assert [(p["line"], p["rule"]) for p in ann.deck_problems] == [
        (None, "deck-size"), (7, "singleton"), (8, "banned"), (9, "color-identity"),
        (10, "unknown-card"),
    ]  # fmt: skip
    sol = next(c for c in bob.deck_cards if c["count"] == 97)
    assert sol["section"] == "main"
    carl = entry_of(event, "Carl")
    event.refresh_from_db()
    assert [e.player.name for e in deck_selectors.entries_without_legal_list(event)] == [
        "Ann",
        "Carl",
    ]
    assert carl.deck_legal is None


def test_a_new_format_checks_every_list_again(event, sample_cards_loaded):
    ann = entry_of(event)
    entry_deck_set(entry=ann, name="Thrasios, Triton Hero / Tymna the Weaver", text=GOOD_LIST)
    ann.refresh_from_db()
    assert ann.deck_legal is None  # no format: not checked
    deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                      decklist_format="commander")  # fmt: skip
    ann.refresh_from_db()
    assert ann.deck_legal is True
    deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                      decklist_format="modern")  # fmt: skip
    ann.refresh_from_db()
    assert ann.deck_legal is False and any(p["rule"] == "not-legal" for p in ann.deck_problems)


def test_lists_pasted_before_card_data_are_checked_when_it_loads(event, league):
    """A list pasted before `load_cards` is "not checked"; the load checks the open events'
    lists with their problems; a finished event keeps its lists as they were; a load that
    changes nothing checks nothing."""
    from .sample import SAMPLE

    deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                      decklist_format="commander", decklist_required=True)  # fmt: skip
    over = TournamentFactory(league=league, slug="last-week", pods=True,
                             decklist_format="commander")  # fmt: skip
    ann, old = entry_of(event), entry_of(over, "Old")
    entry_deck_set(entry=ann, name="Thrasios, Triton Hero / Tymna the Weaver", text=BAD_LIST)
    entry_deck_set(entry=old, name="Tymna the Weaver", text=BAD_LIST)
    Tournament.objects.filter(pk=over.pk).update(status=Tournament.Status.FINISHED)
    ann.refresh_from_db(), event.refresh_from_db()
    assert (ann.deck_legal, ann.deck_problems) == (None, [])
    page = deck_selectors.entries_without_legal_list(event)
    assert [e.deck_legal for e in page] == [None]  # the TO's page: "not checked (no card data)"
    out = io.StringIO()
    call_command("load_cards", str(SAMPLE), stdout=out)
    assert "Checked the lists of 1 open event(s) again: 1 entry changed." in out.getvalue()
    ann.refresh_from_db(), old.refresh_from_db()
    assert ann.deck_legal is False and ann.deck_identity == "WUBG"
    assert [p["rule"] for p in ann.deck_problems] == [
        "deck-size", "singleton", "banned", "color-identity", "unknown-card",
    ]  # fmt: skip
    assert old.deck_legal is None
    again = io.StringIO()
    call_command("load_cards", str(SAMPLE), stdout=again)
    assert "The card data did not change." in again.getvalue()
    assert "Checked the lists" not in again.getvalue()


def test_required_needs_a_format(event):
    with pytest.raises(TournamentError, match="Choose the decklist format") as error:
        deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                          decklist_required=True)  # fmt: skip
    assert error.value.field == "decklist_format"


def test_the_player_sees_every_problem_escaped(event, sample_cards_loaded, django_user_model):
    deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                      decklist_format="commander", decklist_required=True)  # fmt: skip
    ann = entry_of(event)
    user = django_user_model.objects.create_user("ann", password="x")
    ann.player.user = user
    ann.player.save()
    client = Client()
    client.force_login(user)
    url = reverse("my_deck", args=[event.slug])
    page = client.get(url).content.decode()
    assert 'name="commander"' in page and 'list="commander-names"' in page
    assert "No list yet" in page
    response = client.post(url, {"commander": "Tymna the Weaver",
                                 "partner": "Thrasios, Triton Hero", "text": BAD_LIST})  # fmt: skip
    assert response.status_code == 302
    page = client.get(url).content.decode()
    assert "Color identity: <strong>WUBG</strong>" in page
    assert "Line 8: Mana Crypt is banned in commander." in page
    assert "Line 7: 2 copies of Sol Ring (first on line 6): one copy." in page
    assert "Line 9: Lightning Bolt (R) is outside" in page
    assert "&lt;b&gt;Not a card&lt;/b&gt;" in page and "<b>Not a card</b>" not in page
    # A commander that cannot lead: refused on the commander field, nothing changed.
    response = client.post(url, {"commander": "Sol Ring", "text": GOOD_LIST})
    assert response.status_code == 400
    assert "Sol Ring cannot be a commander" in response.content.decode()


def test_commander_suggestions(sample_cards_loaded):
    client = Client()
    url = reverse("commander_suggestions")
    page = client.get(url, {"commander": "thr"}).content.decode()
    assert '<option value="Thrasios, Triton Hero">Thrasios, Triton Hero · UG · Partner' in page
    partners = client.get(url, {"commander": "Thrasios, Triton Hero", "partner": ""})
    names = partners.content.decode()
    assert "Tymna the Weaver" in names
    assert "Prime Speaker Zegana" not in names and "Thrasios" not in names
    background = client.get(url, {"commander": "Karlach, Fury of Avernus", "partner": "r"})
    assert "Raised by Giants · G · Background" in background.content.decode()
    assert client.get(url, {"commander": "Sol Ring", "partner": ""}).content.strip() == b""
    assert "Golos" not in client.get(url, {"commander": "golos"}).content.decode()


def test_the_to_sees_entries_without_a_legal_list(event, sample_cards_loaded, organizer_client):
    deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                      decklist_format="commander", decklist_required=True)  # fmt: skip
    entry_of(event)
    page = organizer_client.get(reverse("event_registration", args=[event.slug]))
    assert "Without a legal Commander list (required)" in page.content.decode()
    assert "Ann</a>: no list" in page.content.decode()


def test_the_decks_tab_counts_decks_by_their_commander_cards():
    rows = [
        ("Thrasios, Triton Hero / Tymna the Weaver", ["b", "a"], 5, 2, 0),
        ("Tymna the Weaver / Thrasios, Triton Hero", ["a", "b"], 2, 1, 0),  # same cards
        ("Thrasios / Tymna", [], 1, 0, 1),  # no card data: by its name
        ("tymna / THRASIOS", [], 1, 0, 0),
    ]
    rates = deck_selectors.same_decks_together(rows)
    assert [(r.label, r.games, r.wins, r.draws) for r in rates] == [
        ("Thrasios, Triton Hero / Tymna the Weaver", 7, 3, 0),
        ("Thrasios / Tymna", 2, 0, 1),
    ]


def test_a_list_that_includes_its_commander_is_legal(event, sample_cards_loaded):
    # Moxfield's export: the commander is the first line of the main deck, with its set.
    deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                      decklist_format="commander", decklist_required=True)  # fmt: skip
    ann = entry_of(event)
    text = "1 Najeela, the Blade-Blossom (BBD) 2\n1 Sol Ring (C21) 263\n49 Plains\n49 Island\n"
    entry_deck_set(entry=ann, name="najeela, the blade-blossom", text=text)
    ann.refresh_from_db()
    assert (ann.deck_name, ann.deck_legal, ann.deck_problems) == (
        "Najeela, the Blade-Blossom",
        True,
        [],
    )
    assert sum(c["count"] for c in ann.deck_cards) == 100
    assert [c["section"] for c in ann.deck_cards if c["count"] == 1] == ["commander", "main"]
    assert deck_selectors.entries_without_legal_list(event) == []
