"""Fixtures every test may use, and the Hypothesis profile the run asks for.

`HYPOTHESIS_PROFILE=fast` (what `make test-fast` sets) caps every property test at
`FAST_EXAMPLES` examples, even one whose own `@settings` asks for more; without it each test
runs the examples it asks for (Hypothesis's default of 100 where it names none).
"""

import os

import pytest
from hypothesis import is_hypothesis_test
from hypothesis import settings as hypothesis_settings

from core import pagecache
from tests.factories import LeagueFactory, OrganizationFactory, organizer_of

FAST_EXAMPLES = 10
HYPOTHESIS_PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")
hypothesis_settings.register_profile("fast", max_examples=FAST_EXAMPLES)
hypothesis_settings.load_profile(HYPOTHESIS_PROFILE)


def examples_capped(test, limit: int) -> None:
    """Cap a Hypothesis test's examples at `limit`, even where its own @settings names more (a
    profile only fills in what a test leaves unset): the same replacement of a test's settings
    that Hypothesis's own pytest plugin makes for parametrized tests."""
    current = test._hypothesis_internal_use_settings
    if current.max_examples > limit:
        test._hypothesis_internal_use_settings = hypothesis_settings(current, max_examples=limit)


def pytest_collection_modifyitems(items):
    if HYPOTHESIS_PROFILE != "fast":
        return
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)
        if test is not None and is_hypothesis_test(test):
            examples_capped(test, FAST_EXAMPLES)


@pytest.fixture(autouse=True)
def page_cache_forgets_other_tests():
    """Each process keeps the page-cache entries it used last (core.pagecache.recent); a test's
    rows roll back, its entries there would not, and the next test's objects may reuse its
    slugs with versions never bumped. Production never rolls versions back."""
    pagecache.recent.clear()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # The default PBKDF2 costs ~0.4 s a user; tests make many users and test no hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def organization(db):
    return OrganizationFactory(name="Dragon's Den", slug="dragons-den")


@pytest.fixture
def league(organization):
    return LeagueFactory(organization=organization, name="Friday Commander", slug="friday")


@pytest.fixture
def organizer(organization):
    return organizer_of(organization, username="olive")


@pytest.fixture
def organizer_client(client, organizer):
    client.force_login(organizer)
    return client
