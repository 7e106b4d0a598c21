"""seasons.domain.rules: point tables, best-finish limits, kickers and the season table.

Every expected table here is worked out by hand from the published rules (sums written out
in the comments), never read back from the code under test. Sources:
- Limitless series points: the best-finish limit from Limitless's series page,
  https://play.limitlesstcg.com/series/limitless-online-2021/details ("The Weeklies have a
  Best Finish Limit of 10. That means if a player has more than 10 finishes that earned them
  ranking points in these tournaments, only their best 10 will count towards the ranking.").
  The readable stored copy of that page stops at its "Major tournaments" heading, before any
  point table: the placings and kickers are issue 35's summary ("from the issue's summary").
- Play! Pokémon: "2024 Pokémon TCG League Challenge Championship Points",
  https://www.pokemon.com/us/play-pokemon/pokemon-events/pokemon-tournaments/tcg-league-challenge/
- Penny Dreadful: PennyDreadfulMTG/Penny-Dreadful-Tools, decksite/data/competition.py,
  `load_leaderboard` (the `points` expression: entries + won matches; ORDER BY points DESC,
  wins DESC), decksite/scrapers/gatherling.py `insert_match` (a bye is stored as a 2-0 win),
  as of commit fcae73dcbcd0d95577fbe41badea30c4db08c32a.
- The plain store league: issue 35's summary (3 a win, 1 a draw, 1 for attending).
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seasons.domain.rules import (
    LIMITLESS_EXAMPLE,
    PENNY_DREADFUL_TOURNAMENT,
    PLAY_POKEMON_LEAGUE_CHALLENGE_2024,
    PRESETS,
    STORE_POINTS,
    Finish,
    PlacingRow,
    PointTable,
    Season,
    SeasonError,
    SeasonEvent,
    finish_points,
    lowest_place_to_count,
    season_table,
)

LIMITLESS = LIMITLESS_EXAMPLE.event_type


def summary(rows):
    """(rank, tied, player, points) per row: the shape of a published table."""
    return [(r.rank, r.tied, r.player, r.points) for r in rows]


# -- Limitless (placings from the summary; the limit from Limitless's page) -------


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


def limitless_events():
    return [
        SeasonEvent(
            "A",
            LIMITLESS,
            150,  # above 128: 9th-32nd pay 6; not above 300: 33rd-64th pay nothing
            (
                Finish("Alice", 1),
                Finish("Bob", 2),
                Finish("Cara", 3, 4),
                Finish("Dan", 3, 4),
                Finish("Eve", 5, 8),
                Finish("Finn", 9),
                Finish("Gus", 33),
            ),
        ),
        SeasonEvent("B", LIMITLESS, 128, (Finish("Bob", 1), Finish("Alice", 2), Finish("Finn", 9))),
        SeasonEvent("C", LIMITLESS, 301, (Finish("Cara", 32), Finish("Gus", 40))),
    ]


def test_limitless_season_table():
    rows = season_table(PRESETS["limitless"], limitless_events())
    assert summary(rows) == [
        (1, True, "Alice", 36),  # A 1st 20 + B 2nd 16
        (1, True, "Bob", 36),  # A 2nd 16 + B 1st 20; no tie-break: they share 1st
        (3, False, "Cara", 20),  # A 3rd-4th 14 + C 32nd of 301: 6
        (4, False, "Dan", 14),  # A 3rd-4th
        (5, False, "Eve", 12),  # A 5th-8th
        (6, False, "Finn", 6),  # A 9th of 150: 6; B 9th of 128: 0
        (7, False, "Gus", 4),  # A 33rd of 150: 0; C 40th of 301: 4
    ]
    finn = rows[5]
    assert [(f.event, f.points) for f in finn.counted] == [("A", 6), ("B", 0)]
    assert finn.dropped == ()
    assert finn.to_beat == ((LIMITLESS, 0),)  # below the limit of 10: every finish counts


def test_limitless_best_finish_limit_counts_ten():
    # Limitless's page: "if a player has more than 10 finishes that earned them ranking
    # points in these tournaments, only their best 10 will count towards the ranking."
    # One win (20) and eleven 5th places (12) in 16-player events: the win and nine of the
    # 5th places count, 20 + 9 x 12 = 128; the last two 5th places (events 11, 12) do not.
    # Two 9th places of 16 players (events 13, 14) earned no ranking points: they take none
    # of the ten places and change nothing.
    events = (
        [SeasonEvent(1, LIMITLESS, 16, (Finish("Alice", 1),))]
        + [SeasonEvent(n, LIMITLESS, 16, (Finish("Alice", 5, 8),)) for n in range(2, 13)]
        + [SeasonEvent(n, LIMITLESS, 16, (Finish("Alice", 9),)) for n in (13, 14)]
    )
    (row,) = season_table(PRESETS["limitless"], events)
    assert row.points == 128
    assert [f.event for f in row.counted] == [1, *range(2, 11)]
    assert [(f.event, f.points) for f in row.dropped] == [(11, 12), (12, 12), (13, 0), (14, 0)]
    # A new finish counts only if it pays more than the weakest counted one (a 5th: 12).
    assert row.to_beat == ((LIMITLESS, 12),)


def test_limitless_ten_paying_finishes_all_count_whatever_the_empty_ones():
    # Exactly 10 finishes that earned points (not "more than 10"): all of them count, even
    # with more events played that paid nothing, 10 x 12 = 120.
    events = [SeasonEvent(n, LIMITLESS, 16, (Finish("Alice", 9),)) for n in range(1, 4)] + [
        SeasonEvent(n, LIMITLESS, 16, (Finish("Alice", 5, 8),)) for n in range(4, 14)
    ]
    (row,) = season_table(PRESETS["limitless"], events)
    assert row.points == 120
    assert sorted(f.event for f in row.counted) == list(range(4, 14))
    assert [(f.event, f.points) for f in row.dropped] == [(1, 0), (2, 0), (3, 0)]


def test_limitless_a_better_finish_replaces_the_weakest():
    events = [SeasonEvent(n, LIMITLESS, 16, (Finish("Alice", 5, 8),)) for n in range(1, 11)]
    assert season_table(PRESETS["limitless"], events)[0].points == 120  # 10 x 12
    events.append(SeasonEvent(11, LIMITLESS, 16, (Finish("Alice", 2),)))
    (row,) = season_table(PRESETS["limitless"], events)
    assert row.points == 124  # 16 + 9 x 12
    assert row.counted[0].event == 11
    assert [f.event for f in row.dropped] == [10]  # equal 5ths: the latest id drops


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


def test_play_pokemon_season_table():
    kind = PLAY_POKEMON_LEAGUE_CHALLENGE_2024.event_type
    events = [
        SeasonEvent(
            "X",
            kind,
            21,
            (Finish("P1", 1), Finish("P2", 2), Finish("P3", 3), Finish("P4", 5)),
        ),
        SeasonEvent("Y", kind, 20, (Finish("P4", 1), Finish("P1", 2), Finish("P3", 5))),
    ]
    assert summary(season_table(PRESETS["play_pokemon_league_challenge"], events)) == [
        (1, False, "P1", 27),  # 15 + 12
        (2, False, "P4", 23),  # 5th of 21: 8 + 1st 15
        (3, False, "P2", 12),
        (4, False, "P3", 10),  # 3rd 10 + 5th of 20: 0
    ]


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


def test_penny_dreadful_season_table():
    kind = PENNY_DREADFUL_TOURNAMENT.event_type
    events = [
        SeasonEvent(
            "Saturday 1",
            kind,
            16,
            (
                Finish("Cal", 1, rounds=6, wins=4, byes=1),  # 1 + 4 + 1 = 6, 5 match wins
                Finish("Ann", 2, rounds=6, wins=5),  # 1 + 5 = 6, 5 match wins
                Finish("Ben", 5, 8, rounds=4, wins=2),  # 1 + 2 = 3
                Finish("Dee", 16, rounds=3),  # 1
            ),
        ),
        SeasonEvent("Saturday 2", kind, 9, (Finish("Ben", 3, rounds=3, wins=2),)),  # 1 + 2
    ]
    rows = season_table(PRESETS["penny_dreadful"], events)
    assert summary(rows) == [
        (1, True, "Ann", 6),  # 6 points, 5 wins, 1 event
        (1, True, "Cal", 6),  # the same: Penny Dreadful's ORDER BY cannot part them
        (3, False, "Ben", 6),  # 3 + 3 = 6 points but 4 wins: below on "wins DESC"
        (4, False, "Dee", 1),
    ]
    assert dict(rows[2].tiebreaks) == {"most_match_wins": 4, "most_events": 2}


# -- A plain store league (from the summary) --------------------------------------


def store_events():
    kind = STORE_POINTS.event_type
    return [
        SeasonEvent(
            "S1",
            kind,
            6,
            (
                Finish("Ann", 1, rounds=3, wins=2, draws=1),  # 1 + 6 + 1 = 8
                Finish("Cal", 2, rounds=3, wins=1, byes=1),  # 1 + 3 + 3 = 7
                Finish("Ben", 3, rounds=3, wins=1, draws=1),  # 1 + 3 + 1 = 5
                Finish("Eve", 4, rounds=3, wins=1),  # 1 + 3 = 4
                Finish("Fay", 5, rounds=3, draws=1),  # 1 + 1 = 2
                Finish("Dee", 6, rounds=3),  # 1
            ),
        ),
        SeasonEvent(
            "S2",
            kind,
            4,
            (
                Finish("Ben", 1, rounds=3, wins=3),  # 1 + 9 = 10
                Finish("Dee", 2, rounds=3, wins=1),  # 1 + 3 = 4
                Finish("Eve", 3, rounds=3, draws=2),  # 1 + 2 = 3
                Finish("Gil", 4, rounds=3),  # 1
            ),
        ),
    ]


def test_store_points_season_table():
    assert summary(season_table(PRESETS["store_points"], store_events())) == [
        (1, False, "Ben", 15),  # 5 + 10
        (2, False, "Ann", 8),
        (3, False, "Eve", 7),  # 4 + 3: no event wins, but 2 events
        (4, False, "Cal", 7),  # 7 in 1 event: "most events" puts Eve above
        (5, False, "Dee", 5),  # 1 + 4
        (6, False, "Fay", 2),
        (7, False, "Gil", 1),
    ]


def test_without_tiebreaks_equal_points_share_a_rank():
    season = Season(tables=(STORE_POINTS,))
    rows = summary(season_table(season, store_events()))
    assert rows[2:4] == [(3, True, "Cal", 7), (3, True, "Eve", 7)]
    assert rows[4] == (5, False, "Dee", 5)


@pytest.mark.parametrize(
    ("tiebreaks", "order"),
    [
        (("most_event_wins",), ["Win", "Two"]),  # Win won an event, Two never did
        (("most_events",), ["Two", "Win"]),
        (("best_single_finish",), ["Win", "Two"]),  # 1st beats 2nd
    ],
)
def test_named_tiebreaks(tiebreaks, order):
    table = PointTable("night", placings=(PlacingRow(1, 4), PlacingRow(2, 2)))
    events = [
        SeasonEvent(1, "night", 4, (Finish("Win", 1), Finish("Two", 2))),  # 4 and 2
        SeasonEvent(2, "night", 4, (Finish("Two", 2),)),  # Two: 2 + 2 = 4
    ]
    rows = season_table(Season(tables=(table,), tiebreaks=tiebreaks), events)
    assert [(r.player, r.points, r.rank) for r in rows] == [
        (order[0], 4, 1),
        (order[1], 4, 2),
    ]


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


@pytest.mark.parametrize(
    ("event", "code", "field"),
    [
        (SeasonEvent(1, "night", 0, ()), "no_players", "events[0].players"),
        (
            SeasonEvent(1, "night", 1, (Finish("a", 1), Finish("b", 2))),
            "too_many_finishes",
            "events[0].finishes",
        ),
        (
            SeasonEvent(1, "night", 4, (Finish("a", 1), Finish("a", 2))),
            "duplicate_player",
            "events[0].finishes[1]",
        ),
        (SeasonEvent(1, "night", 4, (Finish("a", 5),)), "bad_place", "events[0].finishes[0].first"),
        (
            SeasonEvent(1, "night", 4, (Finish("a", 3, 2),)),
            "bad_place",
            "events[0].finishes[0].first",
        ),
        (
            SeasonEvent(1, "night", 4, (Finish("a", 1, rounds=2, wins=2, byes=1),)),
            "more_results_than_rounds",
            "events[0].finishes[0].rounds",
        ),
        (
            SeasonEvent(1, "night", 4, (Finish("a", 1, rounds=-1),)),
            "negative_count",
            "events[0].finishes[0].rounds",
        ),
        (SeasonEvent(1, "cup", 4, (Finish("a", 1),)), "unknown_event_type", "event_type"),
    ],
)
def test_event_validation(event, code, field):
    season = Season(tables=(PointTable("night", placings=(PlacingRow(1, 3),)),))
    with pytest.raises(SeasonError) as caught:
        season_table(season, [event])
    assert (caught.value.code, caught.value.field) == (code, field)


def test_season_validation():
    table = PointTable("night")
    with pytest.raises(SeasonError) as caught:
        Season(tables=(table, PointTable("night")))
    assert caught.value.code == "duplicate_event_type"
    with pytest.raises(SeasonError) as caught:
        Season(tables=(table,), tiebreaks=("coin_flip",))
    assert (caught.value.code, caught.value.field) == ("unknown_tiebreak", "tiebreaks[0]")
    with pytest.raises(SeasonError) as caught:
        season_table(Season(tables=(table,)), [SeasonEvent(1, "night", 2, ())] * 2)
    assert caught.value.code == "duplicate_event"


# -- Properties -----------------------------------------------------------------------------

LIMITED = PointTable(
    "limited",
    placings=(PlacingRow(1, 9), PlacingRow(2, 6), PlacingRow(4, 4), PlacingRow(8, 2, 10)),
    best_finishes=2,
    per_win=1,
)
PROPERTY_SEASON = Season(tables=(LIMITLESS_EXAMPLE, STORE_POINTS, LIMITED))
PLAYERS = ["p0", "p1", "p2", "p3", "p4", "p5"]


@st.composite
def season_events(draw):
    events = []
    for number in range(draw(st.integers(0, 7))):
        who = draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=6, unique=True))
        kind = draw(st.sampled_from([LIMITLESS, STORE_POINTS.event_type, "limited"]))
        size = len(who) + draw(st.sampled_from([0, 3, 20, 130, 310]))
        finishes = []
        for place, player in enumerate(who, start=1):
            rounds = draw(st.integers(0, 5))
            wins = draw(st.integers(0, rounds))
            draws = draw(st.integers(0, rounds - wins))
            byes = draw(st.integers(0, rounds - wins - draws))
            finishes.append(Finish(player, place, place, rounds, wins, draws, byes))
        events.append(SeasonEvent(number, kind, size, tuple(finishes)))
    return events


@settings(max_examples=60, deadline=None)
@given(season_events(), st.randoms(use_true_random=False))
def test_order_of_events_and_finishes_changes_nothing(events, rnd):
    shuffled = [
        SeasonEvent(
            e.event, e.event_type, e.players, tuple(rnd.sample(e.finishes, len(e.finishes)))
        )
        for e in events
    ]
    rnd.shuffle(shuffled)
    assert season_table(PROPERTY_SEASON, shuffled) == season_table(PROPERTY_SEASON, events)


@settings(max_examples=60, deadline=None)
@given(season_events())
def test_a_worse_finish_beyond_the_limit_changes_nothing(events):
    before = season_table(PROPERTY_SEASON, events)
    for row in before:
        at_limit = sum(1 for f in row.counted if f.event_type == "limited") == 2
        if not at_limit:
            continue
        # Last of 1000 in a "limited" event pays nothing (no kicker row reaches 1000th, no
        # wins): no better than any counted finish, so it only joins the dropped ones.
        extra = SeasonEvent(99, "limited", 1000, (Finish(row.player, 1000),))
        after = season_table(PROPERTY_SEASON, [*events, extra])
        assert [(r.rank, r.player, r.points, r.counted) for r in after] == [
            (r.rank, r.player, r.points, r.counted) for r in before
        ]


@settings(max_examples=60, deadline=None)
@given(season_events(), st.sampled_from(PLAYERS), st.integers(1, 4), st.integers(0, 3))
def test_adding_a_finish_never_lowers_points(events, player, place, wins):
    before = {r.player: r for r in season_table(PROPERTY_SEASON, events)}
    extra = SeasonEvent(99, "limited", 4, (Finish(player, place, rounds=3, wins=wins),))
    after = {r.player: r for r in season_table(PROPERTY_SEASON, [*events, extra])}
    for who, row in before.items():
        assert after[who].points >= row.points
    counted_limited = [
        f for f in (before[player].counted if player in before else ()) if f.event_type == "limited"
    ]
    if len(counted_limited) < 2:  # below the limit: the new finish counts in full
        gained = after[player].points - (before[player].points if player in before else 0)
        assert gained == {1: 9, 2: 6, 3: 4, 4: 4}[place] + wins


def test_players_ids_may_be_ints_and_rows_are_listed_by_id_when_tied():
    table = PointTable("night", entering=1)
    events = [SeasonEvent(1, "night", 3, (Finish(3, 1), Finish(1, 2), Finish(2, 3)))]
    rows = season_table(Season(tables=(table,)), events)
    assert [(r.rank, r.tied, r.player) for r in rows] == [(1, True, 1), (1, True, 2), (1, True, 3)]


def test_row_labels_name_the_places_a_row_covers():
    labels = [LIMITLESS_EXAMPLE.row_label(i) for i in range(len(LIMITLESS_EXAMPLE.placings))]
    assert labels == ["1", "2", "3-4", "5-8", "9-32", "33-64"]


def test_to_beat_lists_every_event_type_of_the_season():
    season = Season(tables=(LIMITLESS_EXAMPLE, STORE_POINTS))
    (row,) = season_table(season, [SeasonEvent(1, LIMITLESS, 8, (Finish("Ann", 1),))])
    assert row.to_beat == ((LIMITLESS, 0), (STORE_POINTS.event_type, 0))


def test_lowest_place_to_count():
    # In a 16-player Limitless event, beating a 5th place (12) takes a 4th (14) or better;
    # nothing beats a win (20).
    assert lowest_place_to_count(LIMITLESS_EXAMPLE, 16, 12) == 4
    assert lowest_place_to_count(LIMITLESS_EXAMPLE, 200, 5) == 32
    assert lowest_place_to_count(LIMITLESS_EXAMPLE, 16, 20) is None
