"""Fixtures every test may use, and the Hypothesis profile the run asks for.

`HYPOTHESIS_PROFILE=fast` (what `make test-fast` sets) caps every property test at
`FAST_EXAMPLES` examples, even one whose own `@settings` asks for more; without it each test
runs the examples it asks for (Hypothesis's default of 100 where it names none).
"""

import os
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.utils import translation
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


# The longest tests of `make test` (seconds, from a run in four processes on a 2-core machine,
# 2026-11-28), by module, or by test where a module's tests need not run together (the crawl:
# one test per role). With several processes (pytest-xdist's worksteal: each process starts on
# an equal, contiguous share of the collection and takes from another's queue when its own
# runs dry), a long test that starts late is run alone at the end while the other cores idle.
# So each process's share starts with long tests of about equal total, the longest first, and
# the short tests follow in their own order.
LONG_TESTS = {
    "tests/browser/test_friday_night.py": 203,
    "tests/readme/test_bench.py::test_bench_runs_to_its_table[outage]": 123,  # 3 outages
    "tests/readme/test_make_run.py": 186,
    "tests/browser/test_long_names.py::test_every_page_each_role_reaches_fits_a_phone_and_a_laptop[organizer]": 155,  # noqa: E501
    "tests/browser/test_judging.py": 93,
    # Lighthouse's run of one page, most of it Chromium under its simulated phone.
    "tests/readme/test_bench.py::test_bench_runs_to_its_table[lighthouse]": 38,
    "tests/readme/test_commands.py": 138,
    "tests/browser/test_long_names.py::test_every_page_each_role_reaches_fits_a_phone_and_a_laptop[judge]": 118,  # noqa: E501
    "tests/browser/test_long_names.py::test_every_page_each_role": 40,  # each other role
    "tests/browser/test_offline_console.py": 77,
    "tests/readme/test_bench.py::test_bench_runs_to_its_table": 45,  # each other bench
    "tests/browser/test_self_report_journey.py": 64,
    "tests/browser/test_offline_round_journey.py": 68,
    "tests/browser/test_pods_journey.py": 42,
    "tests/readme/test_soak.py": 40,
    "tests/browser/test_registration_journey.py": 36,
}


def long_tests_first(items: list, processes: int) -> list:
    """`items` reordered for `processes` workers: the long tests shared out longest first to
    the process with the least so far, each process's long tests at the head of its share."""
    units: dict[str, list] = {}
    weight: dict[str, float] = {}
    rest = []
    for item in items:
        key = next((k for k in LONG_TESTS if item.nodeid.startswith(k)), None)
        if key is None:
            rest.append(item)
            continue
        unit = key if "::" not in key else item.nodeid  # a module stays whole
        units.setdefault(unit, []).append(item)
        weight[unit] = LONG_TESTS[key]
    shares: list[list] = [[] for _ in range(processes)]
    load = [0.0] * processes
    for unit in sorted(units, key=weight.__getitem__, reverse=True):
        least = load.index(min(load))
        shares[least] += units[unit]
        load[least] += weight[unit]
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


# The lanes: every test is in exactly one, by where it lives and what it uses. `make test-fast`
# runs FAST_LANE (the Makefile's `-m`); `make test` runs them all.
LANES = {
    "unit": "no database: the pure domain code and whatever else needs no PostgreSQL",
    "db": "the test database (pytest-django's `db` and its kin), no browser or subprocess run",
    "browser": "tests/browser: Debian's chromium through Playwright against a live server",
    "readme": "tests/readme: what the README and docs/ promise, run as a reader would",
    "bench": "tests/bench and the benches' quick runs: the benchmarks and their helpers",
}
# The `unit` and `db` lanes are ~4,600 tests, and the unit lane holds tests that start Django
# in a subprocess (tests/config, the management commands): 2,266 of them took 225 s of CPU,
# more than a minute's loop. The fast lane takes the domain and service tests of both (and
# three of the leagues'), marked `fast` beside their lane.
FAST_LANE = "(unit or db) and fast and not slow"
FAST_TESTS = re.compile(
    r"tests/([^/]+/){1,2}(domain/|services/|test_[^/]*services[^/]*\.py$)"
    r"|tests/leagues/test_(models|import|exchange)\.py$"
)
TESTS = Path(__file__).parent
# By folder or file (the longest that holds the test); elsewhere by what the test uses. A
# module's own lane marker (`pytestmark`) must agree.
PATH_LANES = {
    TESTS / "readme" / "test_bench.py": "bench",  # the benches' quick runs
    TESTS / "browser": "browser",
    TESTS / "readme": "readme",
    TESTS / "bench": "bench",
}
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_setup", "live_server"}


def lane_of(item) -> str:
    """The lane `item` runs in (see LANES)."""
    path = Path(str(item.path))
    lane = next((v for k, v in PATH_LANES.items() if path.is_relative_to(k)), None)
    if lane is None:
        uses = set(getattr(item, "fixturenames", ()))
        database = uses & DATABASE_FIXTURES or item.get_closest_marker("django_db")
        lane = "db" if database else "unit"
    own = {mark.name for mark in item.iter_markers() if mark.name in LANES}
    if own - {lane}:
        raise pytest.UsageError(f"{item.nodeid} is in the {lane} lane, not {sorted(own)}")
    return lane


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the lane markers
def pytest_collection_modifyitems(items):
    for item in items:
        lane = lane_of(item)
        if item.get_closest_marker(lane) is None:
            item.add_marker(lane)
        if lane in ("unit", "db") and FAST_TESTS.match(item.nodeid.split("::")[0]):
            item.add_marker("fast")
    processes = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if processes > 1:
        items[:] = long_tests_first(items, processes)
    if HYPOTHESIS_PROFILE != "fast":
        return
    for item in items:
        test = getattr(item, "obj", None)
        test = getattr(test, "__func__", test)
        if test is not None and is_hypothesis_test(test):
            examples_capped(test, FAST_EXAMPLES)


@pytest.fixture(autouse=True)
def english_between_tests():
    """A request leaves its language active in the thread (LanguageMiddleware activates it and
    never deactivates: the next request activates its own). A test that asked for Polish must
    not leave the next test's forms and messages in Polish: each test starts in English."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def page_cache_forgets_other_tests():
    """Each process keeps the page-cache entries it used last (core.pagecache.recent); a test's
    rows roll back, its entries there would not, and the next test's objects may reuse its
    slugs with versions never bumped. Production never rolls versions back."""
    pagecache.recent.clear()


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """The default PBKDF2 costs ~0.4 s a user; tests make many users and test no hashing.
    For the whole session, so the users of a module's shared scene (the permission matrix's
    world, built before any test's own fixtures) are quick to make too."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


def tables_emptied(connection) -> None:
    """Every model table of `connection` emptied, as Django's `flush` after a transactional test
    leaves them, by DELETE in one transaction rather than one TRUNCATE of them all.

    TRUNCATE gives every table and index a new file, which PostgreSQL makes and syncs: 3-5 s a
    test on this 2-core machine's disk, for tables holding a few rows; the DELETEs take ~10 ms.
    Django's foreign keys on PostgreSQL are DEFERRABLE INITIALLY DEFERRED, so the order of the
    DELETEs does not matter: the keys are checked at the commit, when every table is empty.
    The content types and permissions stay: `flush` empties them and its post_migrate signal
    makes the same rows again (under new ids, which ContentType's cache in this process then
    gets wrong); nothing a test does changes them."""
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType
    from django.db import transaction

    kept = {ContentType._meta.db_table, Permission._meta.db_table}
    tables = _flushed_tables.get(connection.alias)
    if tables is None:
        names = connection.introspection.django_table_names(only_existing=True, include_views=False)
        tables = _flushed_tables[connection.alias] = [t for t in names if t not in kept]
    quote = connection.ops.quote_name
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        cursor.execute("; ".join(f"DELETE FROM {quote(table)}" for table in tables))


_flushed_tables: dict[str, list[str]] = {}


@pytest.fixture(autouse=True, scope="session")
def transactional_tests_empty_tables_by_delete():
    """Transactional tests (`django_db(transaction=True)`, the live server's) end with
    `tables_emptied` instead of Django's `flush`, unless one asks for what only `flush` does
    (a subset of apps, a serialized rollback)."""
    from django.core.cache import caches
    from django.db import connections
    from django.test import TransactionTestCase

    flush = TransactionTestCase._fixture_teardown

    def teardown(self):
        # The shared page cache's table (DatabaseCache) is no model's: neither `flush` nor
        # `tables_emptied` empties it, and the next test's event, under the same slug with
        # its versions counted from the start again, can be served this test's pages (the
        # likely cause of an offline console given another build's players, not reproduced).
        # Production never counts versions back.
        caches["default"].clear()
        if self.available_apps is not None or self.serialized_rollback:
            return flush(self)
        for alias in self._databases_names(include_mirrors=False):
            tables_emptied(connections[alias])

    TransactionTestCase._fixture_teardown = teardown
    yield
    TransactionTestCase._fixture_teardown = flush


@pytest.fixture(scope="session")
def django_db_setup(
    request,
    django_test_environment,
    django_db_blocker,
    django_db_keepdb,
    django_db_createdb,
    django_db_modify_db_settings,
):
    """pytest-django's test database (test_<name>, or test_<name>_gw0... one a process), cloned
    from the migrated template (tests/dbtemplate.py) instead of migrated in each process.
    `--reuse-db` keeps one cloned from the same template; `--create-db` builds the template
    again (once a run)."""
    from django.conf import settings
    from django.db import connections

    from tests import dbtemplate

    connection = connections["default"]
    original = connection.settings_dict["NAME"]
    name = connection.creation._get_test_db_name()
    with django_db_blocker.unblock():
        connection.close()
        dbtemplate.clone_database(
            name, fresh=not django_db_keepdb or django_db_createdb, rebuild=django_db_createdb
        )
        settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = name
        connection.ensure_connection()
    yield
    if not django_db_keepdb:
        with django_db_blocker.unblock():
            connection.close()
            settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = original
            dbtemplate.drop_database(name)


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


@pytest.fixture
def empty_database(django_db_setup, django_db_blocker):
    """The default connection pointed at a new, empty database for one test (dropped after),
    for the tests that walk the migrations. They used to take the test database back to an
    old migration and forward again: Django renders the project's state for every migration
    it unapplies and reapplies, across every app that depends on the one named (the three
    tests took 34 s alone that way, 15 s from an empty database). From an empty database only
    the migrations the test names (and theirs) run, forward, and the test database keeps its
    schema."""
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection

    name = f"{connection.settings_dict['NAME']}_migrations"
    quoted = connection.ops.quote_name(name)
    original = connection.settings_dict["NAME"]
    with django_db_blocker.unblock():
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)")
            cursor.execute(f"CREATE DATABASE {quoted}")
        connection.close()
        connection.settings_dict["NAME"] = name
        try:
            yield connection
        finally:
            connection.close()
            connection.settings_dict["NAME"] = original
            # A full `migrate` there made content types with that database's ids. FORCE: an
            # autovacuum worker may have connected to the new database's fresh tables, which
            # a plain DROP refuses ("being accessed by other users"; seen in a full run).
            ContentType.objects.clear_cache()
            with connection.cursor() as cursor:
                cursor.execute(f"DROP DATABASE IF EXISTS {quoted} WITH (FORCE)")
