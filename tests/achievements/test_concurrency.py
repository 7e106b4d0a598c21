"""Two phones of one player claim at the same moment: the player's row lock serialises them,
so "once per night" holds for two different games of the night and one game never holds
two claims of an achievement; two podmates confirming at once confirm it once."""

import pytest

from achievements import services
from achievements.domain.scoring import FrequencyRefused
from achievements.models import Claim
from audit.models import AuditEntry
from tests.concurrency import run_together
from tests.factories import GameFactory

from .conftest import FRIDAY

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_claims_of_one_night_at_once_make_one(pod):
    ann, bob, cy = pod.players[:3]
    second = GameFactory(league=pod.league, played_on=FRIDAY, players=[ann, bob, cy])
    outcomes = run_together(
        lambda: services.claim_submit(game=pod.game, player=ann, achievement=pod.per_night),
        lambda: services.claim_submit(game=second, player=ann, achievement=pod.per_night),
    )
    made = [o for o in outcomes if isinstance(o, Claim)]
    refused = [o for o in outcomes if isinstance(o, FrequencyRefused)]
    assert (len(made), len(refused)) == (1, 1), outcomes
    assert Claim.objects.filter(achievement=pod.per_night).count() == 1


def test_a_double_tap_on_two_connections_claims_once(pod):
    ann = pod.players[0]
    outcomes = run_together(
        *[
            lambda: services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
            for _ in range(3)
        ]
    )
    assert sum(isinstance(o, Claim) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, services.AlreadyDone) for o in outcomes) == 2, outcomes
    assert Claim.objects.count() == 1


def test_two_podmates_confirming_at_once_confirm_it_once(pod):
    ann, bob, cy = pod.players[:3]
    claim = services.claim_submit(game=pod.game, player=ann, achievement=pod.per_game)
    outcomes = run_together(
        lambda: services.claim_confirm(claim=claim.pk, podmate=bob),
        lambda: services.claim_confirm(claim=claim.pk, podmate=cy),
    )
    assert sum(isinstance(o, Claim) for o in outcomes) == 1, outcomes
    assert sum(isinstance(o, services.ClaimClosed) for o in outcomes) == 1, outcomes
    assert AuditEntry.objects.filter(action="achievement.confirm").count() == 1
