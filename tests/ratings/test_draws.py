"""Issue 31: a drawn game is a draw in the league, not a win, on every page and in the API.

A win is an unshared first place, a draw a shared one, anything else a loss
(leagues.domain.outcome); win % is wins / games. Before the fix, a shared first place added a
win for every drawer: the 1v1 player below (W, ID, 1-1) showed 3 wins of 3, 100 %.
"""

import importlib
import io
import json
import re
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.db import connection
from django.urls import reverse

from ratings.models import Rating, RatingChange
from ratings.services import ratings_recalculate
from tests.factories import TournamentFactory, UserFactory
from tournaments.models import Entry
from tournaments.selectors import decks as deck_selectors
from tournaments.services.decks import entry_deck_set
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

from ..tournaments.play import register

pytestmark = pytest.mark.django_db


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def standings_row(html: str, name: str) -> list[str]:
    body = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", tr)]
        if cells[1].startswith(name):
            return cells
    raise AssertionError(f"{name} is not on the standings")


@pytest.fixture
def fnm(league, django_capture_on_commit_callbacks):
    """A 1v1 night of three rounds: Ann wins 2-0, then draws intentionally (0-0-3), then
    draws 1-1; every other table goes to its first seat. Ann's deck is public."""
    event = TournamentFactory(
        league=league, name="FNM", slug="fnm", deck_visibility="public", swiss_rounds=3
    )
    register(event, "Ann", "Bob", "Cy", "Dee")
    ann = Entry.objects.get(tournament=event, player__name="Ann")
    entry_deck_set(entry=ann, name="Kinnan")
    for kind in ("win", "id", "1-1"):
        with django_capture_on_commit_callbacks(execute=True):
            round_ = round_pair(tournament=event)
            for table in round_.tables.all():
                entries = [seat.entry for seat in table.seats.order_by("position")]
                if ann not in entries:
                    table_report(table=table, winner=entries[0])
                    continue
                other = next(e for e in entries if e != ann)
                if kind == "win":
                    table_report(table=table, winner=ann, game_wins={ann.pk: 2, other.pk: 0})
                elif kind == "id":
                    table_report(
                        table=table, draw=True, game_wins={ann.pk: 0, other.pk: 0}, game_draws=3
                    )
                else:
                    table_report(table=table, draw=True, game_wins={ann.pk: 1, other.pk: 1})
            round_end(round_=round_)
    return ann.player


def test_ann_has_one_win_two_draws_of_three_in_the_ledger(league, fnm):
    rating = Rating.objects.get(league=league, player=fnm)
    assert (rating.games, rating.wins, rating.draws, rating.losses) == (3, 1, 2, 0)
    running = RatingChange.objects.filter(league=league, player=fnm).order_by("played_on", "game")
    assert [(c.games, c.wins, c.draws) for c in running] == [(1, 1, 0), (2, 1, 1), (3, 1, 2)]


def test_the_standings_show_wins_draws_and_win_percent(client, league, fnm):
    html = client.get(reverse("league_detail", args=[league.slug])).content.decode()
    headers = re.findall(r"<th[^>]*>(?:<a[^>]*>)?([^<]*)", html.split("<thead>", 1)[1])
    assert headers[4:7] == ["Games", "Wins", "Draws"] and headers[7] == "Win %"
    # rank, player, rating, 30 d, games, wins, draws, win %, last played
    assert standings_row(html, "Ann")[4:8] == ["3", "1", "2", "33.3"]
    assert "Win % is wins / games" in html


def test_the_player_page_shows_wins_draws_and_losses(client, league, fnm):
    html = client.get(reverse("player_detail", args=[league.slug, fnm.pk])).content.decode()
    summary = text(html.split('<div class="summary">', 1)[1].split("</div>\n</div>", 1)[0])
    assert "Games 3" in summary
    assert "Wins 1 (33%)" in summary
    assert "Draws 2" in summary and "Losses 0" in summary


def test_my_guildhall_shows_one_win_of_three_and_two_draws(client, league, fnm):
    user = UserFactory(username="ann")
    fnm.user = user
    fnm.save(update_fields=["user"])
    client.force_login(user)
    html = client.get(reverse("my_guildhall")).content.decode()
    row = html.split('<table class="my-ratings">', 1)[1].split("</table>", 1)[0]
    cells = [text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
    assert cells[-2:] == ["1 of 3 33 %", "2"]


def test_the_api_gives_wins_draws_losses_and_win_percent(client, league, fnm):
    rows = client.get(reverse("api_ratings", args=[league.slug])).json()["ratings"]
    ann = next(r for r in rows if r["player"] == "Ann")
    assert (ann["games"], ann["wins"], ann["draws"], ann["losses"]) == (3, 1, 2, 0)
    assert ann["win_percent"] == 33.3


def test_the_rankings_command_gives_wins_and_draws(league, fnm):
    out = io.StringIO()
    call_command("rankings", league=league.slug, format="json", stdout=out)
    ann = next(r for r in json.loads(out.getvalue()) if r["player"] == "Ann")
    assert (ann["games"], ann["wins"], ann["draws"]) == (3, 1, 2)


def test_the_decks_tab_counts_the_same_wins_and_draws(client, league, fnm):
    assert [
        (r.label, r.games, r.wins, r.draws) for r in deck_selectors.league_deck_rates(league.pk)
    ] == [("Kinnan", 3, 1, 2)]
    html = client.get(reverse("league_decks", args=[league.slug])).content.decode()
    deck_table = html.split("<h2>By deck</h2>", 1)[1].split("</table>", 1)[0]
    assert '<th class="num">Draws</th>' in deck_table
    assert [text(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", deck_table)] == [
        "Kinnan", "3", "1", "2", "33.3"
    ]  # fmt: skip


def test_a_pod_drawn_between_two_players_is_a_draw_for_each(
    client, league, django_capture_on_commit_callbacks
):
    event = TournamentFactory(league=league, slug="pods", pods=True)
    register(event, "P1", "P2", "P3", "P4")
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_pair(tournament=event)
        (table,) = round_.tables.all()
        seats = list(table.seats.order_by("position"))
        places = {seats[0].entry_id: 1, seats[1].entry_id: 1, seats[2].entry_id: 3}
        places[seats[3].entry_id] = 3
        table_report(table=table, places=places)
    counts = {
        r.player.name: (r.games, r.wins, r.draws, r.losses)
        for r in Rating.objects.filter(league=league).select_related("player")
    }
    drawers = {seats[0].entry.player.name, seats[1].entry.player.name}
    assert {name: c for name, c in counts.items() if name in drawers} == dict.fromkeys(
        drawers, (1, 0, 1, 0)
    )
    assert {name: c for name, c in counts.items() if name not in drawers} == dict.fromkeys(
        set(counts) - drawers, (1, 0, 0, 1)
    )
    seat_rates = {r.label: (r.wins, r.draws) for r in deck_selectors.league_seat_rates(league.pk)}
    assert seat_rates == {"Seat 1": (0, 1), "Seat 2": (0, 1), "Seat 3": (0, 0), "Seat 4": (0, 0)}
    # A shared first place is no "biggest win" on the drawer's page.
    drawer = seats[0].entry.player
    html = client.get(reverse("player_detail", args=[league.slug, drawer.pk])).content.decode()
    assert "Biggest wins" not in html


def _recount():
    """The data migration's recount, on the test database as it stands."""
    migration = importlib.import_module("ratings.migrations.0002_draws_and_unshared_wins")
    migration.recount(None, SimpleNamespace(connection=connection))


def _row_versions(league) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            """SELECT xmin::text FROM ratings_ratingchange WHERE league_id = %s
               UNION ALL SELECT xmin::text FROM ratings_rating WHERE league_id = %s""",
            [league.pk, league.pk],
        )
        return sorted(row[0] for row in cursor.fetchall())


def test_the_migration_corrects_stored_wins_counted_the_old_way_and_runs_again_unchanged(
    league, fnm
):
    # As stored before the fix: every shared first place a win, no draws.
    running = list(
        RatingChange.objects.filter(league=league, player=fnm).order_by("played_on", "game")
    )
    for n, change in enumerate(running, 1):
        RatingChange.objects.filter(pk=change.pk).update(wins=n, draws=0)
    Rating.objects.filter(league=league, player=fnm).update(wins=3, draws=0)
    ratings_before = list(Rating.objects.filter(league=league).values_list("value", flat=True))

    _recount()

    rating = Rating.objects.get(league=league, player=fnm)
    assert (rating.games, rating.wins, rating.draws) == (3, 1, 2)
    running = RatingChange.objects.filter(league=league, player=fnm).order_by("played_on", "game")
    assert [(c.wins, c.draws) for c in running] == [(1, 0), (1, 1), (1, 2)]
    # Only the counts change, never a rating.
    assert list(Rating.objects.filter(league=league).values_list("value", flat=True)) == (
        ratings_before
    )
    # Idempotent: a second run writes no row.
    versions = _row_versions(league)
    _recount()
    assert _row_versions(league) == versions


def test_a_re_rating_corrects_stored_wins_counted_the_old_way(league, fnm):
    last = RatingChange.objects.filter(league=league, player=fnm).order_by("-played_on", "-game")[0]
    RatingChange.objects.filter(pk=last.pk).update(wins=3, draws=0)
    Rating.objects.filter(league=league, player=fnm).update(wins=3, draws=0)
    ratings_recalculate(league=league)
    assert RatingChange.objects.get(pk=last.pk).wins == 1
    rating = Rating.objects.get(league=league, player=fnm)
    assert (rating.wins, rating.draws) == (1, 2)
