"""`import_organization FILE`: create an organization from an `export_organization` file.

Refuses when the site already has the organization (or one of its league or event slugs);
all or nothing, in one transaction: on bad input the message names the JSON path of the
problem (`$.leagues[0].games[3].results[1].player: ...`), the exit status is non-zero and
nothing is written. After the import every league's ratings are replayed from its games.
FILE may be "-" to read standard input. Progress goes to stderr (a bar on a terminal, plain
lines otherwise). There is no page for this import, so it runs in the command, not as a job.
"""

import json
import sys

from django.core.management.base import BaseCommand, CommandError

from exchange.services import ExchangeError, organization_import
from jobs.progress import CommandProgress


class Command(BaseCommand):
    help = "Import an organization exported with export_organization (FILE, or - for stdin)."

    def add_arguments(self, parser):
        parser.add_argument("path", metavar="FILE", help='the JSON file, or "-" for standard input')

    def handle(self, *args, **options):
        path = options["path"]
        try:
            if path == "-":
                text = sys.stdin.buffer.read().decode("utf-8")
            else:
                with open(path, encoding="utf-8") as source:
                    text = source.read()
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or error
            raise CommandError(f"Cannot read {path}: {reason}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CommandError(
                f"{path} is not JSON: {error.msg} (line {error.lineno}, column {error.colno})"
            ) from None
        except RecursionError:
            raise CommandError(f"{path} is not JSON that can be read: nested too deeply") from None
        except ValueError as error:  # a number of thousands of digits
            raise CommandError(f"{path} is not JSON that can be read: {str(error)[:80]}") from None
        bars: dict[str, CommandProgress] = {}

        def progress(step: str, done: int, total: int) -> None:
            if step not in bars:
                for bar in bars.values():
                    bar.close()
                label = "reading leagues" if step == "leagues" else f"{step}: rating"
                bars[step] = CommandProgress(self.stderr, label)
            bars[step](done, total)

        try:
            report = organization_import(data=data, progress=progress)
        except ExchangeError as error:
            raise CommandError(f"Nothing imported. {error}") from None
        finally:
            for bar in bars.values():
                bar.close()
        self.stdout.write(
            f'Imported "{report.organization.slug}": {report.players} players, '
            f"{report.leagues} leagues, {report.games} games, {report.tournaments} tournaments; "
            "ratings replayed."
        )
