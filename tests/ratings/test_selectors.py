"""Leaderboard reads: one player's standing read alone agrees with the whole board.

Ratings by the Guildmaster system (start 1500, K 40, D 800): a 2-player game moves its players
by 20 each, a 4-player game by +60, +20, -20, -60 (tests/ratings/test_services.py pins that).
"""

import datetime

import pytest
from django.utils import timezone

from leagues import services as league_services
from ratings import selectors
from tests.factories import PlayerFactory

pytestmark = pytest.mark.django_db

LONG_AGO = datetime.date(2025, 1, 3)


def record(league, players, day):
    results = [
        league_services.ResultIn(player=p, place=place) for place, p in enumerate(players, 1)
    ]
    league_services.game_record(league=league, results=results, played_on=day)


def test_one_players_standing_is_their_row_of_the_board(league, django_capture_on_commit_callbacks):
    a, b, c, d, e, f, g, h = PlayerFactory.create_batch(8, organization=league.organization)
    with django_capture_on_commit_callbacks(execute=True):
        record(league, [a, b], LONG_AGO)  # a 1520, b 1480, long ago
    with django_capture_on_commit_callbacks(execute=True):
        record(league, [c, d], LONG_AGO)  # c 1520, d 1480
    with django_capture_on_commit_callbacks(execute=True):
        record(league, [e, f, g, h], timezone.localdate())  # 1560, 1520, 1480, 1440, today

    expected = {  # player: (rank, tied, rating, 30-day change), worked out by hand above
        e: (1, False, 1560, 60),
        a: (2, True, 1520, 0),
        c: (2, True, 1520, 0),
        f: (2, True, 1520, 20),
        b: (5, True, 1480, 0),
        d: (5, True, 1480, 0),
        g: (5, True, 1480, -20),
        h: (8, False, 1440, -60),
    }
    board = {row.player_id: row for row in selectors.league_ratings(league=league)}
    for player, (rank, tied, rating, change) in expected.items():
        row = selectors.player_standing(league=league, player_id=player.pk)
        assert (row.rank, row.tied, row.rating, row.change) == (rank, tied, rating, change)
        assert row == board[player.pk]  # every field, name, games and wins included


def test_a_player_without_a_rating_has_no_standing(league):
    newcomer = PlayerFactory(organization=league.organization)
    assert selectors.player_standing(league=league, player_id=newcomer.pk) is None
