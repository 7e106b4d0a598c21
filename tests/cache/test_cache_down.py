"""A shared cache that fails costs renders, never a page: the database cache's table gone (a
restore without it, `createcachetable` not run) and a Redis that is not there both leave every
cached page answering 200, rendered, for visitors and for a logged-in TO alike.
"""

import pytest
from django.conf import settings as django_settings
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from config.settings import redis_cache
from core import pagecache
from leagues.models import Role
from tests.factories import organizer_of

from .conftest import free_port, played

pytestmark = pytest.mark.django_db

EVENT_PAGES = ["event_detail", "event_standings", "event_projector", "event_bracket"]
TABLE = django_settings.CACHES["default"]["LOCATION"]


def cached_pages(event) -> list[tuple[str, str]]:
    """(url, a text the page shows) of every page the shared cache keeps for an event."""
    pages = [(reverse(name, args=[event.slug]), event.name) for name in EVENT_PAGES]
    return [*pages, (reverse("league_detail", args=[event.league.slug]), event.league.name)]


def drop_the_cache_table() -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE {connection.ops.quote_name(TABLE)}")


def assert_every_page_answers(client: Client, event) -> None:
    for url, text in cached_pages(event):
        for _ in range(2):  # the first visit would store the page, the second read it
            response = client.get(url)
            assert response.status_code == 200, url
            assert text.encode() in response.content, url
    # The failures left the request's transaction usable: the next query works.
    assert event.league.__class__.objects.filter(pk=event.league.pk).exists()


def test_a_missing_cache_table_costs_renders_not_pages(client, store, settings):
    settings.GUILDHALL_PAGE_CACHE = True
    event = played(store, "Epsilon")
    assert client.get(cached_pages(event)[0][0]).status_code == 200  # one entry stored
    pagecache.recent.clear()
    drop_the_cache_table()
    assert_every_page_answers(client, event)


def test_a_missing_cache_table_spares_a_logged_in_tos_pages(client, store, settings):
    """A logged-in TO's pages read computed standings (`pagecache.memo`) from the cache too."""
    settings.GUILDHALL_PAGE_CACHE = True
    event = played(store, "Zeta")
    client.force_login(organizer_of(store.organization, role=Role.JUDGE, username="tom"))
    drop_the_cache_table()
    assert_every_page_answers(client, event)
    assert client.get(reverse("event_run", args=[event.slug])).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_missing_cache_table_outside_a_transaction(store, settings):
    """As gunicorn runs (autocommit, no request transaction): the same."""
    from django.core.management import call_command

    settings.GUILDHALL_PAGE_CACHE = True
    event = played(store, "Eta")
    assert not connection.in_atomic_block
    try:
        drop_the_cache_table()
        assert_every_page_answers(Client(), event)
    finally:
        with transaction.atomic():
            call_command("createcachetable", verbosity=0)


def test_a_redis_that_is_down_spares_every_cached_page(client, store, settings):
    settings.CACHES = {"default": redis_cache(f"redis://127.0.0.1:{free_port()}/0")}
    settings.GUILDHALL_PAGE_CACHE = True
    pagecache.recent.clear()
    event = played(store, "Theta")
    assert_every_page_answers(client, event)
