"""Claims, confirmations and awards through the services, on PostgreSQL."""

import datetime

import pytest
from django.db import IntegrityError, transaction
from django.utils import translation

from achievements import services
from achievements.domain.scoring import AchievementError, FrequencyRefused
from achievements.models import Claim
from audit.models import AuditEntry
from leagues.models import Game
from seasons.services import season_create
from tests.factories import GameFactory

from .conftest import FRIDAY

pytestmark = pytest.mark.django_db


def test_a_claim_confirmed_by_a_podmate_counts(pod):
    ann, bob = pod.players[:2]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game, by=ann.user)
    assert (claim.status, claim.night, claim.source) == ("pending", FRIDAY, "claim")
    confirmed = services.claim_confirm(claim=claim, podmate=bob, by=bob.user)
    assert (confirmed.status, confirmed.answered_by) == ("confirmed", bob)
    actions = list(
        AuditEntry.objects.filter(league=pod.league, object_type="claim")
        .order_by("pk")
        .values_list("action", "summary")
    )
    assert actions == [
        ("achievement.claim", "Ann claimed Knockout (2) in the game of Fri 20 Nov"),
        ("achievement.confirm", "Bob confirmed Ann's Knockout"),
    ]


def test_a_claim_is_not_confirmed_by_its_claimer(pod):
    ann = pod.players[0]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    with pytest.raises(AchievementError) as error:
        services.claim_confirm(claim=claim, podmate=ann)
    assert error.value.code == "own_claim"
    claim.refresh_from_db()
    assert claim.status == "pending"


def test_only_a_player_of_the_game_confirms(pod):
    ann = pod.players[0]
    outsider = type(ann).objects.create(organization=ann.organization, name="Eve")
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    with pytest.raises(AchievementError) as error:
        services.claim_confirm(claim=claim, podmate=outsider)
    assert error.value.code == "not_podmate"


def test_only_a_player_of_the_game_claims(pod):
    outsider = type(pod.players[0]).objects.create(organization=pod.league.organization, name="Eve")
    with pytest.raises(AchievementError) as error:
        services.claim_submit(game=pod.game, player=outsider, achievement=pod.per_game)
    assert error.value.code == "not_in_game"
    assert not Claim.objects.exists()


def test_a_double_tap_claims_once(pod):
    ann = pod.players[0]
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    with pytest.raises(services.AlreadyDone, match="You already claimed Knockout"):
        services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    assert Claim.objects.count() == 1


def test_a_double_confirm_is_said_once(pod):
    ann, bob, cy = pod.players[:3]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    services.claim_confirm(claim=claim, podmate=bob)
    with pytest.raises(services.AlreadyDone):
        services.claim_confirm(claim=claim, podmate=bob)
    # Another podmate arriving late is told who confirmed it, nothing changes.
    with pytest.raises(services.ClaimClosed, match="confirmed by Bob"):
        services.claim_confirm(claim=claim, podmate=cy)
    assert AuditEntry.objects.filter(action="achievement.confirm").count() == 1


def test_the_database_keeps_one_live_claim_per_game(pod):
    ann = pod.players[0]
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    with pytest.raises(IntegrityError), transaction.atomic():
        Claim.objects.create(
            achievement=pod.per_game, player=ann, game=pod.game, night=FRIDAY, status="confirmed"
        )


def test_once_per_night_is_refused_in_a_second_game_that_night(pod):
    ann, bob, cy, dee = pod.players
    second = GameFactory(league=pod.league, played_on=FRIDAY, players=[bob, ann, cy])
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_night)
    with pytest.raises(FrequencyRefused) as error:
        services.claim_submit(game=second, player=ann, achievement=pod.per_night)
    assert error.value.message == (
        "First blood is earned once per night: Ann already holds it for the game of Fri 20 Nov."
    )
    assert error.value.status == 409
    # Once per game: the second game is free.
    services.claim_submit(game=second, player=ann, achievement=pod.per_game)
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    # The next night is free for "once per night".
    saturday = GameFactory(
        league=pod.league, played_on=FRIDAY + datetime.timedelta(days=1), players=[ann, dee]
    )
    services.claim_submit(game=saturday, player=ann, achievement=pod.per_night)


def test_once_per_season_follows_the_seasons_dates(pod):
    ann, bob = pod.players[:2]
    season_create(
        league=pod.league,
        name="Winter",
        starts_on=datetime.date(2026, 11, 1),
        ends_on=datetime.date(2026, 11, 30),
    )
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_season)
    later = GameFactory(
        league=pod.league, played_on=datetime.date(2026, 11, 27), players=[ann, bob]
    )
    with pytest.raises(FrequencyRefused, match="once per season"):
        services.claim_submit(game=later, player=ann, achievement=pod.per_season)
    december = GameFactory(
        league=pod.league, played_on=datetime.date(2026, 12, 4), players=[ann, bob]
    )
    services.claim_submit(game=december, player=ann, achievement=pod.per_season)


def test_a_withdrawn_or_refused_claim_frees_its_period(pod):
    ann, bob = pod.players[:2]
    second = GameFactory(league=pod.league, played_on=FRIDAY, players=[ann, bob])
    first = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_night)
    services.claim_withdraw(claim=first, player=ann)
    again = services.claim_submit(game=second, player=ann, achievement=pod.per_night)
    services.claim_settle(claim=again, accept=False)
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_night)


def test_claims_are_rate_limited_per_player(pod, monkeypatch):
    monkeypatch.setattr(services, "CLAIM_LIMIT", 2)
    ann, bob = pod.players[:2]
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    services.claim_submit(game=pod.game, player=ann, achievement=pod.per_night)
    with pytest.raises(services.RateLimited) as error:
        services.claim_submit(game=pod.game, player=ann, achievement=pod.per_season)
    assert error.value.status == 429
    assert "2 claims from you in 10 minutes" in error.value.message
    # Another player is not limited by Ann's claims.
    services.claim_submit(game=pod.game, player=bob, achievement=pod.per_game)


def test_a_declined_claim_is_settled_by_the_organizer(pod):
    ann, bob, cy = pod.players[:3]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    services.claim_decline(claim=claim, podmate=bob)
    claim.refresh_from_db()
    assert (claim.status, claim.answered_by) == ("disputed", bob)
    # Once disputed, another podmate's confirmation does not override it.
    with pytest.raises(services.ClaimClosed):
        services.claim_confirm(claim=claim, podmate=cy)
    settled = services.claim_settle(claim=claim, accept=True, by=pod.organizer)
    assert (settled.status, settled.decided_by) == ("confirmed", pod.organizer)
    with pytest.raises(services.AlreadyDone, match="It already counts"):
        services.claim_settle(claim=claim, accept=True, by=pod.organizer)
    # Its claimer cannot take it back now: a sentence of its own, not "It is %(status)s".
    with pytest.raises(services.ClaimClosed, match="It is confirmed: ask the organizer"):
        services.claim_withdraw(claim=claim, player=claim.player)
    with translation.override("de"), pytest.raises(services.AlreadyDone, match="Er zählt schon"):
        services.claim_settle(claim=claim, accept=True, by=pod.organizer)
    assert AuditEntry.objects.filter(action="achievement.settle").get().actor == pod.organizer


def test_an_award_counts_at_once_and_keeps_the_rule(pod):
    ann = pod.players[0]
    claim = services.award(
        league=pod.league, player=ann, achievement=pod.per_night, night=FRIDAY, by=pod.organizer
    )
    assert (claim.status, claim.source, claim.game) == ("confirmed", "award", None)
    with pytest.raises(FrequencyRefused, match="once per night"):
        services.claim_submit(game=pod.game, player=ann, achievement=pod.per_night)
    with pytest.raises(AchievementError) as error:
        services.award(league=pod.league, player=ann, achievement=pod.per_game, night=FRIDAY)
    assert error.value.field == "game"


def test_an_award_over_a_waiting_claim_accepts_it(pod):
    ann = pod.players[0]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    awarded = services.award(
        league=pod.league, player=ann, achievement=pod.per_game, game=pod.game, by=pod.organizer
    )
    assert awarded.pk == claim.pk and awarded.status == "confirmed"
    with pytest.raises(services.AlreadyDone):
        services.award(league=pod.league, player=ann, achievement=pod.per_game, game=pod.game)
    assert Claim.objects.count() == 1


def test_a_retired_achievement_is_not_claimed(pod):
    ann = pod.players[0]
    services.achievement_save(
        league=pod.league,
        name="Knockout",
        points=2,
        per="game",
        active=False,
        achievement=pod.per_game,
    )
    with pytest.raises(AchievementError, match="retired"):
        services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    entry = AuditEntry.objects.filter(action="achievement.change").get()
    assert entry.summary == "Achievement Knockout retired"
    assert (entry.before["active"], entry.after["active"]) == (True, False)


def test_names_are_unique_per_league_ignoring_case(pod):
    with pytest.raises(AchievementError) as error:
        services.achievement_save(league=pod.league, name="knockout", points=1, per="game")
    assert error.value.field == "name"


def test_scoring_is_checked_and_in_the_history(pod):
    with pytest.raises(AchievementError, match="Place 2 pays 3, more than place 1"):
        services.scoring_set(league=pod.league, per_game=1, placings=[2, 3])
    services.scoring_set(league=pod.league, per_game=1, placings=[3, 1])
    assert services.scoring_of(pod.league).game_points(1) == 4
    services.scoring_set(league=pod.league, per_game=1, placings=[3, 1])  # same: no entry
    assert AuditEntry.objects.filter(action="achievement.scoring").count() == 1


def test_a_deleted_game_leaves_its_claim_on_its_night(pod):
    ann, bob = pod.players[:2]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    services.claim_confirm(claim=claim, podmate=bob)
    Game.objects.filter(pk=pod.game.pk).delete()
    claim.refresh_from_db()
    assert (claim.game, claim.night, claim.status) == (None, FRIDAY, "confirmed")
