"""`import_games PATH --league SLUG [--skip-invalid] [--repeated-names guildmaster]
[--organization SLUG --rating-system NAME]`.

Imports a Guildmaster CSV into a league; with --organization, a league that does not exist
yet is created in that organization (rated with --rating-system, by default the registry's
DEFAULT_SYSTEM), in the same transaction as the import, so a refused import leaves no empty
league behind.

All or nothing by default: when any row is bad every problem is printed with its line number
and nothing is written. `--skip-invalid` imports the valid rows and lists the skipped ones.
`--repeated-names guildmaster` imports a row that names a player twice as Guildmaster rates it
(each column a seat; the player keeps their last seat's rating) instead of refusing it, so a
file Guildmaster has scored gives its rankings. PATH may be "-" to read standard input. The
work is done by `services.games_import`, then the ratings are caught up in the same
transaction; progress goes to stderr (a bar on a terminal).
It lives in the ratings app because it rates what it imports (leagues knows no ratings).
"""

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from jobs.progress import CommandProgress
from leagues import services
from leagues.domain.csvformat import (
    REPEATED_NAMES,
    REPEATS_REFUSE,
    UndecodableFile,
    decode_upload,
)
from leagues.models import League, Organization
from ratings.domain.base import ParamError
from ratings.domain.registry import DEFAULT_SYSTEM, SYSTEMS
from ratings.services import rating_settings_read, rating_system_set, ratings_catch_up


class Command(BaseCommand):
    help = "Import games from a Guildmaster CSV file (PATH, or - for standard input)."

    def add_arguments(self, parser):
        parser.add_argument("path", metavar="PATH", help='the CSV file, or "-" for standard input')
        parser.add_argument(
            "--league", required=True, metavar="SLUG", help="the league to import into"
        )
        parser.add_argument(
            "--organization",
            metavar="SLUG",
            help="create the league in this organization when it does not exist yet",
        )
        parser.add_argument(
            "--rating-system",
            metavar="NAME",
            help=f"the new league's rating system ({', '.join(SYSTEMS)}; default "
            f"{DEFAULT_SYSTEM}); for an existing league it must be the one the league uses",
        )
        parser.add_argument(
            "--skip-invalid",
            action="store_true",
            help="import the valid rows and skip bad or already imported ones (listed)",
        )
        parser.add_argument(
            "--repeated-names",
            choices=REPEATED_NAMES,
            default=REPEATS_REFUSE,
            help="a row that names a player twice: refuse it (default), or rate it as "
            "Guildmaster does (each column a seat, the player keeping their last seat's rating)",
        )

    def handle(self, *args, **options):
        data, filename = self.read(options["path"])
        try:
            text, warning = decode_upload(data)
        except UndecodableFile as error:
            raise CommandError(f"{filename}: {error}") from None
        if warning:
            self.stderr.write(f"Warning: {warning}")
        with transaction.atomic():
            league = self.league(options)
            report = self.import_into(league, text, filename, options)
            self.rate(league)
        self.summary(league, report)

    def rate(self, league: League) -> None:
        """Rate the imported games here, whatever their number: a command has no timeout, and
        it ends with the standings true (a web import leaves big catch-ups to a job)."""
        progress = CommandProgress(self.stderr, f"{league.slug}: rating")
        try:
            ratings_catch_up(league_id=league.pk, progress=progress)
        finally:
            progress.close()

    def import_into(self, league, text, filename, options) -> services.ImportReport:
        progress = CommandProgress(self.stderr, f"{league.slug}: importing")
        try:
            report = services.games_import(
                league=league,
                text=text,
                filename=filename,
                skip_invalid=options["skip_invalid"],
                progress=progress,
                repeated_names=options["repeated_names"],
            )
        except services.ImportRefused as refused:
            for problem in refused.plan.problems:
                self.stderr.write(str(problem))
            hint = ""
            if refused.plan.games and not options["skip_invalid"]:
                hint = " (--skip-invalid imports only the valid rows.)"
            raise CommandError(f"Nothing was imported. {refused}{hint}") from None
        except services.LeagueError as error:
            raise CommandError(str(error)) from None
        finally:
            progress.close()
        return report

    def league(self, options) -> League:
        """The league to import into, created when --organization says where."""
        slug, system = options["league"], options["rating_system"]
        league = League.objects.select_related("organization").filter(slug=slug).first()
        if league is not None:
            current = rating_settings_read(league=league).system
            if system and system != current:
                raise CommandError(
                    f'League "{slug}" is rated with {current}, not {system}; change its rating '
                    "system on the league's rating settings page (that re-rates every game)."
                )
            return league
        org_slug = options["organization"]
        if not org_slug:
            raise CommandError(
                f'There is no league with the slug "{slug}" (give --organization to create it).'
            )
        organization = Organization.objects.filter(slug=org_slug).first()
        if organization is None:
            raise CommandError(f'There is no organization with the slug "{org_slug}".')
        league = League.objects.create(
            organization=organization, name=slug.replace("-", " ").title(), slug=slug
        )
        try:
            rating_system_set(league=league, system=system or DEFAULT_SYSTEM)
        except ParamError as error:
            raise CommandError(f"--rating-system: {error.message}") from None
        self.stdout.write(f'Created league "{league.name}" ({slug}) in {organization}.')
        return league

    def read(self, path: str) -> tuple[bytes, str]:
        if path == "-":
            return sys.stdin.buffer.read(), "stdin"
        try:
            return Path(path).read_bytes(), Path(path).name
        except OSError as error:
            raise CommandError(f"Cannot read {path}: {error.strerror or error}") from None

    def summary(self, league: League, report: services.ImportReport) -> None:
        count = report.games
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {count} game{'s' if count != 1 else ''} into {league} ({league.slug})."
            )
        )
        created = sorted(report.players_created, key=str.lower)
        if created:
            self.stdout.write(f"New players ({len(created)}): {', '.join(created)}")
        else:
            self.stdout.write("New players: none.")
        lines = sorted({p.line for p in report.skipped})
        if lines:
            self.stdout.write(
                f"Skipped {len(lines)} row{'s' if len(lines) != 1 else ''} "
                f"(line{'s' if len(lines) != 1 else ''} {', '.join(map(str, lines))}):"
            )
            for problem in report.skipped:
                self.stdout.write(f"  {problem}")
        plan = report.plan
        if plan is not None and plan.parsed.header_line is not None:
            self.stdout.write(f"Line {plan.parsed.header_line} was read as a header row.")
        for warning in plan.parsed.warnings if plan is not None else []:
            self.stderr.write(f"Warning: {warning}")
