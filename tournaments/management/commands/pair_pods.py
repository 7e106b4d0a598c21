"""`pair_pods [--input FILE]`: one round of pods over the cEDH matching protocol.

Reads one JSON request on standard input (or FILE), writes one JSON response on standard
output and nothing on standard error; on a bad request it writes one line `error: <message>`
on standard error, nothing on standard output, and exits with status 1. The protocol's
reference web interface takes anything on standard error for a failure, so success is silent
there. The checking and the pairing are `tournaments.domain.protocol`; this is only the shell.
"""

import argparse
import json
import sys
from dataclasses import fields

from django.core.management.base import BaseCommand, DjangoHelpFormatter

from tournaments.domain.pods import LAYOUTS, PodPairingError, PodWeights
from tournaments.domain.protocol import (
    FOREIGN_WEIGHTS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MAX_TABLE,
    ProtocolError,
    parse_request,
    request_text,
    respond,
)

_DEFAULT_WEIGHTS = ", ".join(f'"{f.name}": {f.default:g}' for f in fields(PodWeights))
HELP = f"""Pair the next round into pods, speaking the cEDH matching protocol
(https://github.com/RememberOfLife/cedh_matching).

Request (one JSON object on stdin):
  {{"players": [ids], "rounds": [[{{"players": [ids], "winner": id or 0}}, ...], ...]}}
  players   the active ids (whole numbers from 1); a player missing here has dropped
  rounds    every earlier round, tables in seat order; winner 0 is a draw (everyone at the
            pod drew); a bye is a table of one player who is its winner
  weights   optional, numbers from 0 to 1e9; the defaults:
            {{{_DEFAULT_WEIGHTS}}};
            cedh_matching's {", ".join(FOREIGN_WEIGHTS)} are accepted and ignored
  layout    optional: {" | ".join(LAYOUTS)} (default threes)
  seed      optional: a whole number (default 0); the same request gives the same pods
  planned_rounds  optional: the event's planned number of rounds (a whole number from 1);
            with it the pairer knows the last round, which looks no round ahead
  Other keys are ignored; null counts as absent. Standings: 3 points a win or a bye,
  1 a draw, 0 a loss, then by id.
  Limits: {MAX_PLAYERS} players, {MAX_ROUNDS} rounds, {MAX_TABLE} players at an earlier table.

Response (one line of JSON on stdout), in table order, a bye being a table of one:
  {{"placements": [{{"players": [ids in seat order]}}, ...]}}

A bad request writes `error: <where>: <what>` as one line on stderr, nothing on stdout,
and exits with status 1."""


class _HelpFormatter(DjangoHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Django's argument order, with the description's lines kept as written."""


class Command(BaseCommand):
    help = HELP
    # No database and no models: skip the system checks, which could write warnings to stderr.
    requires_system_checks = []

    def create_parser(self, prog_name, subcommand, **kwargs):
        kwargs.setdefault("formatter_class", _HelpFormatter)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def add_arguments(self, parser):
        parser.add_argument(
            "--input", "-i", metavar="FILE", help="read the request from FILE, not stdin"
        )

    def handle(self, *args, **options):
        try:
            response = respond(parse_request(request_text(self._read(options["input"]))))
        except (ProtocolError, PodPairingError) as error:
            self._fail(str(error))
        except Exception as error:  # never a traceback on the protocol's stderr
            if options["traceback"]:
                raise
            self._fail(f"internal error: {type(error).__name__}: {error}")
        self.stdout.write(json.dumps(response, separators=(",", ":")), ending="\n")

    def _read(self, path: str | None) -> bytes:
        if path is None:
            return sys.stdin.buffer.read()
        try:
            with open(path, "rb") as source:
                return source.read()
        except OSError as error:
            raise ProtocolError(
                "--input", f"cannot read {path}: {error.strerror or error}"
            ) from None

    def _fail(self, message: str):
        line = " ".join(message.split())  # one line, whatever the message held
        self.stderr.write(f"error: {line}", style_func=lambda text: text)
        sys.exit(1)
