"""What a visitor's browser sees of the shared cache: ETag and Last-Modified, a 304 for a refresh
that changed nothing, a CSRF token of their own that works, htmx fragments kept apart, a private
event still a 404, a logged-in user's page never shared, and the projector's minutes that tick.
"""

import re
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from config.settings import redis_cache
from core import pagecache
from leagues.models import Role
from tests.factories import organizer_of
from tournaments.models import Round
from tournaments.services.results import table_report

from .conftest import free_port, played

pytestmark = pytest.mark.django_db

PAGES = ["event_detail", "event_standings", "event_projector", "event_bracket"]


@pytest.fixture
def event(store, backend):
    return played(store, "Gamma")


def url_of(event, name="event_detail"):
    return reverse(name, args=[event.slug])


@pytest.mark.parametrize("name", PAGES)
def test_a_refresh_that_changed_nothing_is_a_304(client, event, name):
    url = url_of(event, name)
    first = client.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', etag)
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    if name == "event_projector":
        # Its minutes left change with the clock: no Last-Modified, the ETag alone decides.
        assert "Last-Modified" not in first
        return
    # A client that only remembers the date gets its 304 too.
    modified = first["Last-Modified"]
    assert client.get(url, HTTP_IF_MODIFIED_SINCE=modified).status_code == 304


def test_after_a_write_the_same_refresh_gets_the_new_page(client, event):
    url = url_of(event, "event_standings")
    etag = client.get(url)["ETag"]
    table = next(t for t in event.rounds.order_by("-number")[0].tables.all() if t.seats.count() > 1)
    table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    fresh = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200
    assert fresh["ETag"] != etag


def test_after_a_deploy_the_same_refresh_gets_the_page_the_new_code_draws(
    client, event, monkeypatch
):
    """Nothing in the event changed, but the code did (a new release): the page is drawn again,
    not served as the old templates drew it, and its ETag is new."""
    url = url_of(event, "event_standings")
    etag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    pagecache.recent.clear()
    monkeypatch.setattr(pagecache, "release", lambda root=None: "the next release")
    drawn = []
    monkeypatch.setattr(pagecache, "_render_once", _counting(pagecache._render_once, drawn))
    fresh = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    assert len(drawn) == 1


def _counting(function, calls):
    def counted(*args, **kwargs):
        calls.append(args)
        return function(*args, **kwargs)

    return counted


def test_the_release_is_read_from_the_contents_of_the_files_pages_are_drawn_from(tmp_path):
    (tmp_path / "app/templates").mkdir(parents=True)
    page = tmp_path / "app/templates/page.html"
    page.write_text("<p>Round 1</p>")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / ".venv").mkdir()
    first = pagecache.release(str(tmp_path))
    # Other people's files, and a file touched but not changed, are not a new release.
    (tmp_path / "node_modules/lib.js").write_text("x")
    (tmp_path / ".venv/site.py").write_text("x")
    (tmp_path / "app/notes.md").write_text("x")
    page.touch()
    pagecache.release.cache_clear()
    assert pagecache.release(str(tmp_path)) == first
    page.write_text("<p>Round 2</p>")
    pagecache.release.cache_clear()
    assert pagecache.release(str(tmp_path)) != first
    assert re.fullmatch(r"[0-9a-f]{16}", first)


def test_a_deploy_may_name_its_release(monkeypatch):
    monkeypatch.setenv("GUILDHALL_RELEASE", "v2026.11.28")
    pagecache.release.cache_clear()
    try:
        assert pagecache.release() == "v2026.11.28"
    finally:
        monkeypatch.delenv("GUILDHALL_RELEASE")
        pagecache.release.cache_clear()


def test_the_htmx_fragment_is_its_own_entry(client, event):
    url = url_of(event, "event_projector")
    page = client.get(url)
    fragment = client.get(url, HTTP_HX_REQUEST="true")
    assert b"<html" in page.content and b"<html" not in fragment.content
    assert page["ETag"] != fragment["ETag"]
    assert "HX-Request" in page["Vary"]
    # Served again from the cache, each stays what it was.
    assert b"<html" not in client.get(url, HTTP_HX_REQUEST="true").content
    assert b"<html" in client.get(url).content


def test_every_visitor_gets_a_token_of_their_own_that_works(event):
    url = url_of(event)
    tokens = []
    for _ in range(2):
        visitor = Client(enforce_csrf_checks=True)
        response = visitor.get(url)
        assert pagecache.CSRF_PLACEHOLDER.encode() not in response.content
        token = re.search(
            rb'X-CSRFToken&quot;: &quot;([^&]+)&quot;|X-CSRFToken": "([^"]+)"', response.content
        )
        token = (token.group(1) or token.group(2)).decode()
        tokens.append(token)
        # The token from the cached page passes the CSRF check of a POST (the login form).
        login = visitor.post(
            reverse("account_login"), {"login": "x", "password": "y"}, HTTP_X_CSRFTOKEN=token
        )
        assert login.status_code != 403
        refused = Client(enforce_csrf_checks=True).post(
            reverse("account_login"), {"login": "x", "password": "y"}, HTTP_X_CSRFTOKEN=token
        )
        assert refused.status_code == 403  # a token is only good with its own cookie
    assert tokens[0] != tokens[1]


def test_a_logged_in_users_page_is_not_shared(client, event):
    url = url_of(event)
    client.get(url)  # cached for visitors
    judge = organizer_of(event.league.organization, role=Role.JUDGE, username="jude")
    client.force_login(judge)
    mine = client.get(url)
    assert b"Log out jude" in mine.content
    assert "ETag" not in mine
    client.logout()
    assert b"Log out jude" not in Client().get(url).content


def test_a_private_event_stays_hidden_when_its_page_is_cached(client, event):
    url = url_of(event)
    assert client.get(url).status_code == 200
    league = event.league
    league.is_public = False
    league.save()
    assert client.get(url).status_code == 404


def test_the_projector_renders_again_when_its_minutes_left_change(client, event, monkeypatch):
    round_ = event.rounds.order_by("-number").first()
    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.PLAYING, ends_at=timezone.now() + timedelta(minutes=12, seconds=30)
    )
    pagecache.touch(("event", event.pk))  # the update above went round the services
    url = url_of(event, "event_projector")
    first = client.get(url)
    assert b">12 min</strong> left" in first.content
    assert client.get(url)["ETag"] == first["ETag"]
    later, now = time.time() + 31, timezone.now
    monkeypatch.setattr(pagecache.time, "time", lambda: later)
    monkeypatch.setattr(timezone, "now", lambda: now() + timedelta(seconds=31))
    second = client.get(url)
    assert second["ETag"] != first["ETag"]
    assert b">11 min</strong> left" in second.content


def test_a_visit_served_from_the_cache_costs_one_query(
    client, event, backend, django_assert_num_queries
):
    """The versions, read on every visit; the page from this process's recent entries, or,
    in another process (gunicorn's other workers), from the shared cache without a render."""
    url = url_of(event, "event_standings")
    page = client.get(url).content
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200
    pagecache.recent.clear()  # as a worker that never rendered it
    shared = 3 if backend == "database" else 1  # the route and the page: SQL or Redis
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url).content
    # Inside a transaction (as tests run) each read of the database cache sits in a savepoint
    # (core.pagecache._shared); gunicorn's requests run in autocommit, without them.
    statements = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) <= shared, statements
    strip = re.compile(
        rb"X-CSRFToken&quot;: &quot;[^&]+|X-CSRFToken\": \"[^\"]+"
        rb'|name="csrfmiddlewaretoken" value="[^"]+'
    )
    assert strip.sub(b"", again) == strip.sub(b"", page)


def test_a_redis_that_is_down_costs_renders_not_pages(client, store, settings):
    """REDIS_URL naming a server that is not there: every page still answers, rendered."""
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{free_port()}/0")}
    pagecache.recent.clear()
    event = played(store, "Delta")
    for name in PAGES:
        response = client.get(url_of(event, name))
        assert response.status_code == 200, name
        assert b"Delta" in response.content
