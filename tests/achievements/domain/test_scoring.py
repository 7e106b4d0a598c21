"""The achievement league's pure rules: how often an achievement may be earned, the points
besides the achievements, and the leaderboard (worked by hand below)."""

import itertools
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from achievements.domain.scoring import (
    RULES,
    AchievementError,
    Earned,
    GamePlayed,
    Held,
    Per,
    Scoring,
    SeasonDates,
    achievement_check,
    frequency_conflict,
    leaderboard,
    periods,
)

FRI = date(2026, 11, 20)
SAT = date(2026, 11, 21)
WINTER = SeasonDates(1, date(2026, 11, 1), date(2027, 1, 31))
SPRING = SeasonDates(2, date(2027, 2, 1), date(2027, 4, 30))


def held(game, night, achievement=7, player=1, claim=0):
    return Held(achievement=achievement, player=player, game=game, night=night, claim=claim)


@pytest.mark.parametrize(
    ("per", "before", "new", "refused"),
    [
        # Once per game: another game the same night is free, the same game is not.
        (Per.GAME, [held(10, FRI)], held(11, FRI), False),
        (Per.GAME, [held(10, FRI)], held(10, FRI), True),
        # Once per night: any game that night is refused, the next night is free.
        (Per.NIGHT, [held(10, FRI)], held(11, FRI), True),
        (Per.NIGHT, [held(10, FRI)], held(12, SAT), False),
        # An award with no game takes its night.
        (Per.NIGHT, [held(None, FRI)], held(11, FRI), True),
        # Once per season: any night of the season, never the next season.
        (Per.SEASON, [held(10, FRI)], held(12, date(2027, 1, 31)), True),
        (Per.SEASON, [held(10, FRI)], held(12, date(2027, 2, 1)), False),
        # Outside every season: the league's one open period.
        (Per.SEASON, [held(10, date(2026, 5, 1))], held(12, date(2026, 6, 1)), True),
        # Another achievement, another player: no conflict.
        (Per.SEASON, [held(10, FRI, achievement=8)], held(12, SAT), False),
        (Per.SEASON, [held(10, FRI, player=2)], held(12, SAT), False),
        # Never twice in one game, even for a rule that would let it through by dates.
        (Per.GAME, [held(10, FRI)], held(10, SAT), True),
    ],
)
def test_frequency(per, before, new, refused):
    found = frequency_conflict(per, new, before, [WINTER, SPRING])
    assert (found is not None) is refused
    if refused:
        assert found == before[0]


def test_a_claim_does_not_conflict_with_itself():
    mine = held(10, FRI, claim=5)
    assert frequency_conflict(Per.NIGHT, mine, [mine], [WINTER]) is None


def test_overlapping_seasons_each_count():
    autumn = SeasonDates(3, date(2026, 9, 1), date(2026, 11, 20))
    assert periods(Per.SEASON, game=1, night=FRI, seasons=[WINTER, autumn]) == {
        ("season", 1),
        ("season", 3),
    }
    # Held in autumn only (before winter starts): winter's night is refused only if shared.
    early = held(10, date(2026, 10, 1))
    assert frequency_conflict(Per.SEASON, held(11, SAT), [early], [WINTER, autumn]) is None
    assert frequency_conflict(Per.SEASON, held(11, FRI), [early], [WINTER, autumn]) == early


def test_a_per_game_award_needs_its_game():
    with pytest.raises(AchievementError) as error:
        periods(Per.GAME, game=None, night=FRI, seasons=[])
    assert error.value.field == "game"


def test_the_rules_read_as_players_read_them():
    assert RULES[Per.NIGHT] == "once per night"
    assert set(RULES) == set(Per)


@pytest.mark.parametrize(
    ("name", "points", "per", "field"),
    [
        ("", 1, "game", "name"),
        ("   ", 1, "game", "name"),
        ("x" * 81, 1, "game", "name"),
        ("First blood", 101, "game", "points"),
        ("First blood", -101, "game", "points"),
        ("First blood", 1, "week", "per"),
    ],
)
def test_a_bad_achievement_names_its_field(name, points, per, field):
    with pytest.raises(AchievementError) as error:
        achievement_check(name=name, points=points, per=per)
    assert error.value.field == field


def test_a_salt_achievement_may_cost_points():
    achievement_check(name="Played Armageddon", points=-2, per="night")


@pytest.mark.parametrize(
    ("placings", "message"),
    [
        ((3, 4), "Place 2 pays 4, more than place 1 (3)"),
        ((3, -1), "Place 2: points are a whole number"),
        (tuple(range(9, 0, -1)), "At most 8 places"),
    ],
)
def test_placing_points_never_grow_with_the_place(placings, message):
    with pytest.raises(AchievementError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Scoring(placings=placings)


def test_game_points():
    scoring = Scoring(per_game=1, placings=(3, 1))
    assert [scoring.game_points(p) for p in (1, 2, 3, 4)] == [4, 2, 1, 1]


def test_the_leaderboard_worked_by_hand():
    """Ann: 2 games (1st, 3rd) = 1+3 + 1 = 5, First blood twice (2 each) = 4: 9.
    Bob: 2 games (2nd, 2nd) = 2+2 = 4, Big spell (5): 9, tied with Ann, after her by name.
    Cy: 1 game (4th) = 1, Salt (-2): -1. Dee: no game, an award (3): 3."""
    scoring = Scoring(per_game=1, placings=(3, 1))
    games = [
        GamePlayed(1, 100, 1),
        GamePlayed(2, 100, 2),
        GamePlayed(3, 100, 4),
        GamePlayed(1, 101, 3),
        GamePlayed(2, 101, 2),
        GamePlayed(2, 101, 2),  # read twice: counted once
    ]
    earned = [
        Earned(1, 7, "First blood", 2),
        Earned(1, 7, "First blood", 2),
        Earned(2, 8, "Big spell", 5),
        Earned(3, 9, "Salt", -2),
        Earned(4, 10, "Host", 3),
    ]
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}
    lines = leaderboard(scoring, games, earned, names)
    assert [(line.rank, line.tied, names[line.player], line.points) for line in lines] == [
        (1, True, "Ann", 9),
        (1, True, "Bob", 9),
        (3, False, "Dee", 3),
        (4, False, "Cy", -1),
    ]
    ann = lines[0]
    assert (ann.achievement_points, ann.game_points, ann.games) == (4, 5, 2)
    assert ann.achievements == (("First blood", 2, 2),)
    assert lines[1].games == 2


@given(
    st.lists(
        st.tuples(st.integers(1, 6), st.integers(1, 4), st.integers(1, 4)),
        max_size=20,
    ),
    st.lists(st.tuples(st.integers(1, 6), st.integers(-3, 5)), max_size=20),
)
def test_ranks_follow_points(games, earned):
    """Whatever the input: points never rise down the table, equal points share a rank,
    and each rank is one more than the players above it."""
    lines = leaderboard(
        Scoring(per_game=1, placings=(3, 2, 1)),
        [GamePlayed(p, g, place) for p, g, place in games],
        [Earned(p, points + 10, f"a{points}", points) for p, points in earned],
        {},
    )
    for above, line in itertools.pairwise(lines):
        assert above.points >= line.points
        if above.points == line.points:
            assert above.rank == line.rank and above.tied and line.tied
    for position, line in enumerate(lines, start=1):
        assert line.rank == 1 + sum(1 for other in lines if other.points > line.points)
        assert position >= line.rank
