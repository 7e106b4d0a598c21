"""A player's page, in words (issue 43): a score stays whole on a narrow line ("loss 0\u2013 / 2"
broke at its dash on a phone)."""

import pytest
from django.urls import reverse

from leagues.models import Player
from tests.factories import UserFactory
from tests.tournaments.play import register
from tournaments.models import Table
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

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
    event = tournament_create(league=league, name="Modern", swiss_rounds=2)
    register(event, "Ann", "Bob", "Cy", "Dee")
    round_pair(tournament=event)
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
