"""Load the demo store once: a Commander league with 40 players and 300 games (fixed seed).

Run by `make run`; a second run sees the demo organization and does nothing. The organizer
account it creates (demo / guildhall-demo) is for a local demo only, so it is made only when
DEBUG is on: a known password has no place on a public site.
"""

import datetime
import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from leagues import services
from leagues.models import League, Membership, Organization, Role

DEMO_SLUG = "dragons-den"
DEMO_USER = "demo"
DEMO_PASSWORD = "guildhall-demo"
PLAYERS = """Ava Whitfield, Ben Okafor, Chloe Nakamura, Dmitri Volkov, Elena Garcia, Finn O'Brien,
Grace Liu, Hassan Rahimi, Isla McKenzie, Jonah Berg, Kira Patel, Liam Novak, Maya Johansson,
Noah Fischer, Olivia Mensah, Priya Raman, Quinn Dubois, Rafael Costa, Sofia Rossi, Theo Laurent,
Uma Singh, Victor Almeida, Willa Park, Xavier Moreau, Yara Haddad, Zane Kowalski, Amara Eze,
Bruno Schmidt, Cleo Andersson, Diego Morales, Esme Clarke, Felix Wagner, Gia Romano, Hugo Lindqvist,
Ines Ferreira, Jasper Quinn, Kenji Sato, Lena Hoffmann, Marco Bianchi, Nadia Petrova"""
NOTES = [
    "Archenemy night",
    "Went to time; placed by life totals",
    "Precon challenge",
    "Table 3 ran long",
    "Budget decks only",
]


class Command(BaseCommand):
    help = "Load the demo organization, league, players and games (once)."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=20240105)

    @transaction.atomic
    def handle(self, *args, seed: int, **options):
        if Organization.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write("Demo data already loaded.")
            return
        rng = random.Random(seed)
        org = Organization.objects.create(name="Dragon's Den Games", slug=DEMO_SLUG)
        league = League.objects.create(
            organization=org,
            name="Friday Night Commander",
            slug="friday-commander",
            game_label="Commander",
            starts_on=datetime.date(2025, 1, 3),
        )
        League.objects.create(
            organization=org,
            name="Staff Playtest",
            slug="staff-playtest",
            game_label="cEDH",
            is_public=False,
        )
        names = [n.strip() for n in PLAYERS.replace("\n", " ").split(",")]
        players, _ = services.players_get_or_create(organization=org, names=names)
        roster = [players[n.lower()] for n in names]
        # Some players come every week, some now and then: weights make that visible.
        weights = [rng.uniform(0.2, 1.0) for _ in roster]
        skill = {p.pk: rng.gauss(0, 1) for p in roster}
        user = self._demo_user(org) if settings.DEBUG else None
        day = datetime.date(2025, 1, 3)
        games = 0
        while games < 300:
            for _ in range(rng.randint(3, 6)):  # pods on one Friday
                size = rng.choice([3, 4, 4, 4, 2])
                pod: list = []  # a list, not a set: a set's order follows primary keys
                while len(pod) < size:
                    pick = rng.choices(roster, weights)[0]
                    if pick not in pod:
                        pod.append(pick)
                order = sorted(pod, key=lambda p: skill[p.pk] + rng.gauss(0, 1.3), reverse=True)
                places = list(range(1, size + 1))
                if rng.random() < 0.05:  # a draw: everyone shares first
                    places = [1] * size
                results = [
                    services.ResultIn(player=p, place=place, seat=seat)
                    for p, place, seat in zip(
                        order, places, rng.sample(range(1, size + 1), size), strict=True
                    )
                ]
                services.game_record(
                    league=league,
                    results=results,
                    played_on=day,
                    by=user,
                    notes=rng.choice(NOTES) if rng.random() < 0.06 else "",
                )
                games += 1
                if games == 300:
                    break
            day += datetime.timedelta(days=7)
        login = f" Organizer login: {DEMO_USER} / {DEMO_PASSWORD}" if user else ""
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {org}: {len(roster)} players, {games} games in {league}.{login}"
            )
        )

    def _demo_user(self, org):
        user, created = get_user_model().objects.get_or_create(
            username=DEMO_USER, defaults={"is_staff": True, "first_name": "Demo"}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        Membership.objects.get_or_create(organization=org, user=user, defaults={"role": Role.OWNER})
        return user
