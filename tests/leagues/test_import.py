"""`import_games` / `export_games` and the import service, on PostgreSQL."""

import io
import sys
from datetime import date

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection

from leagues import services
from leagues.models import Game, GameResult, ImportBatch, Player
from tests.factories import GameFactory, LeagueFactory, OrganizationFactory, PlayerFactory

SAMPLE_PLAYERS = {
    "Alex",
    "Brady",
    "Brenden",
    "CJ",
    "Caid",
    "Caid/Brenden",
    "Cate",
    "Colton",
    "Dylan",
    "Dylan/Brenden",
    "Dylan/Jacob",
    "Dylan/Sara",
    "Jacob",
    "Jacob/Marshall",
    "Jake",
    "Jake/Jacob",
    "Jeff",
    "Josh",
    "Marshall",
    "Russ",
    "Sara",
}


def run_import(path, league, *options) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(
        "import_games", str(path), "--league", league.slug, *options, stdout=out, stderr=err
    )
    return out.getvalue(), err.getvalue()


def refused_import(path, league, *options) -> tuple[str, str]:
    """Run an import that must fail: the CommandError message and what went to stderr."""
    err = io.StringIO()
    with pytest.raises(CommandError) as failure:
        call_command(
            "import_games",
            str(path),
            "--league",
            league.slug,
            *options,
            stdout=io.StringIO(),
            stderr=err,
        )
    return str(failure.value), err.getvalue()


@pytest.fixture
def sample_file(tmp_path, sample_bytes):
    path = tmp_path / "mtgscores.csv"
    path.write_bytes(sample_bytes)
    return path


def csv_file(tmp_path, text: str, name="games.csv"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def finishing_order(game: Game) -> list[str]:
    return [r.player.name for r in game.results.order_by("placement", "id")]


# --- the real file --------------------------------------------------------------------------


def test_the_sample_without_skip_invalid_fails_and_writes_nothing(league, sample_file, db_counts):
    before = db_counts()

    message, stderr = refused_import(sample_file, league)

    assert "Nothing was imported" in message
    assert "line 142, column D" in stderr
    assert "Caid" in stderr
    assert db_counts() == before == {"games": 0, "results": 0, "players": 0, "batches": 0}


def test_the_sample_with_skip_invalid_imports_every_valid_row(league, sample_file):
    out, _ = run_import(sample_file, league, "--skip-invalid")

    # 225 rows, one of them (line 142) bad.
    assert league.games.count() == 224
    assert all(g.source == Game.Source.IMPORT for g in league.games.all())
    assert set(Player.objects.values_list("name", flat=True)) == SAMPLE_PLAYERS
    assert Player.objects.filter(name__iexact="josh").count() == 1
    assert "142" in out
    batch = ImportBatch.objects.get()
    assert (batch.status, batch.games_imported, batch.skipped_lines) == ("imported", 224, [142])
    assert batch.filename == "mtgscores.csv"


def test_the_sample_keeps_notes_and_trims_names(league, sample_file):
    run_import(sample_file, league, "--skip-invalid")

    first_night = league.games.filter(played_on=date(2020, 1, 20)).order_by("id")
    assert [g.notes for g in first_night] == [
        "",
        "",
        "This bunch of games was the last chunk of Magic Monday games we played",
    ]
    rip = league.games.get(notes="RIP Corbett")
    assert rip.played_on == date(2021, 8, 5)
    assert finishing_order(rip) == ["Brenden", "Dylan"]
    # Line 172: ",12/2/2021,Josh ,Dylan,Sara,Brenden" (a trailing space after Josh).
    josh_win = league.games.get(
        played_on=date(2021, 12, 2), results__placement=1, results__player__name="Josh"
    )
    assert finishing_order(josh_win) == ["Josh", "Dylan", "Sara", "Brenden"]
    assert josh_win.notes == ""


def test_identical_games_in_one_file_are_all_imported(league, sample_file):
    """Lines 2 and 3 of the sample are the same game, played twice that night."""
    run_import(sample_file, league, "--skip-invalid")

    same = [
        g
        for g in league.games.filter(played_on=date(2020, 1, 20))
        if finishing_order(g) == ["Marshall", "Dylan", "Colton", "Brenden"]
    ]
    assert len(same) == 2


# --- importing twice --------------------------------------------------------------------------


def test_importing_the_same_file_again_is_refused_and_writes_nothing(
    league, sample_file, db_counts
):
    run_import(sample_file, league, "--skip-invalid")
    before = db_counts()

    message, _ = refused_import(sample_file, league)
    assert "already imported" in message
    assert db_counts() == before

    message, _ = refused_import(sample_file, league, "--skip-invalid")
    assert "nothing new to import" in message
    assert db_counts() == before
    assert league.games.count() == 224


def test_a_file_with_new_rows_appended_imports_only_the_new_ones(
    league, tmp_path, sample_bytes, db_counts
):
    run_import(csv_file(tmp_path, sample_bytes.decode(), "old.csv"), league, "--skip-invalid")
    longer = sample_bytes.decode() + "\r\n,4/10/2022,Sara,Josh,Newcomer\r\n,4/10/2022,Josh,Sara\r\n"
    path = csv_file(tmp_path, longer, "new.csv")
    before = db_counts()

    message, _ = refused_import(path, league)
    assert "already in the league" in message
    assert db_counts() == before

    out, _ = run_import(path, league, "--skip-invalid")
    assert league.games.count() == 224 + 2
    assert list(Player.objects.filter(name="Newcomer").values_list("name", flat=True)) == [
        "Newcomer"
    ]
    assert "Newcomer" in out
    assert league.games.filter(played_on=date(2022, 4, 10)).count() == 2


def test_a_game_stored_once_but_listed_twice_in_the_file_is_imported_once_more(league, tmp_path):
    ann = PlayerFactory(organization=league.organization, name="Ann")
    bob = PlayerFactory(organization=league.organization, name="Bob")
    GameFactory(league=league, played_on=date(2024, 5, 1), players=[ann, bob])
    path = csv_file(tmp_path, ",2024-05-01,Ann,Bob\n,2024-05-01,Ann,Bob\n")

    out, _ = run_import(path, league, "--skip-invalid")

    assert league.games.filter(played_on=date(2024, 5, 1)).count() == 2
    assert "line 1" in out


# --- players --------------------------------------------------------------------------------


def test_existing_players_are_matched_ignoring_case(league, tmp_path):
    dylan = PlayerFactory(organization=league.organization, name="dylan")
    path = csv_file(tmp_path, ",2024-01-01,DYLAN,Ann\n,2024-01-02,Ann,Dylan\n")

    out, _ = run_import(path, league)

    assert Player.objects.filter(name__iexact="dylan").get() == dylan
    assert GameResult.objects.filter(player=dylan).count() == 2
    assert set(Player.objects.values_list("name", flat=True)) == {"dylan", "Ann"}
    assert "Ann" in out


def test_players_of_another_organization_are_not_used(league, tmp_path):
    stranger = PlayerFactory(organization=OrganizationFactory(), name="Ann")
    path = csv_file(tmp_path, ",2024-01-01,Ann,Bob\n")

    run_import(path, league)

    ann = Player.objects.get(organization=league.organization, name="Ann")
    assert ann != stranger
    assert not GameResult.objects.filter(player=stranger).exists()


def test_names_are_matched_as_the_database_folds_case(league, tmp_path):
    """PostgreSQL's lower("İlker") is "ilker"; Python's "İlker".lower() is "i̇lker"."""
    ilker = PlayerFactory(organization=league.organization, name="ilker")
    path = csv_file(tmp_path, ",2024-01-01,İlker,Ann\n")

    run_import(path, league)

    assert GameResult.objects.filter(player=ilker).count() == 1
    assert not Player.objects.filter(name="İlker").exists()
    # And that game is recognised when the file comes again.
    message, _ = refused_import(path, league, "--skip-invalid")
    assert "nothing new to import" in message


def test_two_spellings_of_one_player_in_a_row_are_a_problem(league, tmp_path, db_counts):
    path = csv_file(tmp_path, ",2024-01-01,Ann,Bob\n,2024-01-02,İlker,ilker\n")

    _, stderr = refused_import(path, league)

    assert "line 2, players" in stderr
    assert db_counts()["games"] == 0
    out, _ = run_import(path, league, "--skip-invalid")
    assert league.games.count() == 1
    assert "line 2" in out


# --- variants, input and errors -------------------------------------------------------------


@pytest.mark.parametrize(
    "variant",
    [
        lambda text: text,
        lambda text: "\ufeff" + text,
        lambda text: text.replace("\n", "\r\n"),
        lambda text: ",Date,Winner,Second,Third\n" + text,
        lambda text: "\ufeff,date,1st,2nd\r\n" + text.replace("\n", ",,,\r\n"),
    ],
    ids=["plain", "bom", "crlf", "header", "bom-header-crlf-trailing-cells"],
)
def test_bom_crlf_and_header_variants_give_the_same_games(
    variant, organization, tmp_path, league_snapshot
):
    text = ",2024-01-01,Ann,Bob,Cid\n,1/2/2024,Cid,Ann,,note here\n"
    reference = LeagueFactory(organization=organization)
    run_import(csv_file(tmp_path, text, "a.csv"), reference)
    target = LeagueFactory(organization=organization)

    run_import(csv_file(tmp_path, variant(text), "b.csv"), target)

    assert len(league_snapshot(target)) == 2
    assert league_snapshot(target) == league_snapshot(reference)


def test_reading_standard_input(league, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b",2024-01-01,Ann,Bob\n")))

    run_import("-", league)

    assert [finishing_order(g) for g in league.games.all()] == [["Ann", "Bob"]]


def test_a_windows_1252_file_is_read_with_a_warning(league, tmp_path):
    path = tmp_path / "ansi.csv"
    path.write_bytes(",2024-01-01,Zoë,Ann\r\n".encode("cp1252"))

    _, stderr = run_import(path, league)

    assert "Windows-1252" in stderr
    assert Player.objects.filter(name="Zoë").exists()


def test_an_unknown_league_is_named_in_the_error(tmp_path, db):
    path = csv_file(tmp_path, ",2024-01-01,Ann,Bob\n")

    with pytest.raises(CommandError, match="no-such-league"):
        call_command("import_games", str(path), "--league", "no-such-league")


def test_a_missing_file_is_a_clear_error(league, tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_games", str(tmp_path / "nope.csv"), "--league", league.slug)


def test_a_bad_row_near_the_end_leaves_the_database_unchanged(league, tmp_path, db_counts):
    rows = "".join(f",2024-01-{day:02d},Ann,Bob,New{day}\n" for day in range(1, 29))
    path = csv_file(tmp_path, rows + ",2024-02-30,Ann,Bob\n")
    before = db_counts()

    message, stderr = refused_import(path, league)

    assert "line 29, column B (date)" in stderr
    assert "1 row cannot be imported" in message
    assert db_counts() == before


def test_a_database_failure_in_the_middle_of_an_import_leaves_nothing_behind(
    league, tmp_path, db_counts
):
    """A trigger refuses the very last result written; players, batch and games roll back."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            CREATE FUNCTION test_refuse_boom() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.stats ? 'boom' THEN RAISE EXCEPTION 'boom'; END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER test_refuse_boom BEFORE INSERT ON leagues_gameresult
                FOR EACH ROW EXECUTE FUNCTION test_refuse_boom();
            """
        )
    text = ",2024-01-01,Ann,Bob\n,2024-01-02,Cid,Dee\n" + (
        '"{""stats"": [{}, {""boom"": 1}]}",2024-01-03,Eve,Fay\n'
    )
    before = db_counts()

    with pytest.raises(DatabaseError, match="boom"):
        services.games_import(league=league, text=text)

    assert db_counts() == before


def test_import_plan_writes_nothing_and_counts_what_would_happen(league, db_counts):
    PlayerFactory(organization=league.organization, name="Ann")
    before = db_counts()

    plan = services.import_plan(league=league, text=",2024-01-01,ann,Bob\n,2024-01-02,Bob\n")

    assert db_counts() == before
    assert [g.line for g in plan.games] == [1]
    assert plan.new_players == ["Bob"]
    assert plan.skipped_lines == [2]
    assert services.import_refusal_message(plan, skip_invalid=False) is not None
    assert services.import_refusal_message(plan, skip_invalid=True) is None


# --- export ---------------------------------------------------------------------------------


def export(league, tmp_path, name="export.csv") -> bytes:
    path = tmp_path / name
    call_command("export_games", "--league", league.slug, "--output", str(path))
    return path.read_bytes()


@pytest.fixture
def rich_league(league):
    """Games with ties, seats, stats, notes and names a spreadsheet would mangle."""
    org = league.organization
    ann, bob, cid, dee = (
        PlayerFactory(organization=org, name=name)
        for name in ("Ann", "=cmd()", 'Smith, "Jo"', "Dee")
    )
    GameFactory(league=league, played_on=date(2024, 3, 1), players=[ann, bob])
    tie = GameFactory(
        league=league,
        played_on=date(2024, 3, 1),
        players=[cid, ann, bob, dee],
        players__places=[1, 2, 2, 4],
    )
    tie.notes = "Went to time\nplaced by life, then by cards"
    tie.save()
    for player, seat, stats in ((cid, 2, {"life": 12}), (ann, 1, {}), (dee, 4, {"deck": "Zur"})):
        GameResult.objects.filter(game=tie, player=player).update(seat=seat, stats=stats)
    earlier = GameFactory(
        league=league, played_on=date(2024, 2, 1), players=[dee, cid], players__places=[1, 1]
    )
    earlier.notes = "-5 life to all, a draw"
    earlier.save()
    return league


def test_export_then_import_into_an_empty_league_reproduces_it(
    rich_league, other_league, tmp_path, league_snapshot
):
    players_before = Player.objects.count()
    exported = export(rich_league, tmp_path)

    run_import(tmp_path / "export.csv", other_league)

    assert league_snapshot(other_league) == league_snapshot(rich_league)
    assert [g[0] for g in league_snapshot(other_league)] == [
        date(2024, 2, 1),
        date(2024, 3, 1),
        date(2024, 3, 1),
    ]
    assert Player.objects.count() == players_before
    assert export(other_league, tmp_path, "again.csv") == exported


def test_export_is_byte_identical_when_run_twice_and_uses_crlf(rich_league, tmp_path):
    first = export(rich_league, tmp_path, "one.csv")
    second = export(rich_league, tmp_path, "two.csv")
    stdout = io.StringIO()
    call_command("export_games", "--league", rich_league.slug, stdout=stdout)

    assert first == second
    assert stdout.getvalue().encode("utf-8") == first
    assert first.count(b"\r\n") >= 3
    assert b"'=cmd()" in first
    assert first.startswith(b'"{""places"": [1, 1]}",2024-02-01,')


def test_export_of_the_imported_sample_reads_back_to_the_same_games(
    league, other_league, sample_file, tmp_path, league_snapshot
):
    run_import(sample_file, league, "--skip-invalid")

    export(league, tmp_path)
    run_import(tmp_path / "export.csv", other_league)

    assert league_snapshot(other_league) == league_snapshot(league)


def test_export_of_an_unknown_league_is_an_error(db):
    with pytest.raises(CommandError, match="nowhere"):
        call_command("export_games", "--league", "nowhere")
