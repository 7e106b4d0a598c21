"""The pages people refresh all night issue a fixed number of SQL queries, whatever the field.

Each page is measured on an event of 16 players and one of 128, three rounds played and the
fourth half reported, under the same bound: a query per player, table or round (an N+1) would
blow it at 128. The bounds are today's counts, so one more query anywhere fails here first.
"""

import pytest
from django.urls import reverse

from leagues.models import Role
from tests.factories import LeagueFactory, OrganizationFactory, organizer_of
from tournaments import services
from tournaments.models import Table, Tournament

from .tournaments.play import play_round, register

pytestmark = pytest.mark.django_db

SIZES = (16, 128)
HTMX = {"HTTP_HX_REQUEST": "true"}

# Anonymous visitors: (url name, args from the event, extra headers) -> bound.
PUBLIC_PAGES = {
    "pairings": ("event_detail", lambda e, p: [e.slug], {}),
    "standings": ("event_standings", lambda e, p: [e.slug], {}),
    "projector": ("event_projector", lambda e, p: [e.slug], {}),
    "projector-refresh": ("event_projector", lambda e, p: [e.slug], HTMX),
    "event-player": ("event_player", lambda e, p: [e.slug, p], {}),
    "league-standings": ("league_detail", lambda e, p: [e.league.slug], {}),
    "league-player": ("player_detail", lambda e, p: [e.league.slug, p], {}),
}
PUBLIC_BOUNDS = {
    "1v1": {
        "pairings": 3,
        "standings": 4,
        "projector": 3,
        "projector-refresh": 3,
        "event-player": 4,
        "league-standings": 3,  # the league with its rating settings in one query
        "league-player": 9,
    },
    "pods": {
        "pairings": 4,  # the structure line: players still in
        "standings": 4,
        "projector": 3,
        "projector-refresh": 3,
        "event-player": 4,
        "league-standings": 3,  # the league with its rating settings in one query
        "league-player": 9,
    },
}
# A judge at the console (session, user and membership lookups included, the memberships read
# once per request; one more for whether they may open the store's History page, which the
# event header links to). The
# console reads its player list as plain rows with their "seated" flag in one query (it was
# two: the players, then the same list again for the edit selects, now fetched on demand),
# and asks once whether the judge may run the event (it asked twice).
CONSOLE_BOUNDS = {"1v1": {"run": 10, "round": 9}, "pods": {"run": 11, "round": 9}}


@pytest.fixture(autouse=True)
def pages_rendered(settings):
    """These bounds are what rendering each page costs; the shared cache is off here (what a
    cached page costs is pinned in tests/cache/test_pages.py)."""
    settings.GUILDHALL_PAGE_CACHE = False


def played_event(fmt: str, players: int, django_capture_on_commit_callbacks, **options):
    """An event of `players`, three rounds played, round 4 paired with half its tables in."""
    league = LeagueFactory(organization=OrganizationFactory())
    event = services.tournament_create(
        league=league, name=f"{fmt} {players}", format=fmt, swiss_rounds=5, **options
    )
    register(event, *(f"Player {n:03d}" for n in range(players)))
    # Ratings are caught up on commit, as on the site: the league pages show real ratings.
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            play_round(event)
        round_ = services.round_pair(tournament=event)
        tables = [t for t in round_.tables.order_by("number") if t.seats.count() > 1]
        for table in tables[: len(tables) // 2]:
            services.table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    return Tournament.objects.select_related("league").get(pk=event.pk)


@pytest.mark.parametrize("fmt", ["1v1", "pods"])
@pytest.mark.parametrize("players", SIZES)
def test_public_pages_issue_the_same_queries_for_16_or_128_players(
    client, fmt, players, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    event = played_event(fmt, players, django_capture_on_commit_callbacks)
    player_id = event.entries.order_by("player__name").first().player_id
    for page, (name, args, headers) in PUBLIC_PAGES.items():
        url = reverse(name, args=args(event, player_id))
        with django_assert_max_num_queries(PUBLIC_BOUNDS[fmt][page], info=page):
            response = client.get(url, **headers)
        assert response.status_code == 200, page
        # The page shows the field (the league standings: its first 50 by rating).
        shown = b"Player " if page == "league-standings" else b"Player 000"
        assert shown in response.content, page


@pytest.mark.parametrize("players", SIZES)
def test_standings_by_opponents_rating_stay_constant_too(
    client, players, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    """The one tiebreaker that reads the league's ratings reads them in one query."""
    event = played_event("1v1", players, django_capture_on_commit_callbacks)
    event.tiebreakers = ["points", "avg_opp_rating", "omw"]
    event.save(update_fields=["tiebreakers"])
    with django_assert_max_num_queries(6):
        response = client.get(reverse("event_standings", args=[event.slug]))
    assert response.status_code == 200


@pytest.mark.parametrize("fmt", ["1v1", "pods"])
@pytest.mark.parametrize("players", SIZES)
def test_the_console_judges_reload_stays_constant(
    client, fmt, players, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    event = played_event(fmt, players, django_capture_on_commit_callbacks)
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    pages = {
        "run": reverse("event_run", args=[event.slug]),
        "round": reverse("round_run", args=[event.slug, 2]),
    }
    for page, url in pages.items():
        with django_assert_max_num_queries(CONSOLE_BOUNDS[fmt][page], info=page):
            response = client.get(url)
        assert response.status_code == 200, page


@pytest.mark.parametrize("fmt", ["1v1", "pods"])
@pytest.mark.parametrize("players", SIZES)
def test_a_judges_result_tap_stays_constant(
    client, fmt, players, django_capture_on_commit_callbacks, django_assert_max_num_queries
):
    """The htmx result tap: lock, store the result and its league game, render the card and
    the round's status line. (The rating catch-up after commit has its own bound in
    tests/ratings/test_services.py.)"""
    event = played_event(fmt, players, django_capture_on_commit_callbacks)
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    table = next(
        t
        for t in Table.objects.filter(round__tournament=event, reported=False).order_by("number")
        if t.seats.count() > 1
    )
    seat = table.seats.order_by("position")[0]
    data = {"version": str(table.version)}
    data.update({"winner": str(seat.entry_id)} if fmt == "pods" else {"result": "2-0"})
    url = reverse("table_report", args=[event.slug, table.pk])
    # 19 (was 28, then 24): session, user, the event and who may run it (5: the judge's
    # memberships are read once per request, not once per check); the table with its round
    # and seats in one query; the transaction (its begin and end, 2) and in it, locked, the
    # event with its league and its page version (core.pagecache), bumped in the same
    # transaction, the table with its round and seats in one locked query (they were two),
    # the seats' update, the league game (league lock, game, ratings marker, results: no
    # savepoint of its own), the table's update and the audit entry (10); and the answer: the
    # round's unreported numbers (1), the card drawn from the seats as written.
    with django_assert_max_num_queries(19):
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.reported
