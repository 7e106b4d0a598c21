"""recalculate_ratings, rankings (every format and the TUI) and import_games on the ratings side."""

import csv
import io
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from ratings.models import Rating, RatingChange
from ratings.services import rating_system_set
from ratings.tui import Viewport
from tests.factories import GameFactory, PlayerFactory

MTGSCORES = Path(__file__).resolve().parents[3] / "shared" / "guildmaster" / "mtgscores.csv"
GUILDMASTER_OUTPUT = Path(__file__).parent / "data" / "guildmaster-mtgscores-rankings.txt"
ROOT = Path(__file__).resolve().parents[2]


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_rankings_match_what_guildmaster_prints_for_its_own_league(
    league, django_capture_on_commit_callbacks
):
    """Guildmaster's own output for its sample file, line for line (see tests/ratings/data)."""
    with django_capture_on_commit_callbacks(execute=True):
        run("import_games", str(MTGSCORES), "--league", league.slug, "--skip-invalid")
    printed = run("rankings", "--league", league.slug, "--format", "guildmaster")
    assert printed == GUILDMASTER_OUTPUT.read_text()


GUILDMASTER_ALL_ROWS = (
    Path(__file__).parent / "data" / "guildmaster-mtgscores-all-rows-rankings.txt"
)


@pytest.mark.django_db
def test_rate_as_guildmaster_does_prints_guildmasters_rankings_for_its_whole_sample(
    league, django_capture_on_commit_callbacks
):
    """Line 142 (Caid,Caid,Dylan) included, as Guildmaster rates it (see tests/ratings/data)."""
    with django_capture_on_commit_callbacks(execute=True):
        run(
            "import_games",
            str(MTGSCORES),
            "--league",
            league.slug,
            "--repeated-names",
            "guildmaster",
        )
    printed = run("rankings", "--league", league.slug, "--format", "guildmaster")
    assert printed == GUILDMASTER_ALL_ROWS.read_text()
    assert printed != GUILDMASTER_OUTPUT.read_text()  # the row changes Guildmaster's numbers
    # A full replay from the stored games gives the same ledger.
    run("recalculate_ratings", "--league", league.slug)
    assert run("rankings", "--league", league.slug, "--format", "guildmaster") == printed


@pytest.mark.django_db
def test_by_default_the_repeated_name_refuses_the_whole_file(league):
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_games", str(MTGSCORES), "--league", league.slug, stderr=err)
    assert 'line 142, column D (2nd place): "Caid" is named twice' in err.getvalue()
    assert not league.games.exists()


@pytest.fixture
def rated(league, django_capture_on_commit_callbacks):
    ann, bob, cy = (
        PlayerFactory(organization=league.organization, name=n) for n in ["Ann", "Bob", "Cy"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        GameFactory(league=league, players=[ann, bob, cy])  # +40, 0, -40 (see below)
    # Three players at 1500: E = ½ for every pair, so Ann +20+20, Bob +20-20, Cy -20-20.
    return league


@pytest.mark.django_db
def test_rankings_csv_and_json(rated):
    rows = list(csv.reader(io.StringIO(run("rankings", "--league", rated.slug, "--format", "csv"))))
    assert rows == [
        ["rank", "player", "rating", "games"],
        ["1", "Ann", "1540", "1"],
        ["2", "Bob", "1500", "1"],
        ["3", "Cy", "1460", "1"],
    ]
    data = json.loads(run("rankings", "--league", rated.slug, "--format", "json"))
    assert [(d["player"], d["rating"], d["wins"]) for d in data] == [
        ("Ann", 1540, 1),
        ("Bob", 1500, 0),
        ("Cy", 1460, 0),
    ]
    table = run("rankings", "--league", rated.slug)
    assert table.splitlines()[1].split() == ["1", "Ann", "1540", "1"]


@pytest.mark.django_db
def test_rankings_show_decimals_and_provisional_players_for_openskill(rated):
    rating_system_set(league=rated, system="openskill", params={})
    data = json.loads(run("rankings", "--league", rated.slug, "--format", "json"))
    assert all(isinstance(d["rating"], float) for d in data)
    assert all(d["provisional"] for d in data)  # one game each, fewer than the default 5
    assert "(provisional)" in run("rankings", "--league", rated.slug)


@pytest.mark.django_db
def test_unknown_league_is_a_clear_error(db):
    with pytest.raises(CommandError, match='No league with the slug "nope"'):
        run("rankings", "--league", "nope")
    with pytest.raises(CommandError, match="nope"):
        run("recalculate_ratings", "--league", "nope")


@pytest.mark.django_db
def test_recalculate_rebuilds_a_damaged_ledger(rated):
    before = list(Rating.objects.order_by("player_id").values_list("player_id", "value"))
    RatingChange.objects.all().delete()
    Rating.objects.update(value=0)
    out = run("recalculate_ratings", "--league", rated.slug)
    assert f"{rated.slug}: 1 games, 3 rating changes" in out
    assert list(Rating.objects.order_by("player_id").values_list("player_id", "value")) == before


def test_viewport_scrolls_to_keep_the_highlight_visible():
    view = Viewport(count=50, height=10)
    view.move(9)
    assert (view.selected, view.top) == (9, 0)
    view.move(1)
    assert (view.selected, view.top) == (10, 1)
    view.move(100)
    assert (view.selected, view.top) == (49, 40)
    view.move(-45)
    assert (view.selected, view.top) == (4, 4)
    view.resize(3)
    assert list(view.visible()) == [4, 5, 6]
    assert list(Viewport(count=0, height=5).visible()) == []


@pytest.mark.django_db(transaction=True)
def test_the_tui_runs_in_a_terminal_and_quits_on_q(rated):
    """A real pseudo-terminal: the screen shows the leaderboard, q ends the program."""
    from django.db import connection

    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get("DATABASE_URL", ""),
        "TERM": "xterm",
        "LINES": "24",
        "COLUMNS": "80",
    }
    # The test database is the one this test writes to.
    env["DATABASE_URL"] = _test_database_url(connection)
    pid, fd = pty.fork()
    if pid == 0:  # child: the command on the pty
        os.chdir(ROOT)
        os.execve(
            sys.executable,
            [sys.executable, "manage.py", "rankings", "--league", rated.slug, "--tui"],
            env,
        )
    screen = _read_until(fd, b"Ann", seconds=30)
    assert b"Ann" in screen and b"1540" in screen
    os.write(fd, b"q")
    _read_until(fd, b"\x00never", seconds=5)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def _test_database_url(connection) -> str:
    s = connection.settings_dict
    # A socket directory as the host (make test's embedded server) must be percent-encoded.
    return f"postgres://{s['USER']}@{quote(s['HOST'], safe='')}:{s['PORT']}/{s['NAME']}"


def _read_until(fd: int, needle: bytes, seconds: float) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen


def test_rankings_help_mentions_the_tui():
    result = subprocess.run(
        [sys.executable, "manage.py", "rankings", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "DEBUG": "1"},
    )
    assert "--tui" in result.stdout


@pytest.mark.django_db
def test_import_creates_the_league_with_its_rating_system(
    organization, tmp_path, django_capture_on_commit_callbacks
):
    from leagues.models import League
    from ratings.services import rating_settings_get

    path = tmp_path / "games.csv"
    path.write_text(",2026-01-01,Ann,Bob\n")
    with django_capture_on_commit_callbacks(execute=True):
        out = run(
            "import_games", str(path), "--league", "tuesday-cedh",
            "--organization", organization.slug, "--rating-system", "elo-dynamic",
        )  # fmt: skip
    league = League.objects.get(slug="tuesday-cedh")
    assert "Created league" in out and league.organization == organization
    assert rating_settings_get(league=league).system == "elo-dynamic"
    assert Rating.objects.filter(league=league).count() == 2


@pytest.mark.django_db
def test_a_refused_import_creates_no_league(organization, tmp_path):
    from leagues.models import League

    path = tmp_path / "bad.csv"
    path.write_text(",not-a-date,Ann,Bob\n")
    with pytest.raises(CommandError, match="Nothing was imported"):
        run("import_games", str(path), "--league", "new-one", "--organization", organization.slug)
    assert not League.objects.filter(slug="new-one").exists()


@pytest.mark.django_db
def test_import_refuses_a_system_the_league_does_not_use(league, tmp_path):
    path = tmp_path / "games.csv"
    path.write_text(",2026-01-01,Ann,Bob\n")
    with pytest.raises(CommandError, match="rated with guildmaster, not openskill"):
        run("import_games", str(path), "--league", league.slug, "--rating-system", "openskill")
    with pytest.raises(CommandError, match="give --organization"):
        run("import_games", str(path), "--league", "missing")
    with pytest.raises(CommandError, match="rating-system"):
        run("import_games", str(path), "--league", "x", "--organization", league.organization.slug,
            "--rating-system", "chess")  # fmt: skip
