"""`export_organization --organization SLUG [--output FILE]`: an organization as one JSON file.

Everything people entered (players, leagues and their rating settings, games, tournaments),
in the format docs/operations.md describes ("The organization export format");
`import_organization` reads it into another site. The rating ledger is not written (the
import replays it), nor API tokens or user accounts.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from exchange.services import organization_export
from leagues.models import Organization


class Command(BaseCommand):
    help = "Export an organization's data as JSON (to standard output or --output)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--organization", required=True, metavar="SLUG", help="the organization"
        )
        parser.add_argument(
            "--output", "-o", metavar="FILE", help="write here instead of standard output"
        )

    def handle(self, *args, **options):
        slug = options["organization"]
        try:
            organization = Organization.objects.get(slug=slug)
        except Organization.DoesNotExist:
            raise CommandError(f'There is no organization with the slug "{slug}".') from None
        text = (
            json.dumps(organization_export(organization=organization), indent=2, ensure_ascii=False)
            + "\n"
        )
        if not options["output"]:
            self.stdout.write(text, ending="")
            return
        try:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as error:
            raise CommandError(
                f"Cannot write {options['output']}: {error.strerror or error}"
            ) from None
