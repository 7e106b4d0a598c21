"""The commands' progress: a tqdm bar on a terminal, plain lines on a pipe or in a log."""

import io

from django.core.management import call_command

from jobs.progress import CommandProgress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_plain_lines_when_not_a_terminal():
    out = io.StringIO()
    progress = CommandProgress(out, "friday: rating")
    for done in range(0, 101, 5):
        progress(done, 100)
    progress.close()
    lines = out.getvalue().splitlines()
    assert lines[0] == "friday: rating: 0 % (0 / 100)"
    assert lines[-1] == "friday: rating: 100 % (100 / 100)"
    assert len(lines) == 11 and "\r" not in out.getvalue()


def test_a_bar_on_a_terminal():
    out = Terminal()
    progress = CommandProgress(out, "friday: rating")
    progress(50, 200)
    progress(200, 200)
    progress.close()
    assert "\r" in out.getvalue() and "200/200" in out.getvalue()


def test_recalculate_ratings_reports_progress_on_stderr(league):
    from tests.factories import GameFactory

    GameFactory.create_batch(3, league=league)
    out, err = io.StringIO(), io.StringIO()
    call_command("recalculate_ratings", "--league", league.slug, stdout=out, stderr=err)
    assert f"{league.slug}: 3 games" in out.getvalue()
    assert f"{league.slug}: re-rating: 100 % (3 / 3)" in err.getvalue()
