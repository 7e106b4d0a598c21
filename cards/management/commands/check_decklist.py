"""`check_decklist --format FORMAT FILE [--json] [--commander NAME]`: every problem of a
decklist (MTGO, Arena or plain text) in FORMAT, each with its line and rule, checked against
the loaded card data. Exit status: 0 legal, 1 not legal, 2 a usage error (no card data, an
unknown format, a file that cannot be read)."""

import json

from django.core.management.base import BaseCommand, CommandError

from ...decks import decklist_check
from ...domain.legality import FORMATS, RULES
from ...selectors import cards_loaded

MAX_FILE_CHARS = 200_000


class Command(BaseCommand):
    help = "Check a decklist against the card data; exit 1 when it is not legal."

    def add_arguments(self, parser):
        parser.add_argument("file", help="The decklist, as text (- for standard input).")
        parser.add_argument("--format", required=True, choices=FORMATS, dest="fmt")
        parser.add_argument("--json", action="store_true", help="Print the report as JSON.")
        parser.add_argument(
            "--commander",
            action="append",
            default=[],
            help="A commander, when the list has no Commander section (twice for partners).",
        )

    def handle(self, *args, file: str, fmt: str, json: bool, commander: list[str], **options):
        if not cards_loaded():
            raise CommandError(
                "No card data: run `manage.py load_cards FILE_OR_URL` first.", returncode=2
            )
        text = self._read(file)
        report = decklist_check(text=text, fmt=fmt, commanders=commander, max_chars=MAX_FILE_CHARS)
        if json:
            self.stdout.write(_json(report))
        else:
            for problem in report.problems:
                where = f"line {problem.line}" if problem.line else "the list"
                self.stdout.write(f"{where}: [{problem.rule}] {problem.message}")
            verdict = "legal" if report.legal else f"not legal ({len(report.problems)} problems)"
            self.stdout.write(f"{file}: {report.size} cards, {fmt}: {verdict}.")
        if not report.legal:
            raise SystemExit(1)

    def _read(self, file: str) -> str:
        import sys

        try:
            if file == "-":
                return sys.stdin.read(MAX_FILE_CHARS + 1)
            with open(file, encoding="utf-8") as handle:
                return handle.read(MAX_FILE_CHARS + 1)
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {file}: {error}", returncode=2) from None


def _json(report) -> str:
    return json.dumps(
        {
            "format": report.format,
            "legal": report.legal,
            "size": report.size,
            "sideboard_size": report.sideboard_size,
            "color_identity": report.color_identity,
            "commanders": [card.name for card in report.commanders],
            "problems": [
                {**problem.as_dict(), "rule_text": RULES.get(problem.rule, "")}
                for problem in report.problems
            ],
            "cards": [
                {
                    "oracle_id": c.card.oracle_id,
                    "name": c.card.name,
                    "count": c.count,
                    "section": c.section,
                }
                for c in report.cards
            ],
        },
        ensure_ascii=False,
        indent=2,
    )
