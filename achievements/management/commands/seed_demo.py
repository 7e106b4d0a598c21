"""`seed_demo`, with an achievement league: the demo store's Friday Commander league (loaded
by `leagues`' own `seed_demo`, which this command runs first) gets a season of its last
three months, five achievements, points per game and placing, and a season of claims,
confirmations and awards, through the services (so they are in the History too). The same
every time (a fixed seed); a second run sees the demo store and does nothing.

This app comes before `leagues` in INSTALLED_APPS so that its `seed_demo` is the one run
(as `jobs` wraps django-tasks-db's `db_worker`).
"""

import datetime
import random

from django.db import transaction

from leagues.management.commands.seed_demo import DEMO_SLUG
from leagues.management.commands.seed_demo import Command as LeaguesSeedDemo
from leagues.models import Game, League, Organization
from seasons.services import season_create

from ... import services
from ...domain.scoring import FrequencyRefused

ACHIEVEMENTS = [
    # name, points, how often, description
    ("First blood", 1, "night", "The first to deal combat damage to another player that night."),
    ("Knockout", 1, "game", "You took a player out of the game."),
    ("New commander", 3, "season", "Won with a commander you had not played this season."),
    ("Table flip", -1, "night", "Cast a spell that wiped the whole board."),
    ("Archenemy", 2, "game", "Everyone attacked you and you survived the round."),
]


class Command(LeaguesSeedDemo):
    help = LeaguesSeedDemo.help + " With an achievement league."

    @transaction.atomic
    def handle(self, *args, seed: int, **options):
        fresh = not Organization.objects.filter(slug=DEMO_SLUG).exists()
        super().handle(*args, seed=seed, **options)
        if fresh:
            self._achievements(League.objects.get(slug="friday-commander"), seed)

    def _achievements(self, league: League, seed: int) -> None:
        rng = random.Random(seed + 1)
        last = league.games.order_by("-played_on").values_list("played_on", flat=True).first()
        starts = last - datetime.timedelta(days=90)
        season = season_create(league=league, name="Last quarter", starts_on=starts, ends_on=last)
        made = {
            name: services.achievement_save(
                league=league, name=name, points=points, per=per, description=description
            )
            for name, points, per, description in ACHIEVEMENTS
        }
        services.achievement_save(
            league=league,
            name="Archenemy",
            points=2,
            per="game",
            description=ACHIEVEMENTS[-1][3],
            active=False,
            achievement=made["Archenemy"],
        )
        services.scoring_set(league=league, per_game=1, placings=[3, 1])
        games = list(
            Game.objects.filter(league=league, played_on__gte=starts)
            .order_by("played_on", "id")
            .prefetch_related("results__player")
        )
        earned = 0
        for number, game in enumerate(games):
            pod = [r.player for r in sorted(game.results.all(), key=lambda r: r.placement)]
            for name in ("First blood", "Knockout", "New commander", "Table flip"):
                if rng.random() > 0.25:
                    continue
                player = pod[0] if name == "New commander" else rng.choice(pod)
                podmate = rng.choice([p for p in pod if p != player])
                try:
                    claim = (
                        services.award(
                            league=league, player=player, achievement=made[name], game=game
                        )
                        if number % 3
                        else services.claim_submit(game=game, player=player, achievement=made[name])
                    )
                except (FrequencyRefused, services.AlreadyDone, services.RateLimited):
                    continue
                if claim.status == "pending" and number < len(games) - 6:
                    services.claim_confirm(claim=claim, podmate=podmate)
                elif claim.status == "pending" and number == len(games) - 1:
                    services.claim_decline(claim=claim, podmate=podmate)
                earned += 1
        self.stdout.write(
            f"Achievements: {len(made)} in {league}, {earned} earned or claimed in {season}."
        )
