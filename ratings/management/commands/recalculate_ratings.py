"""Rebuild rating ledgers from the games: one league, or every league.

Progress goes to stderr: a bar on a terminal, a plain line at each tenth otherwise.
"""

import time

from django.core.management.base import BaseCommand, CommandError

from jobs.progress import CommandProgress
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
            progress = CommandProgress(self.stderr, f"{each.slug}: re-rating")
            try:
                report = ratings_recalculate(league=each, progress=progress)
            finally:
                progress.close()
            self.stdout.write(
                f"{each.slug}: {report.games} games, {report.changes} rating changes "
                f"in {time.perf_counter() - started:.2f} s"
            )
