"""What the pages and the judges' penalties ask an event's format instead of branching on it:
its short name, the finder's columns, the decks' naming, the order form, and what a judge's
Game Loss or Match Loss does to a table still being played (`Format.penalty_loss`)."""

import re

import pytest
from django.template.loader import get_template

from tournaments.domain.result import Result
from tournaments.domain.simulate import simulate
from tournaments.formats import FORMATS, PenaltyLoss

ONE, PODS = FORMATS["1v1"], FORMATS["pods"]


def test_the_plain_answers_of_each_format():
    assert (ONE.short_name, PODS.short_name) == ("1v1", "cEDH")
    assert (ONE.fewest_players, PODS.fewest_players) == (2, 3)
    assert (ONE.commander_decks, PODS.commander_decks) == (False, True)
    assert (ONE.has_order_form, PODS.has_order_form) == (False, True)
    assert (ONE.penalty_asks_games, PODS.penalty_asks_games) == (True, False)
    assert (ONE.penalty_loses_game, PODS.penalty_loses_game) == (False, True)


@pytest.mark.parametrize("key", sorted(FORMATS))
def test_finder_columns_are_the_finder_partials_headings(key):
    play = FORMATS[key]
    source = get_template(f"{play.template}#finder").template.source
    assert len(re.findall(r"<th\b", source)) == play.finder_columns


def test_simulate_refuses_fewer_players_than_the_format_seats():
    for key, play in FORMATS.items():
        simulate(players=play.fewest_players, seed=1, format=key)
        with pytest.raises(ValueError, match=f"at least {play.fewest_players} players"):
            simulate(players=play.fewest_players - 1, seed=1, format=key)


@pytest.mark.parametrize(
    ("loss", "games", "wins"),
    [
        ("match", None, 0),  # a Match Loss or DQ: the opponent wins 2-0
        ("match", (1, 1), 0),  # whatever the games so far
        ("game", (1, 1), 1),  # the Game Loss is the opponent's second game: 2-1
        ("game", (0, 1), 0),
    ],
)
def test_a_1v1_penalty_that_decides_the_match_enters_the_opponents_win(loss, games, wins):
    outcome = ONE.penalty_loss(loss, player=7, opponents=[9], games=games)
    assert outcome == PenaltyLoss(result=Result(winner=9, game_wins={9: 2, 7: wins}))


@pytest.mark.parametrize(
    ("loss", "games", "opponents"),
    [
        ("game", None, [9]),  # games not said: the match goes on
        ("game", (0, 0), [9]),
        ("game", (1, 0), [9]),
        (None, (1, 1), [9]),  # a Warning
        ("match", None, []),  # a bye
    ],
)
def test_a_1v1_penalty_that_does_not_decide_the_match_enters_nothing(loss, games, opponents):
    assert ONE.penalty_loss(loss, player=7, opponents=opponents, games=games) is None


def test_a_pod_penalty_takes_the_player_out_of_the_game():
    for loss in ("game", "match"):
        outcome = PODS.penalty_loss(loss, player=7, opponents=[8, 9], games=None)
        assert outcome == PenaltyLoss(out=True)
    assert PODS.penalty_loss(None, player=7, opponents=[8, 9], games=None) is None
    assert PODS.penalty_loss("match", player=7, opponents=[], games=None) is None
