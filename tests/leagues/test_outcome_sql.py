"""`outcome_sql` says in PostgreSQL exactly what `outcome` says in Python, for every finishing
order of two to five players (standard competition ranking, as the database allows)."""

from itertools import product

import pytest
from django.db import connection

from leagues.domain.outcome import outcome, outcome_sql, outcomes
from leagues.domain.ranking import is_valid_ranking

pytestmark = pytest.mark.django_db


def every_ranking(most: int = 5):
    for size in range(2, most + 1):
        for places in product(range(1, size + 1), repeat=size):
            if is_valid_ranking(places):
                yield list(places)


def test_the_sql_outcome_agrees_with_the_python_one_for_every_finishing_order():
    cases = [(place, places.count(1)) for places in every_ranking() for place in places]
    cases = sorted(set(cases))
    with connection.cursor() as cursor:
        cursor.execute(
            f"""SELECT {outcome_sql("c.place", "c.firsts")}
                  FROM unnest(%s::int[], %s::int[]) WITH ORDINALITY AS c(place, firsts, n)
                 ORDER BY c.n""",
            [[p for p, _ in cases], [f for _, f in cases]],
        )
        said = [row[0] for row in cursor.fetchall()]
    assert said == [outcome(place, firsts).value for place, firsts in cases]
    assert {"win", "draw", "loss"} == set(said)


def test_every_valid_ranking_has_at_most_one_winner_and_a_win_or_draws():
    for places in every_ranking():
        result = outcomes(places)
        assert result.count("win") <= 1
        assert ("win" in result) != ("draw" in result)
