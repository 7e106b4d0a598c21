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


# The longest modules of `make test` (seconds in one process, measured with --durations on a
# quiet 2-core machine). With several processes (pytest-xdist's worksteal: each process starts
# on an equal, contiguous share of the collection and takes from another's queue when its own
# runs dry), a long module that starts late is run alone at the end while the other core
# idles. So each process's share starts with long modules of about equal total, the longest
# first, and the short tests follow in their own order.
LONG_MODULES = {
    "tests/browser/test_long_names.py": 157,
    "tests/browser/test_friday_night.py": 128,
    "tests/readme/test_soak.py": 74,
    "tests/readme/test_bench.py": 90,
    "tests/browser/test_self_report_journey.py": 45,
    "tests/browser/test_registration_journey.py": 41,
    "tests/readme/test_make_run.py": 37,
    "tests/readme/test_commands.py": 23,
    "tests/browser/test_pods_journey.py": 22,
}


def long_modules_first(items: list, processes: int) -> list:
    """`items` reordered for `processes` workers: the long modules shared out longest first to
    the process with the least so far, each process's long modules at the head of its share."""
    long_items: dict[str, list] = {}
    rest = []
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        (long_items.setdefault(module, []) if module in LONG_MODULES else rest).append(item)
    shares: list[list] = [[] for _ in range(processes)]
    load = [0] * processes
    for module in sorted(long_items, key=LONG_MODULES.__getitem__, reverse=True):
        least = load.index(min(load))
        shares[least] += long_items[module]
        load[least] += LONG_MODULES[module]
    # worksteal hands the i-th idle process len(pending) // processes-left items: fill each
    # share up to that count with the short tests, in order.
    ordered, left = [], len(items)
    for i, share in enumerate(shares):
        size = left // (processes - i)
        take = max(0, size - len(share))
        ordered += share + rest[:take]
        rest = rest[take:]
        left -= len(share) + take
    return ordered + rest


def pytest_collection_modifyitems(items):
    processes = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if processes > 1:
        items[:] = long_modules_first(items, processes)
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
