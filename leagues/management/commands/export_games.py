"""`export_games --league SLUG [--output FILE]`: write a league's games as a Guildmaster CSV.

Games come in rating order (date, then entry). Shared places, seats, per-player stats and
notes use Guildhall's small extension (see leagues/domain/csvformat.py), so importing the
file into an empty league reproduces the games exactly. Lines end in CRLF as Guildmaster's do.
"""

from django.core.management.base import BaseCommand, CommandError

from leagues import selectors, services
from leagues.domain.csvformat import write_games_csv
from leagues.models import League


class Command(BaseCommand):
    help = "Export a league's games as a Guildmaster CSV (to standard output or --output)."

    def add_arguments(self, parser):
        parser.add_argument("--league", required=True, metavar="SLUG", help="the league")
        parser.add_argument(
            "--output", "-o", metavar="FILE", help="write here instead of standard output"
        )

    def handle(self, *args, **options):
        slug = options["league"]
        try:
            league = League.objects.get(slug=slug)
        except League.DoesNotExist:
            raise CommandError(f'There is no league with the slug "{slug}".') from None
        games = selectors.league_games_in_rating_order(league=league)
        text = write_games_csv(services.games_as_csv_games(games))
        if options["output"]:
            try:
                with open(options["output"], "w", encoding="utf-8", newline="") as out:
                    out.write(text)
            except OSError as error:
                raise CommandError(
                    f"Cannot write {options['output']}: {error.strerror or error}"
                ) from None
            return
        # Bytes to a real stdout, so no newline translation touches the CRLF line ends.
        buffer = getattr(self.stdout, "buffer", None)
        if buffer is not None:
            self.stdout.flush()
            buffer.write(text.encode("utf-8"))
            buffer.flush()
        else:
            self.stdout.write(text, ending="")
