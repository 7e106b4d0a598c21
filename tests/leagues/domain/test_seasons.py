"""leagues.domain.seasons: point tables, kickers and what one finish pays.

Every expected value here is worked out by hand from the published rules (sums written out
in the comments), never read back from the code under test. Sources:
- Limitless series points: issue 35's summary of the worked example in Limitless's series
  documentation (the page itself could not be found to read): "from the issue's summary".
- Play! Pokémon: "2024 Pokémon TCG League Challenge Championship Points",
  https://www.pokemon.com/us/play-pokemon/pokemon-events/pokemon-tournaments/tcg-league-challenge/
- Penny Dreadful: PennyDreadfulMTG/Penny-Dreadful-Tools, decksite/data/competition.py,
  `load_leaderboard` (the `points` expression: entries + won matches; ORDER BY points DESC,
  wins DESC), decksite/scrapers/gatherling.py `insert_match` (a bye is stored as a 2-0 win).
- The plain store league: issue 35's summary (3 a win, 1 a draw, 1 for attending).
"""

import pytest

from leagues.domain.seasons import (
    LIMITLESS_EXAMPLE,
    PENNY_DREADFUL_TOURNAMENT,
    PLAY_POKEMON_LEAGUE_CHALLENGE_2024,
    Finish,
    PlacingRow,
    PointTable,
    SeasonError,
    finish_points,
    lowest_place_to_count,
)

LIMITLESS = LIMITLESS_EXAMPLE.event_type


# -- Limitless (from the summary) --------------------------------------------------


@pytest.mark.parametrize(
    ("place", "players", "points"),
    [
        (1, 2, 20),
        (2, 2, 16),
        (3, 8, 14),  # 3rd-4th pay the "4" row
        (4, 8, 14),
        (5, 8, 12),
        (8, 8, 12),
        (9, 128, 0),  # top 32 pays only above 128 players
        (9, 129, 6),
        (32, 129, 6),
        (33, 300, 0),  # top 64 pays only above 300 players
        (33, 301, 4),
        (64, 301, 4),
        (65, 400, 0),  # below every row
    ],
)
def test_limitless_placings_and_kickers(place, players, points):
    assert finish_points(LIMITLESS_EXAMPLE, Finish("p", place), players) == points


def test_limitless_shared_band_pays_its_best_place():
    # The semi-final losers of a top 8 are both "3rd-4th": both take the "4" row's 14.
    # A Swiss band 7th-10th (rows "8" and "32") takes its best place's row: 12.
    assert finish_points(LIMITLESS_EXAMPLE, Finish("p", 3, 4), 16) == 14
    assert finish_points(LIMITLESS_EXAMPLE, Finish("p", 7, 10), 200) == 12


# -- Play! Pokémon League Challenge, 2024 (pokemon.com) ---------------------------------


@pytest.mark.parametrize(
    ("place", "players", "points"),
    [
        (1, 4, 15),
        (2, 4, 12),  # kicker 0
        (4, 4, 10),
        (5, 20, 0),  # kicker 21: 20 players do not reach it
        (5, 21, 8),
        (8, 21, 8),
        (9, 47, 0),  # kicker 48
        (16, 48, 6),
        (17, 79, 0),  # kicker 80
        (32, 80, 4),
        (33, 500, 0),
    ],
)
def test_play_pokemon_league_challenge_2024(place, players, points):
    table = PLAY_POKEMON_LEAGUE_CHALLENGE_2024
    assert finish_points(table, Finish("p", place), players) == points


# -- Penny Dreadful (its own source) -----------------------------------------------------


def test_penny_dreadful_points_are_entries_plus_won_matches_and_byes():
    pd = PENNY_DREADFUL_TOURNAMENT
    # Entered, 0-3: the point for showing up.
    assert finish_points(pd, Finish("p", 16, rounds=3), 16) == 1
    # 3-0 in the Swiss, won the quarter and semi-final, lost the final: 1 + 5.
    assert finish_points(pd, Finish("p", 2, rounds=6, wins=5), 16) == 6
    # A bye is a win: bye, win, loss, then three elimination wins: 1 + 4 + 1.
    assert finish_points(pd, Finish("p", 1, rounds=6, wins=4, byes=1), 16) == 6
    # No placing bonus: the winner and the finalist above earn the same.


def test_entering_round_and_draw_points_add_up():
    table = PointTable(
        "t",
        placings=(PlacingRow(1, 10),),
        entering=2,
        per_round=1,
        per_win=3,
        per_draw=1,
        per_bye=2,
    )
    # 2 entering + 5 rounds + 2 wins x 3 + 1 draw + 1 bye x 2 + 1st 10 = 26
    assert finish_points(table, Finish("p", 1, rounds=5, wins=2, draws=1, byes=1), 8) == 26


# -- Validation: which row, which field, why -----------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "code", "field"),
    [
        (
            {"placings": (PlacingRow(1, 10), PlacingRow(1, 8))},
            "placings_not_increasing",
            "placings[1].down_to",
        ),
        (
            {"placings": (PlacingRow(2, 10), PlacingRow(4, 12))},
            "points_increasing",
            "placings[1].points",
        ),
        ({"placings": (PlacingRow(0, 10),)}, "bad_place", "placings[0].down_to"),
        ({"placings": (PlacingRow(1, -1),)}, "negative_points", "placings[0].points"),
        (
            {"placings": (PlacingRow(1, 10), PlacingRow(8, 5, more_than=0))},
            "kicker_without_size",
            "placings[1].more_than",
        ),
        (
            {
                "placings": (
                    PlacingRow(8, 10, more_than=32),
                    PlacingRow(16, 5, more_than=16),
                )
            },
            "kicker_decreasing",
            "placings[1].more_than",
        ),
        (
            {"placings": (PlacingRow(8, 10, more_than=32), PlacingRow(16, 5))},
            "kicker_decreasing",
            "placings[1].more_than",
        ),
        ({"best_finishes": 0}, "bad_limit", "best_finishes"),
        ({"per_win": -3}, "negative_points", "per_win"),
    ],
)
def test_point_table_validation(kwargs, code, field):
    with pytest.raises(SeasonError) as caught:
        PointTable("Weekly", **kwargs)
    assert caught.value.code == code
    assert caught.value.field == field
    assert "Weekly" in caught.value.message


def test_points_increasing_message_names_the_row():
    with pytest.raises(SeasonError) as caught:
        PointTable("Cup", placings=(PlacingRow(1, 20), PlacingRow(2, 16), PlacingRow(4, 18)))
    assert caught.value.message == (
        "Event type 'Cup', row 3 (down to place 4): pays 18, more than the better places "
        "above (16)."
    )


def test_equal_points_down_the_table_are_allowed():
    table = PointTable("flat", placings=(PlacingRow(1, 5), PlacingRow(8, 5)))
    assert finish_points(table, Finish("p", 8), 8) == 5


def test_row_labels_name_the_places_a_row_covers():
    labels = [LIMITLESS_EXAMPLE.row_label(i) for i in range(len(LIMITLESS_EXAMPLE.placings))]
    assert labels == ["1", "2", "3-4", "5-8", "9-32", "33-64"]


def test_lowest_place_to_count():
    # In a 16-player Limitless event, beating a 5th place (12) takes a 4th (14) or better;
    # nothing beats a win (20).
    assert lowest_place_to_count(LIMITLESS_EXAMPLE, 16, 12) == 4
    assert lowest_place_to_count(LIMITLESS_EXAMPLE, 200, 5) == 32
    assert lowest_place_to_count(LIMITLESS_EXAMPLE, 16, 20) is None
