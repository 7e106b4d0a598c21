"""The fast lane's Hypothesis cap (tests/conftest.py): `make test-fast` runs a property test
with at most 10 examples even when its own @settings asks for more; `make test` runs them all."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import examples_capped


def property_test(calls: list):
    @settings(max_examples=50, deadline=None, database=None)
    @given(st.integers())
    def counted(n):
        calls.append(n)

    return counted


def test_a_capped_test_runs_at_most_the_cap():
    calls: list[int] = []
    test = property_test(calls)
    examples_capped(test, 10)
    test()
    assert len(calls) == 10


def test_an_uncapped_test_runs_the_examples_it_asks_for():
    calls: list[int] = []
    test = property_test(calls)
    examples_capped(test, 100)  # a cap above its own count changes nothing
    test()
    assert len(calls) == 50
