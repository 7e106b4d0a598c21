"""`simulate_tournament --players N [--format 1v1] [--rounds R] [--seed S] --output FILE.json`.

Runs a whole Swiss event with random results through the pairing engine (no database) and
writes it as JSON: `{"players": [ids], "rounds": [[{"players": [...], "winner": id or 0}]]}`,
a bye being a table of one player. `--output -` writes to standard output.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.domain.simulate import FORMATS, simulate


class Command(BaseCommand):
    help = "Simulate a Swiss event with random results and write it as JSON."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, metavar="N")
        parser.add_argument("--format", choices=FORMATS, default="1v1")
        parser.add_argument(
            "--rounds", type=int, default=None, metavar="R", help="default: ceil(log2 N)"
        )
        parser.add_argument("--seed", type=int, default=0, metavar="S")
        parser.add_argument(
            "--draw-probability",
            type=float,
            default=None,
            metavar="P",
            help="default 0.05 for 1v1, 0.2 for pods",
        )
        parser.add_argument(
            "--output", "-o", required=True, metavar="FILE", help="a .json file, or - for stdout"
        )

    def handle(self, *args, **options):
        if options["players"] < 2:
            raise CommandError("--players must be at least 2.")
        try:
            event = simulate(
                players=options["players"],
                rounds=options["rounds"],
                seed=options["seed"],
                format=options["format"],
                draw_probability=options["draw_probability"],
            )
        except ValueError as error:
            raise CommandError(str(error)) from None
        text = json.dumps(event, separators=(",", ":")) + "\n"
        if options["output"] == "-":
            self.stdout.write(text, ending="")
            return
        try:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text)
        except OSError as error:
            raise CommandError(
                f"Cannot write {options['output']}: {error.strerror or error}"
            ) from None
        rounds = len(event["rounds"])
        self.stderr.write(
            f"{options['players']} players, {rounds} rounds written to {options['output']}."
        )
