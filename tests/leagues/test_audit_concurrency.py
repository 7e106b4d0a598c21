"""Two organizers at once, for real: two threads, two database connections, one game.

Conflicting corrections made from the same version: exactly one is stored, the other gets
GameConflict, and the log holds one correction. The same "save" sent twice at once (a
double tap) stores one game.
"""

import datetime

import pytest

from audit.models import AuditEntry
from leagues import services
from leagues.models import Game
from tests import concurrency
from tests.factories import GameFactory, LeagueFactory, PlayerFactory

DAY = datetime.date(2026, 11, 20)


def run_together(*jobs):
    """The jobs at once; ("ok", result) or (code, error) for a refusal, in job order."""
    return [
        (outcome.code, outcome) if isinstance(outcome, services.LeagueError) else ("ok", outcome)
        for outcome in concurrency.run_together(*jobs)
    ]


@pytest.mark.django_db(transaction=True)
def test_two_conflicting_corrections_of_one_game_one_wins_the_other_is_told():
    league = LeagueFactory()
    ann, bob, cy = (PlayerFactory(organization=league.organization, name=n) for n in "ABC")
    game = GameFactory(league=league, players=[ann, bob, cy], played_on=DAY)
    orders = {"bob first": [bob, ann, cy], "cy first": [cy, bob, ann]}

    def correct(order):
        return lambda: services.game_update(
            game=Game.objects.get(pk=game.pk),
            results=[services.ResultIn(player=p, place=i) for i, p in enumerate(order, 1)],
            played_on=DAY,
            expected_version=0,
        )

    outcomes = run_together(*(correct(order) for order in orders.values()))
    assert sorted(code for code, _ in outcomes) == ["ok", "stale"]
    winner = list(orders.values())[[code for code, _ in outcomes].index("ok")]
    game.refresh_from_db()
    assert game.version == 1
    assert [r.player for r in game.results.order_by("placement")] == winner  # no lost update
    corrections = AuditEntry.objects.filter(action="game.correct")
    assert corrections.count() == 1
    assert [r["player_id"] for r in corrections.get().after["results"]] == [p.pk for p in winner]


@pytest.mark.django_db(transaction=True)
def test_the_same_save_sent_twice_at_once_stores_one_game():
    league = LeagueFactory()
    ann, bob = (PlayerFactory(organization=league.organization, name=n) for n in "AB")

    def save():
        return services.game_record(
            league=league,
            results=[
                services.ResultIn(player=ann, place=1),
                services.ResultIn(player=bob, place=2),
            ],
            played_on=DAY,
            entry_key="one-form",
        )

    outcomes = run_together(save, save)
    assert [code for code, _ in outcomes] == ["ok", "ok"]
    assert sorted(game.is_replay for _, game in outcomes) == [False, True]
    assert outcomes[0][1].pk == outcomes[1][1].pk
    assert Game.objects.count() == 1
    assert AuditEntry.objects.filter(action="game.create").count() == 1
