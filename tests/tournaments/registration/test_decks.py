"""Decks: a player names theirs (and may add the list) until the deadline, bad input refused on
its field with nothing changed, the TO sets anyone's, decks shown only once public, the names a
store has used offered first, and a league's seats and decks with Wilson's interval."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from tests.factories import LeagueFactory, PlayerFactory, TournamentFactory, UserFactory
from tests.forms import error_summary
from tests.tournaments.play import register
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Entry, Tournament
from tournaments.selectors import decks as deck_selectors
from tournaments.services.decks import deck_settings_set, entry_deck_set
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

TYMNA = "Tymna the Weaver / Kraum, Ludevic's Opus"


@pytest.fixture
def event(league):
    return TournamentFactory(league=league, name="cEDH Friday", slug="cedh-friday", pods=True)


def entry_of(event, name="Ann"):
    register(event, name)
    return Entry.objects.get(tournament=event, player__name=name)


def test_a_player_names_their_deck_and_a_repeat_changes_nothing(event):
    ann = entry_of(event)
    entry_deck_set(entry=ann, name="  Tymna the Weaver /  Kraum, Ludevic's Opus ")
    ann.refresh_from_db()
    assert ann.deck_name == TYMNA  # spaces tidied
    with pytest.raises(AlreadyDone, match="already that"):
        entry_deck_set(entry=ann, name=TYMNA)
    assert AuditEntry.objects.filter(action="entry.deck").count() == 1


@pytest.mark.parametrize(
    "deck, field, message",
    [
        ({"name": "x" * 121}, "name", "The deck's name is 121 characters long; at most 120."),
        (
            {"name": "Kinnan", "url": "moxfield.com/decks/abc"},
            "url",
            "The decklist link must be a web address starting with https:// or http://.",
        ),
        (
            {"name": "Kinnan", "url": "javascript:alert(1)"},
            "url",
            "The decklist link must be a web address starting with https:// or http://.",
        ),
        (
            {"name": "Kinnan", "text": "1 Island\n" * 301},
            "text",
            "The decklist has 301 lines; at most 300.",
        ),
        (
            {"name": "Kinnan", "text": "x" * 10_001},
            "text",
            "The decklist is 10,001 characters long; at most 10,000.",
        ),
        (
            {"name": "", "url": "https://moxfield.com/decks/abc"},
            "name",
            "Name the deck too (for Commander: the commander).",
        ),
    ],
)
def test_bad_decks_are_refused_on_their_field_and_change_nothing(event, deck, field, message):
    ann = entry_of(event)
    with pytest.raises(TournamentError) as refused:
        entry_deck_set(entry=ann, **deck)
    assert (refused.value.field, str(refused.value)) == (field, message)
    ann.refresh_from_db()
    assert (ann.deck_name, ann.decklist_url, ann.decklist_text) == ("", "", "")


def test_after_the_deadline_only_the_organizer_changes_a_deck(event):
    ann = entry_of(event)
    deck_settings_set(
        tournament=event, deadline=timezone.now() - timedelta(minutes=1), visibility="after_cut"
    )
    with pytest.raises(TournamentError, match="Decks were due by"):
        entry_deck_set(entry=ann, name="Kinnan")
    entry_deck_set(entry=ann, name="Kinnan", as_organizer=True)
    ann.refresh_from_db()
    assert ann.deck_name == "Kinnan"


@pytest.mark.parametrize(
    "visibility, status, public",
    [
        ("after_cut", "swiss", False),
        ("after_cut", "top_cut", True),
        ("after_cut", "finished", True),
        ("after_event", "top_cut", False),
        ("after_event", "finished", True),
        ("public", "registration", True),
    ],
)
def test_when_decks_are_public(visibility, status, public):
    event = Tournament(deck_visibility=visibility, status=status)
    assert deck_selectors.decks_public(event) is public


def test_decks_show_on_the_standings_only_once_public(event, client):
    register(event, "Ann", "Bob", "Cy", "Dee")
    for entry in Entry.objects.filter(tournament=event):
        entry_deck_set(entry=entry, name=f"{entry.player.name}'s Kinnan")
    round_ = round_pair(tournament=event)
    table_report(table=round_.tables.get(), winner=Entry.objects.get(player__name="Ann"))
    url = reverse("event_standings", args=[event.slug])
    assert "Ann's Kinnan" not in client.get(url).content.decode()
    deck_settings_set(tournament=event, deadline=None, visibility="public")
    standings = client.get(url).content.decode()
    assert "Ann&#x27;s Kinnan" in standings and "Dee&#x27;s Kinnan" in standings
    pairings = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert 'class="deck">Bob&#x27;s Kinnan' in pairings


def test_the_names_the_store_used_are_offered_most_used_first(league):
    for n, deck in enumerate(["Kinnan", "Tymna / Thrasios", "Kinnan", "Rograkh / Silas"]):
        event = TournamentFactory(league=league, slug=f"week-{n}", deck_visibility="public")
        register(event, f"Player {n}")
        entry = Entry.objects.get(tournament=event)
        entry_deck_set(entry=entry, name=deck)
    other_store = TournamentFactory(
        league=LeagueFactory(slug="elsewhere"), slug="elsewhere", deck_visibility="public"
    )
    register(other_store, "Stranger")
    entry_deck_set(entry=other_store.entries.get(), name="Elsewhere's deck")
    suggestions = deck_selectors.deck_suggestions(league.organization_id, AnonymousUser())
    assert suggestions == ["Kinnan", "Rograkh / Silas", "Thrasios / Tymna"]  # partners sorted


def test_deck_suggestions_offer_only_decks_already_public(league):
    """Issue 30 #6: the "Name your deck" suggestions listed other players' hidden decks, of
    this event and of the store's other events."""
    user = UserFactory(username="ann")
    PlayerFactory(organization=league.organization, name="Ann", user=user)
    tonight = TournamentFactory(league=league, slug="tonight", deck_visibility="after_cut")
    register(tonight, "Ann", "Bob")
    entry_deck_set(entry=tonight.entries.get(player__name="Bob"), name="Bob's secret")
    last_week = TournamentFactory(league=league, slug="last-week")
    register(last_week, "Cy")
    entry_deck_set(entry=last_week.entries.get(), name="Cy's known deck")
    Tournament.objects.filter(pk=last_week.pk).update(status="finished")
    next_week = TournamentFactory(league=league, slug="next-week", deck_visibility="after_event")
    register(next_week, "Dee")
    entry_deck_set(entry=next_week.entries.get(), name="Dee's hidden deck")
    client = Client()
    client.force_login(user)
    page = client.get(reverse("my_deck", args=[tonight.slug])).content.decode()
    assert '<option value="Cy&#x27;s known deck">' in page
    for hidden in ("Bob", "Dee"):
        assert f"{hidden}&#x27;s" not in page


@pytest.mark.parametrize(
    "wins, games, low, high",
    [
        # Wilson (1927), z = 1.96: 5 of 10 gives 0.2366-0.7634 (by hand: centre 0.5, half-width
        # 1.96 * sqrt(0.025 + 0.0096) / 1.3842 = 0.2634).
        (5, 10, 23.66, 76.34),
        # 0 of 10: from 0 up to z^2 / (n + z^2) = 3.8416 / 13.8416 = 0.2775.
        (0, 10, 0.0, 27.75),
        (0, 0, 0.0, 100.0),
    ],
)
def test_wilson_interval(wins, games, low, high):
    got = deck_selectors.wilson(wins, games)
    assert got == pytest.approx((low, high), abs=0.01)


def test_the_league_page_shows_each_seats_win_rate_and_each_decks(league, client):
    """Two pods of four: seat 1 wins the first, seat 3 the second."""
    event = TournamentFactory(league=league, slug="pods", pods=True)
    register(event, *(f"P{n}" for n in range(8)))
    for entry in Entry.objects.filter(tournament=event):
        entry_deck_set(entry=entry, name="Kinnan" if entry.player.name < "P4" else "Tymna")
    round_ = round_pair(tournament=event)
    first, second = round_.tables.order_by("number")
    table_report(table=first, winner=first.seats.get(position=1).entry)
    table_report(table=second, winner=second.seats.get(position=3).entry)
    seats = {r.label: (r.games, r.wins) for r in deck_selectors.league_seat_rates(league.pk)}
    assert seats == {"Seat 1": (2, 1), "Seat 2": (2, 0), "Seat 3": (2, 1), "Seat 4": (2, 0)}
    assert deck_selectors.league_deck_rates(league.pk) == []  # hidden until the cut
    deck_settings_set(tournament=event, deadline=None, visibility="public")
    decks = {r.label: (r.games, r.wins) for r in deck_selectors.league_deck_rates(league.pk)}
    winners = [first.seats.get(position=1).entry, second.seats.get(position=3).entry]
    expected_wins = {"Kinnan": 0, "Tymna": 0}
    for winner in winners:
        expected_wins["Kinnan" if winner.player.name < "P4" else "Tymna"] += 1
    assert decks == {"Kinnan": (4, expected_wins["Kinnan"]), "Tymna": (4, expected_wins["Tymna"])}
    page = client.get(reverse("league_decks", args=[league.slug])).content.decode()
    assert "Seat 1" in page and ">50.0<" in page and "Kinnan" in page


def test_the_deck_page_for_a_player_and_for_the_to(event, organizer_client):
    user = UserFactory(username="ann")
    PlayerFactory(organization=event.league.organization, name="Ann", user=user)
    ann = entry_of(event)
    client = Client()
    client.force_login(user)
    url = reverse("my_deck", args=[event.slug])
    assert b'list="deck-names"' in client.get(url).content
    refused = client.post(url, {"name": "Kinnan", "url": "ftp://x"})
    assert refused.status_code == 400
    assert "https://" in " ".join(refused.context["form"].errors["url"])
    assert 'href="#id_url"' in error_summary(refused.content.decode())
    client.post(url, {"name": "Kinnan", "url": "https://moxfield.com/decks/k"})
    ann.refresh_from_db()
    assert (ann.deck_name, ann.decklist_url) == ("Kinnan", "https://moxfield.com/decks/k")
    to_url = reverse("entry_deck", args=[event.slug, ann.pk])
    organizer_client.post(to_url, {"name": "Kinnan, Bonder Prodigy"})
    ann.refresh_from_db()
    assert ann.deck_name == "Kinnan, Bonder Prodigy"
    stranger = Client()
    stranger.force_login(UserFactory(username="stan"))
    assert stranger.get(url).status_code == 403


def test_an_entrant_finds_their_deck_from_the_pairings(event):
    user = UserFactory(username="ann")
    PlayerFactory(organization=event.league.organization, name="Ann", user=user)
    register(event, "Ann", "Bob", "Cy")
    round_pair(tournament=event)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert f'href="{reverse("my_deck", args=[event.slug])}">Name your deck</a>' in page


def test_the_decks_tab_shows_one_deck_whatever_the_case_or_partner_order(league, client):
    """Issue 31 #9: "kinnan, bonder prodigy" and "Kinnan, Bonder Prodigy" were two decks, and
    "Thrasios / Tymna" and "Tymna / Thrasios" split the same way."""
    event = TournamentFactory(league=league, slug="pods", pods=True, deck_visibility="public")
    register(event, *(f"P{n}" for n in range(8)))
    typed = {
        "P0": "Kinnan, Bonder Prodigy",
        "P1": "kinnan, bonder prodigy",
        "P2": "Kinnan, Bonder Prodigy",
        "P3": "Tymna / Thrasios",
        "P4": "Thrasios / Tymna",
        "P5": "thrasios/tymna",
        "P6": "Rograkh / Silas",
        "P7": "Rograkh / Silas",
    }
    for entry in Entry.objects.filter(tournament=event).select_related("player"):
        entry_deck_set(entry=entry, name=typed[entry.player.name])
    round_ = round_pair(tournament=event)
    for table in round_.tables.all():
        table_report(table=table, winner=table.seats.get(position=1).entry)
    decks = {r.label: r.games for r in deck_selectors.league_deck_rates(league.pk)}
    assert decks == {
        "Kinnan, Bonder Prodigy": 3,
        "Thrasios / Tymna": 3,
        "Rograkh / Silas": 2,
    }
    page = client.get(reverse("league_decks", args=[league.slug])).content.decode()
    assert "kinnan, bonder prodigy" not in page and "Tymna / Thrasios" not in page
    assert page.count("<td>Kinnan, Bonder Prodigy</td>") == 1
    suggestions = deck_selectors.deck_suggestions(league.organization_id, AnonymousUser())
    assert suggestions == ["Kinnan, Bonder Prodigy", "Thrasios / Tymna", "Rograkh / Silas"]
