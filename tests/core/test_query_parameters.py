"""No query string answers 500: every GET route of the site, as anonymous and as every role
that may open it, with hostile values (NUL, lone surrogates, huge and negative numbers, very
long text) in every query parameter the views read.

The routes, roles and objects are the permission matrix's (tests/test_permission_matrix.py):
its test fails on a URL pattern it does not list, so a new GET view is in this test too. The
parameters are the ones the code reads (`GET.get("q")` and the like, found in the source) and
the few it reads through a helper that a scan cannot see (`_filters(..., request.GET)`).
"""

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.http import QueryDict
from django.test import RequestFactory
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from core.query import clean_query, page_number
from tests.test_permission_matrix import (
    MATRIX,
    ROLES,
    cases,
    client_for,
    request_rolled_back,
    site_routes,
)
from tests.test_permission_matrix import world as matrix_world

# The matrix's world (two stores, their leagues, events, players and staff), built once for
# this module.
world = matrix_world

pytestmark = pytest.mark.django_db

APPS = ("accounts", "audit", "config", "core", "exchange", "jobs", "leagues", "notifications")
APPS += ("ratings", "tournaments")
READ = re.compile(r"""GET(?:\.get|\.getlist)?[(\[]\s*["']([A-Za-z_][\w-]*)["']""")
# Read through a helper that takes `request.GET` whole (leagues.views.audit._filters), or by
# Django and allauth (`next` after logging in).
THROUGH_HELPERS = {"league", "tournament", "next"}


def parameters_read() -> list[str]:
    root = Path(settings.BASE_DIR)
    found = {
        name
        for app in APPS
        for path in (root / app).rglob("*.py")
        if "migrations" not in path.parts
        for name in READ.findall(path.read_text())
    }
    return sorted(found | THROUGH_HELPERS)


PARAMETERS = parameters_read()

HOSTILE = [
    "\x00",
    "a\x00b",
    "\ud800",  # a lone surrogate, sent as its UTF-8-like bytes %ED%A0%80
    "x\udfffy",
    "-1",
    "0",
    "-9223372036854775809",
    "9223372036854775807",
    "9223372036854775808",
    "100000000000000000000",
    "9" * 400,
    "1e999",
    "q" * 10_000,
    "%",
    "²",
]
hostile_values = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.text(alphabet=st.sampled_from("a9-\x00\ud800\udfff\u202e é"), max_size=40),
)

GET_ROUTES = sorted(route for route, rule in MATRIX.items() if "GET" in rule.methods)


def query_string(values: dict[str, str]) -> str:
    """Percent-encoded as a browser or a script would send it; a lone surrogate goes as the
    bytes Python's "surrogatepass" gives (no browser sends them: a script can)."""
    return "&".join(
        f"{quote(name)}={quote(value, safe='', errors='surrogatepass')}"
        for name, value in values.items()
    )


def reachable(route: str, world) -> list[tuple[str, str]]:
    """(url, role) for every object of `route` and every role that may open it there, and
    anonymous everywhere (whatever it is answered)."""
    rule = MATRIX[route]
    pairs = []
    for _, expected, url in cases(route, rule, world):
        pairs += [(url, role) for role in ROLES if role == "anonymous" or expected[role] == "ok"]
    return pairs


def test_the_parameters_include_the_ones_the_views_read():
    """The scan finds what it should: the issue's parameters are among them."""
    assert {"q", "page", "sort", "name", "round", "league", "index"} <= set(PARAMETERS)


def test_every_get_route_of_the_resolver_is_tried():
    routes = {route for route in site_routes() if not route.startswith("admin/")}
    get_routes = {route for route in routes if "GET" in MATRIX[route].methods}
    assert get_routes == set(GET_ROUTES)
    assert len(GET_ROUTES) > 40


# The breaks of issue 30 #7, as they were found.
def _regressions(world):
    league = world.scenes["a_pub"].league
    event = world.scenes["a_pub"].events["1v1"]
    detail = reverse("league_detail", args=[league.slug])
    org = league.organization.slug
    return [
        ("anonymous", f"{detail}?q=%00"),
        ("anonymous", f"{detail}?page=100000000000000000000"),
        ("anonymous", f"{detail}?page=9223372036854775807"),
        ("anonymous", f"{detail}?page=-9223372036854775809"),
        ("organizer", f"/organizations/{org}/players/?q=%00"),
        ("organizer", f"/organizations/{org}/history/?league=%00"),
        ("judge", reverse("event_player_names", args=[event.slug]) + "?name=%00"),
    ]


def test_the_query_strings_that_answered_500(world):
    clients = {role: client_for(user) for role, user in world.users.items()}
    for role, url in _regressions(world):
        response = request_rolled_back(clients[role], "GET", url)
        assert response.status_code < 500, f"{url} as {role}: {response.status_code}"
        assert response.status_code == 200, f"{url} as {role}: {response.status_code}"


@pytest.mark.parametrize("route", GET_ROUTES)
@hypothesis_settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_query_string_answers_500(world, route, data):
    """One hostile value in every parameter at once, a few others drawn for some of them."""
    url, role = data.draw(st.sampled_from(reachable(route, world)), label="url, role")
    everywhere = data.draw(hostile_values, label="every parameter")
    some = data.draw(
        st.dictionaries(st.sampled_from(PARAMETERS), hostile_values, max_size=3), label="some"
    )
    values = {**MATRIX[route].extra, **dict.fromkeys(PARAMETERS, everywhere), **some}
    full = f"{url}{'&' if '?' in url else '?'}{query_string(values)}"
    response = request_rolled_back(client_for(world.users[role]), "GET", full)
    assert response.status_code < 500, f"GET {full[:300]} as {role}: {response.status_code}"


# --- The one place that cleans them ----------------------------------------------------------


def test_clean_query_drops_nul_and_lone_surrogates_and_keeps_the_rest():
    raw = QueryDict(mutable=True)
    raw.setlist("q", ["a\x00b", "\ud800Ann\udfff"])
    raw["name\x00"] = "Zoë ²"
    cleaned = clean_query(raw)
    assert cleaned.getlist("q") == ["ab", "Ann"]
    assert cleaned["name"] == "Zoë ²"
    assert not cleaned._mutable  # as Django's own request.GET


def test_a_clean_query_is_left_as_it_is():
    raw = QueryDict("q=Ann&page=2")
    assert clean_query(raw) is raw


def test_the_middleware_cleans_every_views_query():
    from core.query import QueryCleaningMiddleware

    seen = {}

    def view(request):
        seen.update(request.GET)
        return None

    request = RequestFactory().get("/leagues/x/?q=%00Ann&page=%ED%A0%802")
    QueryCleaningMiddleware(view)(request)
    assert seen["q"] == ["Ann"]
    assert seen["page"][0].endswith("2")  # Django reads the bytes of a surrogate as U+FFFD
    assert "core.query.QueryCleaningMiddleware" in settings.MIDDLEWARE


@pytest.mark.parametrize(
    ("raw", "number"),
    [
        (None, 1),
        ("", 1),
        ("3", 3),
        ("0", 1),
        ("-1", 1),
        ("-9223372036854775809", 1),
        ("9223372036854775807", 1_000_000),
        ("100000000000000000000", 1_000_000),
        ("9" * 5000, 1_000_000),
        ("²", 1),
        ("٣", 1),
        ("1e3", 1),
        (" 4 ", 4),
        ("x", 1),
    ],
)
def test_page_number(raw, number):
    assert page_number(raw) == number
