"""Tournament pages: what players see, and a TO running the night from a phone."""

import re

import pytest
from django.urls import reverse

from leagues.models import Role
from tests.factories import LeagueFactory, TournamentFactory, UserFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments import selectors as tournament_selectors
from tournaments.models import Round, Table, Tournament
from tournaments.services.entries import entry_register
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair
from tournaments.services.topcut import top_cut_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league):
    return TournamentFactory(league=league, name="Friday Swiss", slug="friday-swiss")


@pytest.fixture
def judge_client(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


def started(event, names="ABCDE"):
    for name in names:
        entry_register(tournament=event, name=name, create_player=True)
    return round_pair(tournament=event)


def test_public_pages_before_and_after_pairing(client, event):
    entry_register(tournament=event, name="Ann", create_player=True)
    page = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "1 player registered" in page and "Ann" in page
    round_ = started(event, "BCDE")
    page = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert f"Round {round_.number}" in page and "Find my seat" in page
    assert page.count('<li class="pairing') == 3  # two tables and a bye
    standings = client.get(reverse("event_standings", args=[event.slug])).content.decode()
    assert "OMW" in standings or "Opp" in standings
    assert "Run event" not in page  # visitors get no TO links


def test_projector_refreshes_as_a_fragment(client, event):
    started(event)
    full = client.get(reverse("event_projector", args=[event.slug])).content.decode()
    assert 'hx-trigger="every 30s"' in full and "<html" in full
    fragment = client.get(
        reverse("event_projector", args=[event.slug]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert "<html" not in fragment and 'id="board"' in fragment
    assert "min</strong> left" in fragment


def test_a_judge_runs_the_night(judge_client, event, django_capture_on_commit_callbacks):
    run = reverse("event_run", args=[event.slug])
    for name in ["Ann", "Bob", "Cy", "Dee"]:
        response = judge_client.post(
            reverse("event_register", args=[event.slug]), {"name": name, "new_player": "on"}
        )
        assert response.status_code == 302
    assert judge_client.post(reverse("event_pair", args=[event.slug])).status_code == 302
    round_ = Round.objects.get(tournament=event, number=1)
    console = judge_client.get(run).content.decode()
    assert "Waiting for 2 tables: 1, 2" in console
    for table in round_.tables.all():
        with django_capture_on_commit_callbacks(execute=True):
            response = judge_client.post(
                reverse("table_report", args=[event.slug, table.pk]),
                {"result": "2-1", "version": table.version},
                HTTP_HX_REQUEST="true",
            )
        assert response.status_code == 200
        fragment = response.content.decode()
        assert "<html" not in fragment and "reported" in fragment
    assert "Every table has a result" in judge_client.get(run).content.decode()
    response = judge_client.post(reverse("round_end", args=[event.slug, 1]))
    assert response.status_code == 302
    assert Round.objects.get(pk=round_.pk).status == Round.Status.COMPLETE
    assert event.league.games.count() == 2  # results became league games


def test_a_stale_result_is_a_409_showing_the_current_one(judge_client, event):
    round_ = started(event, "AB")
    table = round_.tables.get()
    url = reverse("table_report", args=[event.slug, table.pk])
    first = judge_client.post(url, {"result": "2-0", "version": 0}, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    again = judge_client.post(url, {"result": "2-0", "version": 0}, HTTP_HX_REQUEST="true")
    assert again.status_code == 200  # the same result twice is a no-op
    stale = judge_client.post(url, {"result": "0-2", "version": 0}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409
    assert "already has a different result" in stale.content.decode()
    table.refresh_from_db()
    assert table.version == 1 and table.winner == table.seats.get(position=1).entry


def test_bad_result_codes_are_refused(judge_client, event):
    table = started(event, "AB").tables.get()
    url = reverse("table_report", args=[event.slug, table.pk])
    response = judge_client.post(url, {"result": "3-0", "version": 0}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert not Table.objects.get(pk=table.pk).reported


def test_registration_errors_are_shown(judge_client, event):
    url = reverse("event_register", args=[event.slug])
    judge_client.post(url, {"name": "Ann", "new_player": "on"})
    # Registering her again (a double tap, or "ann") changes nothing and says so.
    response = judge_client.post(url, {"name": "ann"}, follow=True)
    assert response.status_code == 200
    assert "Ann is already registered" in response.content.decode()
    assert event.entries.count() == 1
    assert judge_client.post(url, {"name": ""}).status_code == 400


def test_pairing_with_an_open_round_says_which_tables_are_missing(judge_client, event):
    started(event, "ABCD")
    response = judge_client.post(reverse("event_pair", args=[event.slug]))
    assert response.status_code == 400
    assert "tables 1 and 2 have no result" in response.content.decode()


def test_creating_an_event(judge_client, league):
    response = judge_client.post(
        reverse("event_create", args=[league.slug]),
        {
            "name": "Modern 1K",
            "date": "2026-11-27",
            "points": "magic",
            "top_cut": "8",
            "first_round": "random",
            "round_minutes": "50",
        },
    )
    event = Tournament.objects.get(name="Modern 1K")
    assert response.status_code == 302 and response.url == reverse("event_run", args=[event.slug])
    assert event.slug == "dragons-den-modern-1k"  # the store's slug, then the name
    assert event.top_cut == 8 and float(event.points_win) == 3
    bad = judge_client.post(reverse("event_create", args=[league.slug]), {"name": ""})
    assert bad.status_code == 400


def test_who_may_run_an_event(client, event):
    run = reverse("event_run", args=[event.slug])
    assert client.get(run).status_code == 302  # log in first
    assert client.post(reverse("event_pair", args=[event.slug])).status_code == 302
    client.force_login(UserFactory())
    assert client.get(run).status_code == 403
    client.force_login(organizer_of(LeagueFactory().organization))
    assert client.post(reverse("event_pair", args=[event.slug])).status_code == 403
    assert not event.rounds.exists()


def test_a_private_leagues_events_are_404_to_outsiders(client, organization):
    private = LeagueFactory(organization=organization, is_public=False)
    event = TournamentFactory(league=private)
    for name in ["event_detail", "event_standings", "event_projector", "event_run"]:
        client.force_login(UserFactory())
        assert client.get(reverse(name, args=[event.slug])).status_code == 404


def test_bracket_page_shows_seeds_and_winners(client, league):
    event = TournamentFactory(league=league, top_cut=4, slug="cut")
    register(event, *"ABCDEFGH")
    empty = client.get(reverse("event_bracket", args=[event.slug])).content.decode()
    assert "seeded from the standings" in empty
    for _ in range(3):
        play_round(event)
    semis = top_cut_start(tournament=event)
    table = semis.tables.first()
    table_report(table=table, winner=table.seats.get(position=1).entry)
    html = client.get(reverse("event_bracket", args=[event.slug])).content.decode()
    assert "Semifinals" in html and "Final" in html
    assert html.count('class="slot won"') == 1
    # The winner is a word, not only bold and green (docs/design.md).
    won = html.split('class="slot won">')[1].split("</div>")[0]
    assert '<span class="tag success">won</span>' in won
    assert '<span class="seed">1</span>' in html and '<span class="seed">4</span>' in html


def test_a_judge_corrects_an_earlier_round_and_the_standings_follow(judge_client, event):
    for name in "ABCD":
        entry_register(tournament=event, name=name, create_player=True)
    first = round_pair(tournament=event)
    for table in first.tables.all():
        table_report(table=table, winner=table.seats.get(position=1).entry)
    round_end(round_=first)
    round_pair(tournament=event)
    console = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert reverse("round_run", args=[event.slug, 1]) in console
    page = judge_client.get(reverse("round_run", args=[event.slug, 1]))
    assert page.status_code == 200 and "Tap a new result to correct" in page.content.decode()
    table = first.tables.get(number=1)
    loser = table.seats.get(position=2).entry
    before = tournament_selectors.standings(event).points[loser.player_id]
    response = judge_client.post(
        reverse("table_report", args=[event.slug, table.pk]),
        {"result": "0-2", "version": table.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert tournament_selectors.standings(event).points[loser.player_id] == before + 3


def test_player_history_page(client, event):
    for name in "ABC":
        entry_register(tournament=event, name=name, create_player=True)
    round_ = round_pair(tournament=event)
    match = next(t for t in round_.tables.all() if t.seats.count() == 2)
    winner = match.seats.get(position=1).entry
    table_report(table=match, winner=winner, game_wins={
        winner.pk: 2, match.seats.get(position=2).entry_id: 1})  # fmt: skip
    html = client.get(reverse("event_player", args=[event.slug, winner.player_id])).content
    assert b"Round 1" in html and b"win 2\xe2\x80\x931" in html and b">3<" in html
    bye = next(t for t in round_.tables.all() if t.seats.count() == 1).seats.get().entry
    html = client.get(reverse("event_player", args=[event.slug, bye.player_id])).content
    assert b"(bye)" in html and b">bye" in html
    standings = client.get(reverse("event_standings", args=[event.slug])).content.decode()
    assert reverse("event_player", args=[event.slug, winner.player_id]) in standings


def test_the_console_swaps_two_players(judge_client, event):
    round_ = started(event, "ABCD")
    t1, t2 = round_.tables.all()
    a, b = t1.seats.get(position=1).entry, t2.seats.get(position=1).entry
    url = reverse("round_edit", args=[event.slug, round_.number])
    response = judge_client.post(url, {"edit": "swap", "a": a.pk, "b": b.pk})
    assert response.status_code == 302
    assert round_.seats.get(entry=a).table.number == t2.number
    assert round_.seats.get(entry=b).table.number == t1.number
    assert judge_client.post(url, {"edit": "swap", "a": "x"}).status_code == 400
    assert judge_client.post(url, {"edit": "nope", "a": a.pk, "b": b.pk}).status_code == 400
    response = judge_client.post(url, {"edit": "pair", "a": a.pk, "b": b.pk})
    assert response.status_code == 302
    assert round_.seats.get(entry=a).table == round_.seats.get(entry=b).table


def test_find_my_seat_narrows_to_a_name_and_earlier_rounds_have_tabs(client, event):
    """A player types part of their name (or sends it without script) and sees their row;
    the round tabs open an earlier round's pairings."""
    first = started(event, ["Ann Archer", "Bob Baker", "Cy Cole", "Dee Drake"])
    for table in first.tables.all():
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    round_end(round_=first)
    second = round_pair(tournament=event)
    url = reverse("event_detail", args=[event.slug])
    page = client.get(url, {"q": "bak"}).content.decode()
    finder = page.split('id="finder-rows"')[1].split("</table>")[0]
    assert finder.count("<tr><td>") == 1 and "<tr><td>Bob Baker</td>" in finder
    assert 'value="bak"' in page
    nobody = client.get(url, {"q": "zed"}).content.decode()
    assert 'No player matches "zed": try part of the name.' in nobody
    # The "no match" row spans the finder's columns, no more (three at a match: no seat).
    rows = nobody.split('id="finder-rows"')[1].split("</table>")[0]
    columns = len(re.findall(r"<th[ >]", rows))
    assert columns == (4 if event.is_pods else 3)
    assert f'colspan="{columns}" class="empty"' in rows
    assert '<a href="?round=1" >R1</a>' in page.replace("  ", " ") or '?round=1"' in page
    earlier = client.get(url, {"round": "1"}).content.decode()
    assert "Round 1" in earlier and f"Round {second.number}" not in earlier.split("</h2>")[0]
    assert client.get(url, {"round": "x"}).status_code == 200  # a bad number: the current round
