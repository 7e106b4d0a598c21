"""`seed_event --players N --format {pods,1v1} --rounds-played K [--slug SLUG] [--seed S]`.

Makes a demo event anyone can load: in the demo store ("Dragon's Den Games", loaded by
`seed_demo` when missing) and its public league, an event of N players with K Swiss rounds
played with random results (reproducible from `--seed`) and the next round paired and open.
It goes through the same services a TO's taps do (pair, report each table, end the round;
the entries are inserted at once, as registering before round 1 would make them), so the
league games, rating ledger, audit lines and standings are what a real event leaves. The
whole event is one transaction, so an error leaves nothing behind. A slug that is taken is
refused unless `--replace`, which first deletes that event and the league games it made.
"""

import random
import time

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from leagues import services as league_services
from leagues.management.commands.seed_demo import DEMO_SLUG
from leagues.models import Game, League, Organization
from tournaments.models import Entry, Round, Table, Tournament

from ...formats import FORMATS
from ...selectors import suggested_structure
from ...services.events import tournament_create
from ...services.results import table_report
from ...services.rounds import round_end, round_pair

DEMO_LEAGUE = "friday-commander"
# Chance that a table is a draw: Magic matches draw now and then, cEDH pods more often.
DRAWS = {"1v1": 0.05, "pods": 0.15}


def demo_league(stdout) -> League:
    """The demo store's public league, loading the demo store first when it is missing."""
    if not Organization.objects.filter(slug=DEMO_SLUG).exists():
        call_command("seed_demo", stdout=stdout)
    league = League.objects.filter(
        organization__slug=DEMO_SLUG, slug=DEMO_LEAGUE, is_public=True
    ).first()
    if league is None:
        raise CommandError(
            f"The demo store has no public league {DEMO_LEAGUE!r}: it was changed by hand."
        )
    return league


def event_delete(event: Tournament) -> int:
    """Delete a seeded event and the league games its tables made (each logged, as the
    admin's bulk delete does); returns how many games went."""
    games = list(
        Game.objects.filter(
            pk__in=Table.objects.filter(round__tournament=event).exclude(game=None).values("game")
        )
    )
    deleted = league_services.games_delete(games=games, via="seed_event --replace")
    event.delete()
    return deleted


def play_round(round_: Round, rng: random.Random, draw_chance: float) -> None:
    """Report every table of a round with a random result, then end it."""
    tables = list(
        round_.tables.filter(reported=False).prefetch_related("seats__entry").order_by("number")
    )
    for table in tables:
        entries = [seat.entry for seat in sorted(table.seats.all(), key=lambda s: s.position)]
        if rng.random() < draw_chance:
            table_report(table=table, draw=True)
        else:
            table_report(table=table, winner=rng.choice(entries))
    round_end(round_=round_)


class Command(BaseCommand):
    help = "Create a demo event with some rounds played at random and the next round open."

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, metavar="N")
        parser.add_argument("--format", choices=["pods", "1v1"], required=True)
        parser.add_argument("--rounds-played", type=int, required=True, metavar="K")
        parser.add_argument(
            "--slug", default=None, help="the event's address (default demo-FORMAT-N)"
        )
        parser.add_argument("--seed", type=int, default=0, metavar="S")
        parser.add_argument(
            "--replace", action="store_true", help="delete an event with that slug first"
        )

    def handle(self, *args, **options):
        players, played = options["players"], options["rounds_played"]
        format = options["format"]
        fewest = FORMATS[format].fewest_players
        if players < fewest:
            raise CommandError(f"--players must be at least {fewest} for {format}.")
        if played < 0:
            raise CommandError("--rounds-played must be 0 or more.")
        slug = options["slug"] or f"demo-{format}-{players}"
        started = time.perf_counter()
        with transaction.atomic():
            event = self.build(players, format, played, slug, options)
        seconds = time.perf_counter() - started
        self.stdout.write(
            self.style.SUCCESS(
                f"{event.name}: {players} players, {played} round{'' if played == 1 else 's'} "
                f"played, round {played + 1} paired and open, at /events/{event.slug}/ "
                f"({seconds:.1f} s)."
            )
        )

    def build(self, players, format, played, slug, options) -> Tournament:
        league = demo_league(self.stdout)
        existing = Tournament.objects.filter(slug=slug).first()
        if existing is not None:
            if not options["replace"]:
                raise CommandError(
                    f"An event with the slug {slug!r} exists already ({existing.name}); "
                    "choose another --slug, or add --replace to delete it and make it anew."
                )
            gone = event_delete(existing)
            self.stderr.write(f"Deleted {existing.name} and its {gone} league games.")
        name = f"Demo {FORMATS[format].short_name} {players} ({slug})"
        event = tournament_create(league=league, name=name, format=format)
        planned = suggested_structure(event, players)[0]
        if played + 1 > planned:
            raise CommandError(
                f"{players} players play {planned} Swiss rounds: --rounds-played must be at "
                f"most {planned - 1} so that the next round can be paired."
            )
        rng = random.Random(options["seed"])
        event.slug = slug
        event.seed = options["seed"]  # the pairings follow --seed too
        event.save(update_fields=["slug", "seed"])
        names = [f"Demo Player {n:03d}" for n in range(1, players + 1)]
        found, _ = league_services.players_get_or_create(
            organization=league.organization, names=names
        )
        # What entry_register writes for an event that has not started (joined in round 1),
        # in one INSERT rather than one locked call per player.
        Entry.objects.bulk_create(
            Entry(tournament=event, player=found[name_.lower()], joined_round=1) for name_ in names
        )
        for _ in range(played):
            round_ = round_pair(tournament=event)
            play_round(round_, rng, DRAWS[format])
        round_pair(tournament=event)
        event.refresh_from_db()
        return event
