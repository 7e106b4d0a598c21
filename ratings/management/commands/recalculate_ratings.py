"""Rebuild rating ledgers from the games: one league, or every league."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from leagues.models import League
from ratings.services import ratings_recalculate


class Command(BaseCommand):
    help = "Replay every game of a league (or of all leagues) and rewrite its rating ledger."

    def add_arguments(self, parser):
        parser.add_argument("--league", help="the league's slug (default: every league)")

    def handle(self, *args, league=None, **options):
        leagues = League.objects.order_by("slug")
        if league:
            leagues = leagues.filter(slug=league)
            if not leagues.exists():
                raise CommandError(f'No league with the slug "{league}".')
        for each in leagues:
            started = time.perf_counter()
            report = ratings_recalculate(league=each, progress=self._progress(each))
            self._end_progress()
            self.stdout.write(
                f"{each.slug}: {report.games} games, {report.changes} rating changes "
                f"in {time.perf_counter() - started:.2f} s"
            )

    def _progress(self, league):
        """A progress bar on a terminal; nothing on a pipe or in a log file."""
        if not getattr(self.stdout, "isatty", lambda: False)():
            return None
        out = self.stdout._out if hasattr(self.stdout, "_out") else sys.stdout

        def show(done: int, total: int) -> None:
            width = 30
            filled = width * done // total if total else width
            percent = 100 * done // total if total else 100
            out.write(f"\r{league.slug}: [{'#' * filled}{'.' * (width - filled)}] {percent:3d}%")
            out.flush()

        return show

    def _end_progress(self):
        if getattr(self.stdout, "isatty", lambda: False)():
            self.stdout.write("")
