"""The pages people refresh all night issue a fixed number of SQL queries, whatever the field.

Each page is measured on an event of 16 players and one of 128, three rounds played and the
fourth half reported, under the same bound: a query per player, table or round (an N+1) would
blow it at 128. The bounds are today's counts, so one more query anywhere fails here first.
"""

import re

import pytest
from django.db import transaction
from django.test import TestCase
from django.urls import reverse

from leagues.models import Role
from tests.factories import LeagueFactory, OrganizationFactory, organizer_of
from tournaments.models import Registration, Table, Tournament
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

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
# The pairings read the event's page versions for the tag their poll sends back (live.py);
# with the shared cache on, the cache has read them already and it costs nothing. Three more
# on the pairings for the standings beside them on a laptop (issue 43), the standings page's
# own reads (with the cache on, computed once per change for both pages: core.pagecache.memo).
PUBLIC_BOUNDS = {
    "1v1": {
        "pairings": 7,
        "standings": 4,
        "projector": 3,
        "projector-refresh": 3,
        "event-player": 6,  # the player's place: the Swiss history and entries (2)
        "league-standings": 2,  # the league, its rating settings and re-rating job in one query
        "league-player": 9,
    },
    "pods": {
        "pairings": 8,  # the structure line: players still in
        "standings": 4,
        "projector": 3,
        "projector-refresh": 3,
        "event-player": 6,  # the player's place: the Swiss history and entries (2)
        "league-standings": 2,  # the league, its rating settings and re-rating job in one query
        "league-player": 9,
    },
}
# A judge at the console (session, user and membership lookups included, the memberships read
# once per request; one more for whether they may open the store's History page, which the
# event header links to). The
# console reads its player list as plain rows with their "seated" flag in one query (it was
# two: the players, then the same list again for the edit selects, now fetched on demand),
# and asks once whether the judge may run the event (it asked twice).
# One more on each for the players' reports of the round (selectors.reports.round_states).
# One more on the console for the tag of its live part (the event's page versions).
# One more on the 1v1 console for the round's open judge calls (the table cards' badges, one
# query a round whatever its size; the pods' console had it within its bound).
CONSOLE_BOUNDS = {"1v1": {"run": 13, "round": 10}, "pods": {"run": 13, "round": 10}}
# The console's live part, polled every 2 s (views.event_run_live): unchanged, a 304 from the
# session, user, the judge's memberships and player accounts, the event and the versions;
# changed, also the round, its tables, seats and reports (no player list, no layout); and
# when the players changed too, their list (1: check-in is closed once a round is paired);
# changed (and players), also the round's open judge calls for the cards' badges (1).
CONSOLE_POLL_BOUNDS = {"unchanged": 6, "changed": 12, "players": 13}


@pytest.fixture(autouse=True)
def pages_rendered(settings):
    """These bounds are what rendering each page costs; the shared cache is off here (what a
    cached page costs is pinned in tests/cache/test_pages.py)."""
    settings.GUILDHALL_PAGE_CACHE = False


def _played_event(fmt: str, players: int) -> int:
    """An event of `players`, three rounds played, round 4 paired with half its tables in."""
    league = LeagueFactory(organization=OrganizationFactory())
    event = tournament_create(league=league, name=f"{fmt} {players}", format=fmt, swiss_rounds=5)
    register(event, *(f"Player {n:03d}" for n in range(players)))
    # Ratings are caught up on commit, as on the site: the league pages show real ratings.
    with TestCase.captureOnCommitCallbacks(execute=True):
        for _ in range(3):
            play_round(event)
        round_ = round_pair(tournament=event)
        tables = [t for t in round_.tables.order_by("number") if t.seats.count() > 1]
        for table in tables[: len(tables) // 2]:
            table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    return event.pk


@pytest.fixture(scope="module")
def played(fmt, players, django_db_setup, django_db_blocker):
    """The test's played event, built once for every test of its format and size (4 events,
    not one a test: a 128-player night costs seconds to play through the services), in a
    transaction rolled back after its last test; each test runs in a savepoint inside it, as
    pytest-django's `db` does, so what one test writes no other sees. `fmt` and `players` are
    parametrized with the module's scope, so pytest runs each event's tests together."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _played_event(fmt, players)
        transaction.set_rollback(True)


@pytest.fixture
def played_event(played):
    return Tournament.objects.select_related("league").get(pk=played)


@pytest.mark.parametrize("fmt", ["1v1", "pods"], scope="module")
@pytest.mark.parametrize("players", SIZES, scope="module")
def test_public_pages_issue_the_same_queries_for_16_or_128_players(
    client, fmt, played_event, django_assert_max_num_queries
):
    event = played_event
    player_id = event.entries.order_by("player__name").first().player_id
    for page, (name, args, headers) in PUBLIC_PAGES.items():
        url = reverse(name, args=args(event, player_id))
        with django_assert_max_num_queries(PUBLIC_BOUNDS[fmt][page], info=page):
            response = client.get(url, **headers)
        assert response.status_code == 200, page
        # The page shows the field (the league standings: its first 50 by rating).
        shown = b"Player " if page == "league-standings" else b"Player 000"
        assert shown in response.content, page


@pytest.mark.parametrize("fmt", ["1v1"], scope="module")
@pytest.mark.parametrize("players", SIZES, scope="module")
def test_standings_by_opponents_rating_stay_constant_too(
    client, played_event, django_assert_max_num_queries
):
    """The one tiebreaker that reads the league's ratings reads them in one query."""
    event = played_event
    event.tiebreakers = ["points", "avg_opp_rating", "omw"]
    event.save(update_fields=["tiebreakers"])
    with django_assert_max_num_queries(6):
        response = client.get(reverse("event_standings", args=[event.slug]))
    assert response.status_code == 200


@pytest.fixture
def judged_event(client, played_event):
    """A played event (the test's `fmt` and `players`) with a judge logged in on `client`."""
    event = played_event
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    return event


@pytest.mark.parametrize("fmt", ["1v1", "pods"], scope="module")
@pytest.mark.parametrize("players", SIZES, scope="module")
def test_the_console_judges_reload_stays_constant(
    client, fmt, judged_event, django_assert_max_num_queries
):
    event = judged_event
    pages = {
        "run": reverse("event_run", args=[event.slug]),
        "round": reverse("round_run", args=[event.slug, 2]),
    }
    for page, url in pages.items():
        with django_assert_max_num_queries(CONSOLE_BOUNDS[fmt][page], info=page):
            response = client.get(url)
        assert response.status_code == 200, page


# The paper pack (console/views/paper.py), every sheet: the judge's session and rights as on
# the console, the round and its seats in one query (round_board), and the standings page's
# own reads (the entries, the history).
PAPER_BOUND = 11


@pytest.mark.parametrize("fmt", ["1v1", "pods"], scope="module")
@pytest.mark.parametrize("players", SIZES, scope="module")
def test_the_paper_pack_stays_constant(client, judged_event, django_assert_max_num_queries):
    with django_assert_max_num_queries(PAPER_BOUND):
        response = client.get(reverse("paper_pack", args=[judged_event.slug]))
    assert response.status_code == 200
    assert response.content.count(b'<div class="slip">') >= 4


@pytest.mark.parametrize("fmt", ["1v1", "pods"], scope="module")
@pytest.mark.parametrize("players", SIZES, scope="module")
def test_the_consoles_live_poll_stays_constant(
    client, players, judged_event, django_assert_max_num_queries
):
    page = client.get(reverse("event_run", args=[judged_event.slug]))
    live = re.search(rb'hx-get="([^"]+)"[^>]*data-etag="(\w+)"', page.content)
    url, etag = live[1].decode().replace("&amp;", "&"), live[2].decode()
    headers = {"HTTP_HX_REQUEST": "true"}
    with django_assert_max_num_queries(CONSOLE_POLL_BOUNDS["unchanged"], info="unchanged"):
        response = client.get(url, HTTP_IF_NONE_MATCH=f'"{etag}"', **headers)
    assert response.status_code == 304
    with django_assert_max_num_queries(CONSOLE_POLL_BOUNDS["changed"], info="changed"):
        response = client.get(url, HTTP_IF_NONE_MATCH='"an older tag"', **headers)
    assert response.status_code == 200
    assert response.content.count(b'hx-swap-oob="true"') > players // 4
    assert b'id="entries"' not in response.content
    older = re.sub(r"players=\d+", "players=0", url)
    with django_assert_max_num_queries(CONSOLE_POLL_BOUNDS["players"], info="players"):
        response = client.get(older, HTTP_IF_NONE_MATCH='"an older tag"', **headers)
    assert response.content.count(b'<span class="entry-name">') == players


@pytest.mark.parametrize("fmt", ["1v1", "pods"], scope="module")
@pytest.mark.parametrize("players", SIZES, scope="module")
def test_a_judges_result_tap_stays_constant(
    client, fmt, played_event, django_assert_max_num_queries
):
    """The htmx result tap: lock, store the result and its league game, render the card and
    the round's status line. (The rating catch-up after commit has its own bound in
    tests/ratings/test_services.py.)"""
    event = played_event
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
    # 20 (was 28, then 24, then 20, then 21): session, user, the event and who may run it (5: the
    # judge's memberships are read once per request, not once per check); the table with its
    # round and seats in one query, read into one result by the format; the transaction (its
    # begin and end, 2) and in it, locked, the event with its league and its page version
    # (core.pagecache), bumped in the same transaction, the table with its round and seats in
    # one locked query (they were two), the seats' update, the league game (league lock,
    # game, ratings marker, results: no savepoint of its own), the table's update and the
    # audit entry (10); the players' reports still open on the table, closed by the entry
    # (1); and the answer: the seats as written (none: the service leaves them on the table
    # as `seat_rows`, which the card reads through `seats_of`, not Django's private prefetch
    # cache) and the round's unreported numbers (1). A pod's tap reads one more: whether a
    # penalty put one of its players out of the game (tournaments.hooks.lost_by_penalty, 1).
    with django_assert_max_num_queries(20 if fmt == "1v1" else 21):
        response = client.post(url, data, **HTMX)
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.reported


# Notifications' pages: the store's (the store, session, user, the memberships that may
# manage it, the webhook, its last 20 messages with their events and rounds in one join: 6,
# however many messages) and an account's own choices (session, user, its choices: 3).
NOTIFICATION_BOUNDS = {"store": 6, "mine": 3}


@pytest.mark.parametrize("messages", [3, 60])
def test_the_notification_pages_read_a_fixed_number_of_queries(
    client, messages, django_assert_max_num_queries
):
    from notifications.models import Delivery, StoreWebhook

    organization = OrganizationFactory()
    event = tournament_create(
        league=LeagueFactory(organization=organization), name="Cup", format="1v1"
    )
    StoreWebhook.objects.create(organization=organization, url="https://discord.com/api/x/y")
    Delivery.objects.bulk_create(
        Delivery(
            key=f"k{n}",
            kind="standings",
            channel="webhook",
            organization=organization,
            tournament=event,
            target="https://discord.com/api/x/y",
            status="failed",
            last_error="HTTP 404",
        )
        for n in range(messages)
    )
    client.force_login(organizer_of(organization))
    with django_assert_max_num_queries(NOTIFICATION_BOUNDS["store"]):
        response = client.get(reverse("store_notifications", args=[organization.slug]))
    assert response.status_code == 200 and b"HTTP 404" in response.content
    with django_assert_max_num_queries(NOTIFICATION_BOUNDS["mine"]):
        response = client.get(reverse("my_notifications"))
    assert response.status_code == 200


# A player's "my event" page (reports/views.py): session and user (2); the event, seen through
# the user's memberships and players (3), their entry (1); the page versions its ETag is
# drawn from (1); the round, their seat with its table, the table's seats, its reports with
# who agrees (4); their rounds (player_history: the seats with their tables and rounds, then
# every table's seats, 2); their place after the last complete Swiss round (my_standing:
# the Swiss rounds' states, those rounds' reported seats, the entries, 3; their final finish,
# "2nd of 17", is read only once the event is over); the judge call at their table, while it
# plays, and their own penalties (judging's call box, 2); a poll that finds something changed
# renders the same (the live part holds all of it). The poll that finds nothing changed
# stops after the versions: a 304 from 7 queries, whatever the field; through the
# registration link, with no account, from 3 (the event, the registration with its entry,
# the versions).
MY_EVENT_BOUNDS = {"page": 18, "poll-changed": 18, "poll-unchanged": 7, "link-poll": 3}


@pytest.mark.parametrize("fmt", ["1v1", "pods"], scope="module")
@pytest.mark.parametrize("players", SIZES, scope="module")
def test_the_players_page_and_its_poll_stay_constant(
    client, fmt, played_event, django_assert_max_num_queries
):
    from tests.factories import UserFactory

    event = played_event
    entry = event.entries.select_related("player").order_by("player__name").first()
    user = UserFactory()
    entry.player.user = user
    entry.player.save(update_fields=["user"])
    client.force_login(user)
    url = reverse("my_event", args=[event.slug])
    with django_assert_max_num_queries(MY_EVENT_BOUNDS["page"], info="page"):
        page = client.get(url)
    assert page.status_code == 200 and b"Round 4" in page.content
    with django_assert_max_num_queries(MY_EVENT_BOUNDS["poll-changed"], info="poll-changed"):
        fragment = client.get(url, **HTMX)
    assert fragment.status_code == 200 and b"<html" not in fragment.content
    with django_assert_max_num_queries(MY_EVENT_BOUNDS["poll-unchanged"], info="poll"):
        poll = client.get(url, HTTP_IF_NONE_MATCH=fragment["ETag"], **HTMX)
    assert poll.status_code == 304 and poll.content == b""

    registration = Registration.objects.create(
        tournament=event, player=entry.player, entry=entry, status="seated"
    )
    client.logout()
    link = reverse("my_event_link", args=[event.slug, registration.token])
    etag = client.get(link, **HTMX)["ETag"]
    with django_assert_max_num_queries(MY_EVENT_BOUNDS["link-poll"], info="link-poll"):
        poll = client.get(link, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert poll.status_code == 304


@pytest.mark.parametrize("fmt", ["pods"], scope="module")
@pytest.mark.parametrize("players", SIZES, scope="module")
def test_the_pairings_poll_is_a_304_from_two_queries(
    client, played_event, django_assert_max_num_queries
):
    """A spectator's pairings poll while nothing changed, with the page cache off: the event
    (seen by the visitor) and its page versions, then a 304 (live.answers_poll; with the
    cache on, the versions alone: tests/tournaments/test_reports_views.py)."""
    import re

    event = played_event
    url = reverse("event_detail", args=[event.slug])
    page = client.get(url).content.decode()
    etag = re.search(r'If-None-Match": "\\"([0-9a-f]+)', page).group(1)
    with django_assert_max_num_queries(2):
        poll = client.get(url, HTTP_IF_NONE_MATCH=f'"{etag}"', **HTMX)
    assert poll.status_code == 304
