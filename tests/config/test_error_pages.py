"""The error pages a person meets in production (DEBUG off): 400, 403, 404, 500 and the CSRF
failure each show the site's header, the reason in a sentence (a refusal's own words when the
code gave some) and a way on: log in (back to the same address) when anonymous, back to the
event or league the address belongs to, or home. The 500 page renders with no database.
"""

import pytest
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.db import connection
from django.template import loader
from django.test import Client
from django.urls import clear_url_caches, path, reverse

import config.urls
from leagues.models import Role
from tests.factories import LeagueFactory, TournamentFactory, UserFactory, organizer_of

pytestmark = pytest.mark.django_db

HEADER = b'<header class="site-header">'


def _raises(error):
    def view(request, slug=""):
        raise error

    return view


class BrokenUrls:
    """The site's URLs and three that fail the way views do."""

    urlpatterns = [
        *config.urls.urlpatterns,
        path("broken/suspicious/", _raises(SuspiciousOperation("Invalid header: X-Thing"))),
        path("broken/crash/", _raises(RuntimeError("boom"))),
        path("broken/denied/", _raises(PermissionDenied)),
    ]
    handler400 = getattr(config.urls, "handler400", "django.views.defaults.bad_request")
    handler403 = getattr(config.urls, "handler403", "django.views.defaults.permission_denied")
    handler404 = getattr(config.urls, "handler404", "django.views.defaults.page_not_found")
    handler500 = config.urls.handler500


@pytest.fixture
def production(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = BrokenUrls
    clear_url_caches()
    yield settings
    clear_url_caches()


@pytest.fixture
def event(db):
    league = LeagueFactory(slug="friday", name="Friday Commander")
    return TournamentFactory(league=league, slug="friday-pods", name="Friday pods")


def visitor(user=None, **kwargs) -> Client:
    client = Client(raise_request_exception=False, **kwargs)
    if user is not None:
        client.force_login(user)
    return client


def login_link(url: str) -> bytes:
    return f'href="{reverse("account_login")}?next={url.replace("/", "%2F")}"'.encode()


def test_a_403_says_the_refusals_reason_and_leads_back_to_the_event(production, event):
    """A player who opens the TO's console: the code's sentence, and a link to the event."""
    url = reverse("event_run", args=[event.slug])
    response = visitor(UserFactory(username="pat")).get(url)
    assert response.status_code == 403
    assert HEADER in response.content
    assert b"Only the store&#x27;s organizers and judges run its events." in response.content
    assert f'href="{reverse("event_detail", args=[event.slug])}"'.encode() in response.content


def test_a_403_for_a_league_leads_back_to_the_league(production, event):
    url = reverse("game_create", args=[event.league.slug])
    judge = organizer_of(event.league.organization, role=Role.JUDGE, username="judy")
    response = visitor(judge).get(url)
    assert response.status_code == 403
    assert b"Only the league&#x27;s organizers can change its games." in response.content
    assert f'href="{reverse("league_detail", args=[event.league.slug])}"'.encode() in (
        response.content
    )


def test_a_403_without_a_reason_says_one_and_offers_to_log_in(production):
    response = visitor().get("/broken/denied/")
    assert response.status_code == 403
    assert HEADER in response.content
    assert b"You may not open this page" in response.content
    assert login_link("/broken/denied/") in response.content


def test_a_404_says_so_and_offers_to_log_in_to_an_anonymous_visitor(production, event):
    """A private league's page is a 404 to a visitor: logging in may open it."""
    event.league.is_public = False
    event.league.save()
    url = reverse("league_detail", args=[event.league.slug])
    response = visitor().get(url)
    assert response.status_code == 404
    assert HEADER in response.content
    assert b"There is no page at this address" in response.content
    assert login_link(url) in response.content
    assert b'href="/"' in response.content
    assert b"Friday Commander" not in response.content  # a private league stays unnamed


def test_a_404_leads_a_logged_in_person_home(production):
    response = visitor(UserFactory(username="stan")).get("/no/such/page/")
    assert response.status_code == 404
    assert HEADER in response.content
    assert b"There is no page at this address" in response.content
    assert b'href="/"' in response.content
    assert b"?next=" not in response.content


def test_a_400_says_the_request_could_not_be_read(production):
    response = visitor().get("/broken/suspicious/")
    assert response.status_code == 400
    assert HEADER in response.content
    assert b"could not be read" in response.content
    assert b"Invalid header" not in response.content  # what went wrong inside stays inside
    assert b'href="/"' in response.content


def test_a_500_apologises_and_leads_home(production):
    response = visitor().get("/broken/crash/")
    assert response.status_code == 500
    assert HEADER in response.content
    assert b"Something went wrong on our side" in response.content
    assert b'href="/"' in response.content
    assert b"boom" not in response.content


def test_the_500_page_renders_with_no_database_and_no_context(
    production, django_assert_num_queries
):
    with django_assert_num_queries(0):
        html = loader.get_template("errors/500.html").render()
    assert '<header class="site-header">' in html
    assert "Something went wrong on our side" in html


def test_the_500_page_renders_when_the_database_is_gone(production, monkeypatch):
    """The database refuses every query: the page still answers, with its header."""

    def refuse(*args, **kwargs):
        raise RuntimeError("the database is down")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = visitor().get("/broken/crash/")
    assert response.status_code == 500
    assert HEADER in response.content


def test_the_api_keeps_its_json_errors(production):
    response = visitor().get("/api/leagues/no-such-league/scores/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")


def test_a_form_sent_without_its_token_says_why_and_how_to_send_it_again(production, event):
    url = reverse("event_check_in", args=[event.slug])
    client = visitor(UserFactory(username="pat"), enforce_csrf_checks=True)
    response = client.post(url, {})
    assert response.status_code == 403
    assert HEADER in response.content
    assert b"security token" in response.content
    assert f'href="{url}"'.encode() in response.content  # open the form again
