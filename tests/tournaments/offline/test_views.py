"""The offline room's addresses (tournaments/offline/views.py): the service worker answers for
a scope of /events/ and is never cached for long; the manifest is an installable web app's;
the event's state is for whoever runs the event, in a fixed number of queries."""

import json

import pytest
from django.urls import reverse

from leagues.models import Role
from tests import scenes
from tests.factories import LeagueFactory, UserFactory, organizer_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league):
    played = scenes.rounds_played(1, league=league, format="pods", players=7, swiss_rounds=3)
    return scenes.round_paired(played).event


def test_the_service_worker_may_control_the_events_pages(client):
    response = client.get(reverse("offline_service_worker"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/events/"
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    # Its version is filled in (a new worker replaces an old one when the text changes).
    assert 'var VERSION = "' in text and 'var VERSION = ""' not in text
    assert "{{" not in text and "{%" not in text


def test_the_manifest_makes_an_installable_app(client):
    response = client.get(reverse("offline_manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == reverse("my_guildhall")
    assert manifest["icons"] and all(i["src"].startswith("/static/") for i in manifest["icons"])


@pytest.mark.parametrize(
    ("start", "opens"),
    [
        ("/events/friday/run/", "/events/friday/run/"),
        ("/events/friday/me/", "/events/friday/me/"),
        ("/events/friday/me/abc.def-1:x/", "/events/friday/me/abc.def-1:x/"),
        ("https://evil.example/events/friday/run/", "/me/"),
        ("//evil.example/events/friday/run/", "/me/"),
        ("/events/friday/run/?x=1", "/me/"),
        ("/admin/", "/me/"),
        ("javascript:alert(1)", "/me/"),
    ],
)
def test_an_app_installed_from_a_page_opens_on_it_and_nowhere_else(client, start, opens):
    """`?start=` is the page the app was installed from: only a page the worker keeps."""
    response = client.get(reverse("offline_manifest"), {"start": start})
    assert json.loads(response.content)["start_url"] == opens


def test_the_state_holds_every_round_with_versions(client, event, organizer):
    client.force_login(organizer)
    response = client.get(reverse("offline_event_state", kwargs={"slug": event.slug}))
    assert response.status_code == 200
    assert response["Cache-Control"] == "no-store"
    state = response.json()
    assert state["event"]["slug"] == event.slug
    assert state["event"]["seed"] == event.seed
    assert [r["number"] for r in state["rounds"]] == [1, 2]
    first, second = state["rounds"]
    assert all(t["reported"] and t["version"] == 1 for t in first["tables"] if len(t["seats"]) > 1)
    assert not any(t["reported"] for t in second["tables"] if len(t["seats"]) > 1)
    seated = {s["entry"] for t in second["tables"] for s in t["seats"]}
    assert seated == {e["id"] for e in state["entries"]}
    assert [s["position"] for s in first["tables"][0]["seats"]] == list(
        range(1, len(first["tables"][0]["seats"]) + 1)
    )


def test_the_state_reads_a_fixed_number_of_queries(client, event, organizer):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(organizer)
    url = reverse("offline_event_state", kwargs={"slug": event.slug})
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    play_round_again = event.rounds.get(number=2)
    from tests.tournaments.play import first_seat_wins
    from tournaments.services.results import table_report

    for table in play_round_again.tables.all():
        seats = list(table.seats.order_by("position"))
        if len(seats) > 1:
            table_report(table=table, winner=first_seat_wins(table, seats))
    with CaptureQueriesContext(connection) as bigger:
        client.get(url)
    assert len(bigger) == len(small)


@pytest.mark.parametrize("role", [None, Role.JUDGE])
def test_the_state_is_for_whoever_runs_the_event(client, event, role):
    """A player (or a stranger) is refused; a judge of another store does not even see a
    private event, and is refused a public one."""
    user = UserFactory()
    if role is not None:
        other = LeagueFactory(slug="elsewhere")
        user = organizer_of(other.organization, role=role, username="judge-elsewhere")
    client.force_login(user)
    response = client.get(reverse("offline_event_state", kwargs={"slug": event.slug}))
    assert response.status_code == 403


def test_the_state_of_no_such_event_is_404(client, organizer):
    client.force_login(organizer)
    response = client.get(reverse("offline_event_state", kwargs={"slug": "no-such-event"}))
    assert response.status_code == 404


def test_the_state_asks_a_visitor_to_log_in(client, event):
    response = client.get(reverse("offline_event_state", kwargs={"slug": event.slug}))
    assert response.status_code == 302 and "/login/" in response.url


def test_the_console_has_the_phone_keep_the_pairing_page_its_code_and_the_paper_pack(client, event):
    """What the console asks the service worker to keep for an outage (issue 34): the page
    that pairs without the server, the paper pack, Pyodide's files (loaded by their own names
    next to the loader) and the pure code; and the worker serves those pages from its copy."""
    organizer = organizer_of(event.league.organization, role=Role.JUDGE, username="olive")
    client.force_login(organizer)
    page = client.get(reverse("event_run", args=[event.slug])).content.decode()
    banner = page.split('id="offline-banner"', 1)[1].split(">", 1)[0]
    assert f'data-pair-url="{reverse("offline_pair", args=[event.slug])}"' in banner
    assert f'data-paper-url="{reverse("paper_pack", args=[event.slug])}"' in banner
    assert f'data-snapshot-url="{reverse("offline_snapshot", args=[event.slug])}"' in banner
    kept = json.loads(banner.split("data-keep='", 1)[1].split("'", 1)[0].replace("&quot;", '"'))
    names = {url.rsplit("/", 1)[1] for url in kept}
    assert {"pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"} <= names
    assert {"pyodide.asm.mjs", "pyodide.mjs", "domain.zip", "offline_pair.js", "paper.css"} <= names
    assert "i18n.js" in names  # the scripts' words, which the pairing page reads
    assert all(url.startswith("/static/") for url in kept)
    worker = client.get(reverse("offline_service_worker")).content.decode()
    assert "run\\/(offline\\/|paper\\/)?" in worker
    # The pairing page carries the console's offline script: it reads what the console kept.
    pairing = client.get(reverse("offline_pair", args=[event.slug])).content.decode()
    assert 'data-offline-kind="console"' in pairing


def test_the_service_worker_keeps_the_catalogue_of_its_language(client):
    """The offline round reads the language the console was opened in: the worker fetched in
    German keeps German's catalogue of the scripts' strings (the address the pages load, with
    the release), and says in German that a page was not kept."""
    from django.utils import translation

    from core.pagecache import release
    from tournaments.offline.views import _worker_text

    with translation.override("de"):
        text = _worker_text(translation.get_language())
    catalog = f"/jsi18n/de.js?v={release()}"
    assert f'var CATALOG = "{catalog}";' in text
    with translation.override("en"):
        english = _worker_text(translation.get_language())
    assert "/jsi18n/en.js?v=" in english and "/jsi18n/de.js" not in english
    # One worker's cache of static files whatever the language: Pyodide is kept once.
    version = next(line for line in text.splitlines() if line.startswith("var VERSION"))
    assert version in english
    assert 'lang=\\"de\\"' in text

    response = client.get(catalog)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert b"gettext" in response.content


def test_the_service_worker_answers_in_the_visitor_s_language(client):
    from django.conf import settings
    from django.utils import translation

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    # The middleware's French stays active after the request: `override` gives back English.
    with translation.override("en"):
        text = client.get(reverse("offline_service_worker")).content.decode()
    assert "/jsi18n/fr.js?v=" in text
