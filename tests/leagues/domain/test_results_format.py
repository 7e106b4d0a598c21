"""One result per row (`game_id,date,player,placement`), the format of shared/bench-data."""

from datetime import date
from pathlib import Path

import pytest

from leagues.domain.csvformat import parse_date, parse_games_csv

HEADER = "game_id,date,player,placement\n"


def test_rows_of_one_game_become_one_game_in_place_order():
    parsed = parse_games_csv(
        HEADER + "g1,2025-01-11,Cy,2\ng1,2025-01-11,Ann,1\ng1,2025-01-11,Bob,2\n"
    )
    assert parsed.problems == []
    (game,) = parsed.games
    assert game.played_on == date(2025, 1, 11)
    assert [(f.name, f.place) for f in game.finishers] == [("Ann", 1), ("Cy", 2), ("Bob", 2)]
    assert game.note == "game g1"
    assert game.line == 2 and parsed.header_line == 1


def test_a_bom_and_crlf_are_fine():
    text = "\ufeff" + HEADER.replace("\n", "\r\n") + "1,2025-01-11,A,1\r\n1,2025-01-11,B,2\r\n"
    assert len(parse_games_csv(text).games) == 1


def test_every_bad_game_is_reported_on_its_first_line():
    text = HEADER + (
        "a,2025-01-11,Ann,1\na,2025-01-11,ann,2\n"  # lines 2-3: a player twice
        "b,2025-01-12,Ann,1\nb,2025-01-12,Bob,3\n"  # lines 4-5: 1, 3 is no ranking
        "c,2025-13-01,Ann,1\nc,2025-13-01,Bob,2\n"  # lines 6-7: no such date
        "d,2025-01-14,Ann,first\nd,2025-01-14,Bob,2\n"  # lines 8-9: not a place
        "e,2025-01-15,Ann,1\n"  # line 10: one player
        "f,2025-01-16,Ann,1\nf,2025-01-17,Bob,2\n"  # lines 11-12: two dates
        "g,2025-01-18,Ann,1\ng,2025-01-18,Bob,2\n"  # lines 13-14: fine
    )
    parsed = parse_games_csv(text)
    assert [g.note for g in parsed.games] == ["game g"]
    by_line = {p.line: p for p in parsed.problems}
    assert "named twice" in by_line[2].message
    assert "not a ranking" in by_line[4].message
    assert "not a date" in by_line[6].message
    assert "not a place" in by_line[8].message
    assert "at least 2 players" in by_line[10].message
    assert "different dates" in by_line[11].message


@pytest.mark.parametrize("place", ["\u00b9", "\u00b2", "\u0663", "+1", " 1x"])
def test_a_place_that_is_not_ascii_digits_is_reported_not_raised(place):
    # "\u00b9".isdigit() is true in Python, but int() refuses it (found by the hostile-file test).
    parsed = parse_games_csv(HEADER + f"a,2025-01-11,Ann,{place}\na,2025-01-11,Bob,2\n")
    assert parsed.games == []
    assert any("not a place" in p.message for p in parsed.problems)


def test_a_game_id_split_by_another_game_is_refused():
    text = HEADER + "x,2025-01-11,A,1\ny,2025-01-11,C,1\ny,2025-01-11,D,2\nx,2025-01-11,B,2\n"
    parsed = parse_games_csv(text)
    assert any("appears twice" in p.message for p in parsed.problems)


def test_four_digit_years_are_taken_as_written_two_digit_ones_refused():
    assert parse_date("1872-11-30") == date(1872, 11, 30)
    assert parse_date("1/20/20") is None


@pytest.mark.slow
def test_the_public_data_sets_read_as_their_study_counted_them():
    root = Path(__file__).resolve().parents[4] / "shared" / "bench-data"
    cedh = parse_games_csv((root / "cedh-topdeck/cedh-topdeck.csv").read_text())
    assert (len(cedh.games), cedh.problems) == (396, [])  # RESULTS.md: 396 games
    football = parse_games_csv(
        (root / "football-international/football-international.csv").read_text()
    )
    assert (len(football.games), football.problems) == (49520, [])
