"""A player's page, in words (issue 43): a score stays whole on a narrow line ("loss 0\u2013 / 2"
broke at its dash on a phone), and a report waiting on the phone says what it reports, not a
name that reads as who sent it ("Your report (Bob)" was Bob's win, reported by Ann).

The phone's queue (offline.js) names a report from the button's or the form's
`data-report-label`; the browser tests (test_offline_console.py) read the banner it makes.
"""

import re

import pytest
from django.urls import reverse

from leagues.models import Player
from tests import scenes
from tests.factories import UserFactory
from tournaments.models import Registration, Table
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end

pytestmark = pytest.mark.django_db

EN = "\u2013"


def own_page(client, event, entry) -> str:
    user = UserFactory(username=f"u{entry.pk}")
    Player.objects.filter(pk=entry.player_id).update(user=user)
    client.force_login(user)
    return client.get(reverse("my_event", args=[event.slug])).content.decode()


@pytest.fixture
def match(league):
    """A 1v1 event: round 1 of Ann, Bob, Cy, Dee paired; table 1's players in seat order."""
    event = scenes.round_paired(league=league, name="Modern", players=4, swiss_rounds=2).event
    table = Table.objects.get(round__tournament=event, number=1)
    seats = [s.entry for s in table.seats.select_related("entry__player").order_by("position")]
    return event, table, seats


# --- a score stays whole -----------------------------------------------------------------------


def test_a_lost_matchs_score_is_one_unbreakable_piece_in_the_players_rounds(client, match):
    event, table, (first, second) = match
    table_report(table=table, winner=first, game_wins={first.pk: 2, second.pk: 0})
    for other in Table.objects.filter(round=table.round).exclude(pk=table.pk):
        winner = other.seats.order_by("position").first().entry
        table_report(table=other, winner=winner)
    round_end(round_=table.round)
    shown = client.get(reverse("event_player", args=[event.slug, second.player_id]))
    text = shown.content.decode()
    assert f'<td class="result score down">loss 0{EN}2</td>' in text, text
    mine = own_page(client, event, second)
    assert f'<td class="result score down">loss 0{EN}2</td>' in mine


def test_the_result_line_and_the_pairings_keep_their_scores_whole(client, match):
    event, table, (first, second) = match
    table_report(table=table, winner=second, game_wins={first.pk: 1, second.pk: 2})
    mine = own_page(client, event, first)
    said = f'Result: <strong>{second.player.name} won <span class="score">2{EN}1</span></strong>'
    assert said in mine, mine
    pairings = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert f'<span class="result score muted">1{EN}2</span>' in pairings


def test_a_score_in_a_report_is_kept_whole_and_the_rest_escaped():
    from tournaments.templatetags.console import scores

    assert scores(f"<b>Bo</b> won 2{EN}1{EN}1") == (
        f'&lt;b&gt;Bo&lt;/b&gt; won <span class="score">2{EN}1{EN}1</span>'
    )
    assert scores("a draw") == "a draw"


# --- a report waiting on the phone says what it reports ----------------------------------------


def test_a_pod_players_report_buttons_say_who_won(client, league):
    event = scenes.pods_round_in_play(league=league, swiss_rounds=2).event
    table = Table.objects.get(round__tournament=event, number=1)
    seats = [s.entry for s in table.seats.select_related("entry__player").order_by("position")]
    page = own_page(client, event, seats[0])
    form = re.search(r'<form[^>]*class="report-buttons".*?</form>', page, re.S)[0]
    buttons = re.findall(r'<button[^>]*name="winner"[^>]*data-report-label="([^"]*)"', form)
    assert buttons == [f"{entry.player.name} won" for entry in seats]
    assert 'value="draw" class="secondary draw" data-report-label="a draw, everyone"' in form
    assert 'data-report-label="a finishing order">Report this order</button>' in page


def test_a_match_players_report_form_names_the_players(client, match):
    event, _, (first, second) = match
    registration = Registration.objects.create(
        tournament=event, player=second.player, entry=second, status="seated"
    )
    page = client.get(reverse("my_event_link", args=[event.slug, registration.token]))
    label = f'data-report-label="{first.player.name} {EN} {second.player.name} {{result}}"'
    assert label in page.content.decode()


def test_a_confirmation_names_the_result_it_confirms_for_the_phones_queue(client, match):
    """The confirm button carries the result in the page's words (offline.js names a waiting
    confirmation by it): stripping "Confirm: " off the button read only in English."""
    from tournaments.domain.result import Result
    from tournaments.services.reports import report_submit

    event, table, (first, second) = match
    games = {first.pk: 2, second.pk: 0}
    report_submit(table=table, entry=first, result=Result(winner=first.pk, game_wins=games))
    page = own_page(client, event, second)
    button = re.search(r'<button type="submit" class="big confirm"[^>]*>', page)[0]
    assert f'data-report-label="{first.player.name} won 2{EN}0"' in button
