"""My Guildhall: an account's stores, leagues and ratings, upcoming and past events, games."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.services import ratings_recalculate
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Registration, Tournament
from tournaments.selectors.registration import waitlist_position

pytestmark = pytest.mark.django_db


def _store(name: str, slug: str, pat, pat_name: str, *, public: bool = True):
    store = OrganizationFactory(name=name, slug=slug)
    me = PlayerFactory(organization=store, name=pat_name, user=pat)
    others = [PlayerFactory(organization=store, name=f"{name} rival {n}") for n in range(3)]
    league = LeagueFactory(organization=store, name=f"{name} Commander", slug=f"{slug}-cmd")
    league.is_public = public
    league.save()
    GameFactory(league=league, players=[me, *others])  # pat won
    GameFactory(league=league, players=[others[0], me, others[1], others[2]])
    ratings_recalculate(league=league)
    return store, me, others, league


def test_an_account_sees_its_players_ratings_events_and_games_across_stores(client):
    pat = UserFactory(username="pat")
    _den, me, _others, friday = _store("Den Games", "den", pat, "Pat Park")
    corner, me2, _, private = _store("Cards Corner", "corner", pat, "P. Park", public=False)
    # Upcoming: registered at the Den, third on the waitlist at the Corner.
    soon = TournamentFactory(league=friday, name="Den Open", slug="den-open")
    seat = soon.entries.create(player=me)
    Registration.objects.create(tournament=soon, player=me, status="seated", entry=seat)
    full = TournamentFactory(league=private, name="Corner Cup", slug="corner-cup")
    first, second = (PlayerFactory(organization=corner, name=f"early {n}") for n in range(2))
    for player in (first, second, me2):
        Registration.objects.create(tournament=full, player=player, status="waitlisted")
    # Someone else's store and games are not shown.
    elsewhere = _store("Far Away", "far", UserFactory(username="sam"), "Sam")[3]

    done = TournamentFactory(
        league=friday, name="Den Weekly", slug="den-weekly", status=Tournament.Status.FINISHED
    )
    done.entries.create(player=me)
    # Open for registration at one of pat's stores, and not registered yet.
    TournamentFactory(league=friday, name="Den Cup", slug="den-cup", registration_open=True)
    TournamentFactory(league=elsewhere, name="Far Cup", registration_open=True)
    client.force_login(pat)

    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("my_guildhall"))

    assert response.status_code == 200
    text = response.content.decode()
    assert "Pat Park" in text and "Den Games" in text and "P. Park" in text
    assert "Den Games Commander" in text and "Cards Corner Commander" in text  # its private one
    assert "Far Away" not in text and elsewhere.name not in text
    page = response.context["page"]
    ranks = {r.league.slug: (r.rank, r.games, r.wins) for r in page.ratings}
    assert ranks["den-cmd"][1:] == (2, 1)
    upcoming = {line.event.slug: line.status for line in page.upcoming}
    assert upcoming == {"den-open": "registered", "corner-cup": "on the waitlist (3rd)"}
    assert [line.event.slug for line in page.past] == ["den-weekly"]
    assert [event.slug for event in page.open_events] == ["den-cup"]
    assert len(page.games) == 4 and all(g.player in (me, me2) for g in page.games)
    assert len(queries) < 20, [q["sql"] for q in queries]


def test_an_account_with_no_player_is_shown_how_to_claim_one(client):
    client.force_login(UserFactory(username="stan"))
    text = client.get(reverse("my_guildhall")).content.decode()
    assert "not one of a store's players yet" in text
    assert 'action="/me/claim/"' in text


def test_my_guildhall_needs_an_account(client):
    response = client.get(reverse("my_guildhall"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


def test_the_waitlist_place_counts_as_the_event_page_does_when_two_arrived_together(client):
    pat = UserFactory(username="pat")
    _den, me, others, league = _store("Den Games", "den", pat, "Pat Park")
    event = TournamentFactory(league=league, name="Den Open", slug="den-open")
    first = Registration.objects.create(tournament=event, player=others[0], status="waitlisted")
    mine = Registration.objects.create(
        tournament=event, player=me, status="waitlisted", queued_at=first.queued_at
    )
    client.force_login(pat)
    page = client.get(reverse("my_guildhall")).context["page"]
    assert waitlist_position(mine) == 2
    assert [line.status for line in page.upcoming] == ["on the waitlist (2nd)"]


def test_a_place_on_the_waitlist_is_not_shown_once_the_event_has_started(client):
    """Issue 43: "number 1 on the waitlist" for an event being played."""
    pat = UserFactory(username="pat")
    store = OrganizationFactory(name="Den Games", slug="den")
    me = PlayerFactory(organization=store, name="Pat Park", user=pat)
    league = LeagueFactory(organization=store, name="Den Commander", slug="den-cmd")
    event = TournamentFactory(league=league, name="Den Open", slug="den-open")
    Registration.objects.create(tournament=event, player=me, status="waitlisted")
    client.force_login(pat)
    page = client.get(reverse("my_guildhall")).context["page"]
    assert [line.status for line in page.upcoming] == ["on the waitlist (1st)"]
    Tournament.objects.filter(pk=event.pk).update(status=Tournament.Status.SWISS)
    page = client.get(reverse("my_guildhall")).context["page"]
    assert [line.status for line in page.upcoming] == ["no seat: round 1 is paired"]
