"""Every CSV export neutralises spreadsheet formulas (OWASP "CSV injection").

A cell that starts with =, +, -, @, a tab or a carriage return is run as a formula by Excel,
LibreOffice or Google Sheets. Every text cell of every CSV the site writes (the league export
page, `export_games` and `rankings --format csv`) must come out with an apostrophe in front of
such text, and importing the league export must give the names back exactly.
"""

import csv
import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from leagues.domain.csvformat import FORMULA_PREFIXES, parse_games_csv
from tests.factories import GameFactory, PlayerFactory

pytestmark = pytest.mark.django_db

HOSTILE_NAMES = [
    "=cmd()",
    '=HYPERLINK("http://evil.example","click")',
    "+1+1",
    "-2+3",
    "@SUM(A1:A9)",
    "\t=tab",
    "\r=cr",
    "'=already quoted",
]
HOSTILE_NOTE = '=WEBSERVICE("http://evil.example")'


@pytest.fixture
def hostile_league(league, django_capture_on_commit_callbacks):
    players = [PlayerFactory(organization=league.organization, name=n) for n in HOSTILE_NAMES]
    with django_capture_on_commit_callbacks(execute=True):
        GameFactory(league=league, players=players[:4], notes=HOSTILE_NOTE)
        GameFactory(league=league, players=players[4:])
    return league


def assert_no_formula_cells(text: str, *, skip_columns=()) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows
    for row in rows:
        for index, cell in enumerate(row):
            if index not in skip_columns:
                assert not cell.startswith(FORMULA_PREFIXES), (index, cell, row)
    return rows


def test_the_league_export_page_escapes_every_formula(client, hostile_league):
    response = client.get(reverse("league_export", kwargs={"slug": hostile_league.slug}))

    text = response.content.decode("utf-8")
    rows = assert_no_formula_cells(text)
    cells = [cell for row in rows for cell in row]
    assert "'=cmd()" in cells
    assert "'\t=tab" in cells
    assert "''=already quoted" in cells  # so reading takes exactly one apostrophe off
    assert "'" + HOSTILE_NOTE in cells


def test_importing_the_export_gives_the_names_and_note_back(client, hostile_league):
    text = client.get(reverse("league_export", kwargs={"slug": hostile_league.slug})).content

    parsed = parse_games_csv(text.decode("utf-8"))

    assert parsed.problems == []
    names = sorted(f.name for g in parsed.games for f in g.finishers)
    # The reader folds white space inside a name, as the entry form does.
    assert names == sorted(" ".join(n.split()) for n in HOSTILE_NAMES)
    assert {g.note for g in parsed.games} == {HOSTILE_NOTE, ""}


def test_the_export_games_command_escapes_every_formula(hostile_league):
    out = io.StringIO()
    call_command("export_games", "--league", hostile_league.slug, stdout=out)

    rows = assert_no_formula_cells(out.getvalue())
    assert "'=cmd()" in [cell for row in rows for cell in row]


def test_the_rankings_csv_escapes_names(hostile_league):
    out = io.StringIO()
    call_command("rankings", "--league", hostile_league.slug, "--format", "csv", stdout=out)

    # Columns rank, rating and games are numbers (a rating may be negative: "-12" is a
    # number to a spreadsheet, not a formula); the player column is text.
    rows = assert_no_formula_cells(out.getvalue(), skip_columns={0, 2, 3})
    assert rows[0] == ["rank", "player", "rating", "games"]
    assert sorted(row[1] for row in rows[1:]) == sorted(
        "'" + n if n.startswith((*FORMULA_PREFIXES, "'")) else n for n in HOSTILE_NAMES
    )
