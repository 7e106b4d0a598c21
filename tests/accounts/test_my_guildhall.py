"""My Guildhall: an account's stores, leagues and ratings, upcoming and past events, games."""

import re

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
from tests.tournaments.play import EIGHT, play_round, register
from tests.tournaments.public.test_placings import no_cut, top4  # noqa: F401 (fixtures)
from tournaments.models import Registration, Tournament
from tournaments.selectors import standings
from tournaments.selectors.registration import waitlist_position
from tournaments.services.entries import entry_drop
from tournaments.services.events import tournament_create

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
    # The finished event's placings are computed on the first load and kept (shared with
    # the event's own pages): a dozen queries once, then one (the event's version).
    assert len(queries) < 30, [q["sql"] for q in queries]
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("my_guildhall"))
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


# --- a past event says where the player finished --------------------------------------------

EN = "\u2013"


def _mine(event, player_id, username):
    """The account `username` holding player `player_id` of `event`."""
    user = UserFactory(username=username)
    entry = event.entries.select_related("player").get(player_id=player_id)
    entry.player.user = user
    entry.player.save(update_fields=["user"])
    return user, entry


def _past_line(client, user) -> tuple[str, str]:
    client.force_login(user)
    response = client.get(reverse("my_guildhall"))
    assert response.status_code == 200
    [line] = response.context["page"].past
    return line.status, response.content.decode()


def test_a_past_event_with_a_top_cut_says_the_cut_finish(client, top4):  # noqa: F811
    # top4 (tests/tournaments/public/test_placings.py): seed 1 topped the Swiss, lost the
    # semi-final to seed 4: the finish is the cut's, 3rd-4th of 8, not the Swiss 1st.
    event, seeds = top4
    user, _ = _mine(event, seeds[0], "seed1")
    status, text = _past_line(client, user)
    assert status == f"3rd{EN}4th of 8"
    assert f"— 3rd{EN}4th of 8</li>" in text
    assert "— entered" not in text


def test_a_past_event_without_a_cut_says_the_final_standing(client, no_cut):  # noqa: F811
    # Eight players, three rounds, no draws: exactly one won all three, and one lost all three.
    rows = standings(no_cut).rows
    [undefeated] = [r.player for r in rows if r.wins == 3]
    [winless] = [r.player for r in rows if r.wins == 0]
    user, _ = _mine(no_cut, undefeated, "first")
    assert _past_line(client, user)[0] == "1st of 8"
    user, _ = _mine(no_cut, winless, "last")
    assert _past_line(client, user)[0] == "8th of 8"


def test_a_player_who_dropped_has_their_finish_and_the_drop(client, league):
    event = tournament_create(league=league, name="Drops", swiss_rounds=2)
    register(event, *EIGHT)
    play_round(event)
    loser = next(r.player for r in standings(event).rows if r.wins == 0)
    user, entry = _mine(event, loser, "dropper")
    entry_drop(entry=entry)
    play_round(event)
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED
    # Round 1's loser, dropped: no points, like at most the one player who lost round 2 as
    # well (every other player won a match or had the bye), so 7th or 8th of the eight.
    status = _past_line(client, user)[0]
    assert re.fullmatch(f"(7th|8th|7th{EN}8th) of 8, dropped after round 1", status), status


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
