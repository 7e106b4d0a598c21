"""Every kind of write shows on the cached public pages at once, on both cache backends.

Each test warms a page in the shared cache (a second visit is served from it), makes one write
through the services, and checks that the next visit shows the change: it differs from before
and equals the page rendered with the cache off. The writes: a result, its correction and the
undo of that, a pairing, a pairing edit, a drop, a registration, an edit of the event row, the
league's games added, corrected, deleted and imported (through the rating replay that
follows), and a player renamed. A write to one event leaves another event's pages in the cache.
"""

import datetime
import re

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from audit.services import audit_undo
from core.pagecache import versions
from leagues import services as league_services
from leagues.models import Game, Player
from tournaments.models import Round, Table
from tournaments.page_versions import event_scopes
from tournaments.services.entries import entry_drop, entry_register
from tournaments.services.results import table_report
from tournaments.services.rounds import round_edit, round_end, round_pair

from .conftest import played

pytestmark = pytest.mark.django_db

# The CSRF token differs in every response (the cache fills in each visitor's own).
_TOKEN = re.compile(
    rb'(X-CSRFToken&quot;: &quot;|X-CSRFToken": "|csrfmiddlewaretoken" value=")[^"&]+'
)
# An anonymous visit served from the cache: the versions of its scopes, one query (a league page
# also asks whether its ratings lag a change); the route and the page come from the process's
# recent entries or the shared cache (one more query each from the database cache at most).
HIT_QUERIES = {"event": 3, "league": 4}


def _body(response) -> bytes:
    assert response.status_code == 200, response.status_code
    return _TOKEN.sub(rb"\1", response.content)


def visit(client, url) -> bytes:
    return _body(client.get(url))


def rendered(client, settings, url) -> bytes:
    """The page as the view renders it now, the cache off."""
    settings.GUILDHALL_PAGE_CACHE = False
    try:
        return visit(client, url)
    finally:
        settings.GUILDHALL_PAGE_CACHE = True


def warm(client, url, django_assert_max_num_queries) -> bytes:
    first = visit(client, url)
    bound = HIT_QUERIES["league" if url.startswith("/leagues/") else "event"]
    with django_assert_max_num_queries(bound, info=f"{url} again: from the cache"):
        again = visit(client, url)
    assert again == first
    return first


def check_follows(client, settings, url, write, django_assert_max_num_queries, *, capture):
    """`write()` changes the page at `url`, and the next visit shows it."""
    before = warm(client, url, django_assert_max_num_queries)
    with capture(execute=True):  # the rating catch-up after commit, as on the site
        write()
    after = visit(client, url)
    assert after != before, f"the write should change {url}"
    assert after == rendered(client, settings, url)


def pairings(event):
    return reverse("event_detail", args=[event.slug])


def standings(event):
    return reverse("event_standings", args=[event.slug])


def open_tables(event):
    round_ = event.rounds.order_by("-number").first()
    return [t for t in round_.tables.order_by("number") if t.seats.count() > 1]


def seats(table):
    return [s.entry for s in table.seats.select_related("entry__player").order_by("position")]


@pytest.fixture
def event(store, backend):
    return played(store, "Alpha")


@pytest.fixture
def follows(client, settings, django_assert_max_num_queries, django_capture_on_commit_callbacks):
    def check(url, write):
        check_follows(
            client,
            settings,
            url,
            write,
            django_assert_max_num_queries,
            capture=django_capture_on_commit_callbacks,
        )

    return check


def test_a_result(event, follows):
    table = open_tables(event)[0]
    follows(standings(event), lambda: table_report(table=table, winner=seats(table)[1]))


def test_a_result_on_the_pairings(event, follows):
    table = open_tables(event)[0]
    follows(pairings(event), lambda: table_report(table=table, winner=seats(table)[1]))


def test_a_correction_and_its_undo(event, follows):
    table = open_tables(event)[0]
    first, second = seats(table)
    table_report(table=table, winner=first)
    follows(standings(event), lambda: table_report(table=table, winner=second))
    correction = AuditEntry.objects.get(action="match.correct")
    follows(standings(event), lambda: audit_undo(entry=correction))
    assert Table.objects.get(pk=table.pk).winner_id == first.pk


def test_pairing_the_next_round(event, follows):
    for table in open_tables(event):
        table_report(table=table, winner=seats(table)[0])
    round_end(round_=event.rounds.order_by("-number").first())
    follows(pairings(event), lambda: round_pair(tournament=event))


def test_a_pairing_edit(event, follows):
    one, two = open_tables(event)[:2]
    round_ = Round.objects.get(pk=one.round_id)
    a, b = seats(one)[0], seats(two)[0]
    follows(pairings(event), lambda: round_edit(round_=round_, edit="swap", a=a, b=b))


def test_a_drop(event, follows):
    entry = seats(open_tables(event)[0])[0]
    follows(standings(event), lambda: entry_drop(entry=entry))


def test_a_late_registration(event, follows):
    follows(
        standings(event),
        lambda: entry_register(tournament=event, name="Latecomer", create_player=True),
    )


def test_an_edit_of_the_event_row(event, follows):
    def rename():
        event.name = "Alpha Open"
        event.save()

    follows(pairings(event), rename)


def test_a_player_renamed(event, follows):
    player = seats(open_tables(event)[0])[0].player

    def rename():
        player.name = "Renamed Player"
        player.save()

    follows(pairings(event), rename)


def test_a_write_to_one_event_leaves_another_cached(
    store, backend, client, django_assert_max_num_queries
):
    alpha, beta = played(store, "Alpha"), played(store, "Beta")
    beta_pages = [pairings(beta), standings(beta)]
    kept = [warm(client, url, django_assert_max_num_queries) for url in beta_pages]
    stamp = versions(event_scopes(beta))
    table = open_tables(alpha)[0]
    table_report(table=table, winner=seats(table)[1])
    entry_drop(entry=seats(open_tables(alpha)[1])[0])
    assert versions(event_scopes(alpha)) != versions(event_scopes(beta))
    assert versions(event_scopes(beta)) == stamp
    for url, page in zip(beta_pages, kept, strict=True):
        with django_assert_max_num_queries(HIT_QUERIES["event"], info=f"{url}: still cached"):
            assert visit(client, url) == page


# --- The league's standings: games added, corrected, deleted, imported; the rating replay ----


@pytest.fixture
def league_page(store, backend):
    names = ["Ann", "Bob", "Cy", "Dee"]
    players = [Player.objects.create(organization=store.organization, name=n) for n in names]
    return store, players, reverse("league_detail", args=[store.slug])


def _results(players):
    return [league_services.ResultIn(player=p, place=n) for n, p in enumerate(players, 1)]


DAY = datetime.date(2026, 11, 1)


def test_a_game_added(league_page, follows, django_capture_on_commit_callbacks):
    league, players, url = league_page
    with django_capture_on_commit_callbacks(execute=True):
        league_services.game_record(league=league, results=_results(players), played_on=DAY)
    follows(
        url,
        lambda: league_services.game_record(
            league=league, results=_results(players[::-1]), played_on=DAY
        ),
    )


def test_a_game_corrected_then_deleted(league_page, follows, django_capture_on_commit_callbacks):
    league, players, url = league_page
    with django_capture_on_commit_callbacks(execute=True):
        game = league_services.game_record(league=league, results=_results(players), played_on=DAY)
    follows(
        url,
        lambda: league_services.game_update(
            game=game, results=_results(players[::-1]), played_on=DAY
        ),
    )
    follows(url, lambda: league_services.game_delete(game=Game.objects.get(pk=game.pk)))


def test_games_imported(league_page, follows, django_capture_on_commit_callbacks):
    league, players, url = league_page
    with django_capture_on_commit_callbacks(execute=True):
        league_services.game_record(league=league, results=_results(players), played_on=DAY)
    text = ",2026-11-02,Dee,Cy,Bob,Ann\n,2026-11-03,Cy,Dee,Ann,Bob\n"
    follows(url, lambda: league_services.games_import(league=league, text=text))


def test_the_league_page_is_rendered_fresh_while_its_ratings_lag(
    league_page, client, settings, django_assert_max_num_queries
):
    """A game stored but not yet re-rated (the catch-up runs after commit, or in a job): the
    page shows it as pending, never a cached page from before the game."""
    league, players, url = league_page
    warm(client, url, django_assert_max_num_queries)
    league_services.game_record(league=league, results=_results(players), played_on=DAY)
    assert visit(client, url) == rendered(client, settings, url)
    assert b"Ratings are being updated after a change" in visit(client, url)


def test_versions_read_in_a_request_are_not_read_again(store, django_assert_num_queries):
    """A page that reads several scopes' versions and then some of them again (its tag, then
    a computed value hanging on part of it) reads them once."""
    from django.test import RequestFactory

    event = played(store, "Alpha")
    request = RequestFactory().get("/")
    scopes = [*event_scopes(event), ("event-players", event.pk)]
    with django_assert_num_queries(1):
        stamp = versions(scopes, request)
        assert versions(scopes[:1], request) == stamp[:1]
        assert versions(list(reversed(scopes)), request) == tuple(reversed(stamp))
    with django_assert_num_queries(1):  # a scope not read yet: one more query
        versions([("league", event.league_id)], request)
