"""Bad input to the JSON API found by fuzzing, kept as plain regression tests."""

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import ApiToken, Game, Player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/api/leagues/:/games", "/api/leagues/friday/games/extra", "/api/nothing"]
)
def test_a_post_to_an_address_that_is_no_endpoint_is_a_json_404_not_a_csrf_page(path):
    # Found by schemathesis: the catch-all 404 was not CSRF-exempt, so a POST there got
    # Django's HTML "403 CSRF cookie not set" page instead of the API's JSON error.
    client = Client(enforce_csrf_checks=True)

    response = client.post(path, data="{}", content_type="application/json")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "error": {"field": None, "message": "Not found.", "code": "not_found"}
    }


@pytest.fixture
def api_token(organization, organizer):
    _, plaintext = ApiToken.issue(organization=organization, name="scorebot", by=organizer)
    return plaintext


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"players": ["Ann", "\\ud800"]}', "players[1]"),
        ('{"players": [["Ann", "B\\udfffb"], "Cy"]}', "players[0][1]"),
        ('{"players": ["Ann", "Bob"], "notes": "x\\ud83d"}', "notes"),
    ],
)
def test_a_lone_surrogate_is_a_400_naming_the_field_and_stores_nothing(
    client, league, api_token, body, field
):
    # A lone UTF-16 surrogate is valid JSON ("\ud800") but no text PostgreSQL can store: it
    # reached the database and answered 500.
    response = client.post(
        reverse("api_games", args=[league.slug]),
        data=body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_token}"},
    )

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == field
    assert error["code"] == "invalid_unicode"
    assert "Unicode" in error["message"]
    assert Game.objects.count() == 0
    assert Player.objects.count() == 0


def test_the_api_answers_in_english_whatever_the_browser_or_the_store_speaks(
    client, league, api_token
):
    # A translated domain message ("... is in the future") would otherwise follow the
    # caller's Accept-Language, or the store's language, beside the API's English ones.
    league.organization.language = "de"
    league.organization.save(update_fields=["language"])
    response = client.post(
        reverse("api_games", args=[league.slug]),
        data='{"players": ["Ann", "Bob"], "date": "2999-01-01"}',
        content_type="application/json",
        headers={"Authorization": f"Bearer {api_token}", "Accept-Language": "de,ja;q=0.8"},
    )

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "future_date"
    assert error["message"].startswith("2999-01-01 is in the future: a game can be dated")
    assert response.headers["Content-Language"] == "en"
    assert Game.objects.count() == 0
