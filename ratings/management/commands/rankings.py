"""Print a league's rankings: a table, CSV, JSON, Guildmaster's own lines, or a terminal UI."""

import csv
import json

from django.core.management.base import BaseCommand, CommandError

from leagues.domain.csvformat import escape_text
from leagues.models import League
from ratings.selectors import format_rating, league_ratings, league_system


class Command(BaseCommand):
    help = "Show a league's rating leaderboard."

    def add_arguments(self, parser):
        parser.add_argument("--league", required=True, help="the league's slug")
        parser.add_argument(
            "--format",
            choices=["table", "csv", "json", "guildmaster"],
            default="table",
            help="csv columns: rank,player,rating,games; guildmaster: 'N --- name --- rating'",
        )
        parser.add_argument(
            "--tui", action="store_true", help="browse in the terminal (arrows scroll, q quits)"
        )

    def handle(self, *args, league, format, tui, **options):
        try:
            chosen = League.objects.get(slug=league)
        except League.DoesNotExist:
            raise CommandError(f'No league with the slug "{league}".') from None
        system = league_system(league=chosen)
        rows = league_ratings(league=chosen, system=system)
        if tui:
            from ratings.tui import browse

            browse(chosen, rows, system)
            return
        shown = [(row, format_rating(row.rating, system)) for row in rows]
        value = (lambda r: int(r.rating)) if system.integer else (lambda r: round(r.rating, 4))
        if format == "csv":
            # CRLF as RFC 4180 (and the games export): the csv module quotes a cell holding a
            # character of the line terminator, so a stray CR in a name cannot split its row.
            writer = csv.writer(self.stdout, lineterminator="\r\n")
            writer.writerow(["rank", "player", "rating", "games"])
            for row, rating in shown:
                # A name like "=cmd()" must not run as a formula in a spreadsheet.
                writer.writerow([row.rank, escape_text(row.name), rating, row.games])
        elif format == "json":
            data = [
                {
                    "rank": row.rank,
                    "player": row.name,
                    "rating": value(row),
                    "games": row.games,
                    "wins": row.wins,
                    "draws": row.draws,
                    "provisional": row.provisional,
                }
                for row, _ in shown
            ]
            self.stdout.write(json.dumps(data, indent=2, ensure_ascii=False))
        elif format == "guildmaster":
            # Guildmaster numbers its lines 1, 2, 3... even where ratings are equal.
            for position, (row, rating) in enumerate(shown, 1):
                self.stdout.write(f"{position} --- {row.name} --- {rating}")
        else:
            width = max([len(row.name) for row, _ in shown] + [6])
            self.stdout.write(f"{'rank':>5}  {'player':<{width}}  {'rating':>8}  {'games':>5}")
            for row, rating in shown:
                rank = f"{row.rank}{'=' if row.tied else ''}"
                flag = " (provisional)" if row.provisional else ""
                self.stdout.write(
                    f"{rank:>5}  {row.name:<{width}}  {rating:>8}  {row.games:>5}{flag}"
                )
