"""factory-boy factories for every model. `GameFactory` makes a valid game (2 players by default).

Games must be valid at commit (PostgreSQL checks at least two players and a competition
ranking), so GameFactory adds results after creating the game:
`GameFactory(players=[a, b, c])` for a finishing order, `GameFactory(players__places=[1, 1])`
for a draw, `GameFactory(players__n=4)` for four new players.
"""

import datetime

import factory
from django.contrib.auth import get_user_model
from django.db import transaction

from leagues.models import Game, GameResult, League, Membership, Organization, Player, Role


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    password = factory.PostGenerationMethodCall("set_password", "correct-horse-battery")

    @factory.post_generation
    def saved(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class OrganizationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organization

    name = factory.Sequence(lambda n: f"Dragon's Den {n}")
    slug = factory.Sequence(lambda n: f"store-{n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    organization = factory.SubFactory(OrganizationFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.ORGANIZER


def organizer_of(organization, role=Role.ORGANIZER, **user_fields):
    """A user who is `role` of `organization` (staff, so the admin is open to them)."""
    user = UserFactory(is_staff=True, **user_fields)
    MembershipFactory(organization=organization, user=user, role=role)
    return user


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    organization = factory.SubFactory(OrganizationFactory)
    name = factory.Sequence(lambda n: f"Player {n}")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League

    organization = factory.SubFactory(OrganizationFactory)
    name = factory.Sequence(lambda n: f"Commander League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    game_label = "Commander"
    is_public = True


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Game
        skip_postgeneration_save = True

    league = factory.SubFactory(LeagueFactory)
    played_on = factory.Sequence(lambda n: datetime.date(2024, 1, 1) + datetime.timedelta(days=n))

    @classmethod
    def create(cls, **kwargs):
        # One transaction for the game and its results: the ranking trigger checks at commit,
        # and tests with transaction=True (live server) run in autocommit.
        with transaction.atomic():
            return super().create(**kwargs)

    @factory.post_generation
    def players(game, create, extracted, n=2, places=None, **kwargs):
        """Results in finishing order: players=[...] (Player objects), or n new players."""
        players = list(extracted) if extracted else None
        if players is None:
            count = len(places) if places else n
            players = PlayerFactory.create_batch(count, organization=game.league.organization)
        places = places or list(range(1, len(players) + 1))
        rows = [
            GameResult(game=game, player=p, placement=place)
            for p, place in zip(players, places, strict=True)
        ]
        if create:
            GameResult.objects.bulk_create(rows)


class GameResultFactory(factory.django.DjangoModelFactory):
    """A single result row; only for building (`.build()`) or adding to an existing game."""

    class Meta:
        model = GameResult

    game = factory.SubFactory(GameFactory)
    player = factory.SubFactory(
        PlayerFactory, organization=factory.SelfAttribute("..game.league.organization")
    )
    placement = 1


class TournamentFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.Tournament"

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Friday Swiss {n}")
    slug = factory.Sequence(lambda n: f"swiss-{n}")
    date = datetime.date(2026, 11, 20)
    seed = factory.Sequence(lambda n: 1000 + n)

    class Params:
        # A Commander / cEDH pod event: TournamentFactory(pods=True), cEDH points 5/1/0.
        pods = factory.Trait(format="pods", points_win=5, points_draw=1, points_bye=5)
