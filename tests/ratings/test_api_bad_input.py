"""Bad input to the JSON API found by fuzzing, kept as plain regression tests."""

import pytest
from django.test import Client

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
