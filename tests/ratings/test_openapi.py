"""The API's OpenAPI document: served, valid, complete, and true (fuzzed with schemathesis).

The fuzz test loads the document from the running Django app over WSGI, then sends every
operation generated requests, valid and invalid, with a real league, players, games and a
token in the database. Every answer must be below 500, every error JSON in the error shape,
and every answer must match what the document promises.
"""

import json
import logging
import re

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from schemathesis import GenerationMode

from config.wsgi import application
from leagues.domain.csvformat import has_control_characters
from leagues.models import ApiToken, Game
from ratings import urls_api
from ratings.api import GAME_KEYS
from ratings.openapi import SCHEMA
from tests.factories import GameFactory, LeagueFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def quiet_request_log():
    # Hundreds of fuzzed 4xx answers would each log a warning; errors still show.
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def documented_path(pattern: str) -> str:
    """ "^leagues/(?P<slug>[-a-zA-Z0-9_]+)/scores/?$" -> "/api/leagues/{slug}/scores"."""
    path = pattern.removeprefix("^").removesuffix("$").removesuffix("/?")
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", path)
    return "/api/" + path.replace("\\.", ".")


def api_routes() -> dict[str, object]:
    """Each address of ratings/urls_api.py (but the catch-all 404) and its view."""
    return {
        documented_path(p.pattern.regex.pattern): p.callback
        for p in urls_api.urlpatterns
        if p.name is not None
    }


def test_the_document_is_served_as_json(client):
    response = client.get("/api/openapi.json")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == json.loads(json.dumps(SCHEMA))


def test_the_document_is_valid_openapi():
    validate(json.loads(json.dumps(SCHEMA)))


def test_every_api_address_is_described_and_nothing_else():
    assert set(api_routes()) == set(SCHEMA["paths"])


def test_every_method_a_view_takes_is_described(client):
    # A method the document does not list answers 405, so the list of methods is complete.
    for path, operations in SCHEMA["paths"].items():
        url = path.replace("{slug}", "nope")
        described = {m.upper() for m in operations if m != "parameters"}
        for method in ("GET", "POST", "PUT", "PATCH", "DELETE"):
            response = client.generic(method, url)
            if method not in described:
                assert response.status_code == 405, (method, path)
                assert response.json()["error"]["code"] == "method_not_allowed"


def test_the_game_body_lists_exactly_the_fields_the_api_reads():
    assert set(SCHEMA["components"]["schemas"]["GameIn"]["properties"]) == set(GAME_KEYS)


def test_every_error_answer_uses_the_error_shape():
    for path, operations in SCHEMA["paths"].items():
        for method, operation in operations.items():
            if method == "parameters":
                continue
            for status, answer in operation["responses"].items():
                if int(status) >= 400:
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (path, status)


def test_a_retry_with_an_idempotency_key_answers_as_documented(api_data):
    """The key's three answers (new game, retry, key reused for another game) are each a
    documented status of the post, and the header is documented."""
    operation = SCHEMA["paths"]["/api/leagues/{slug}/games"]["post"]
    assert [p["name"] for p in operation["parameters"]] == ["Idempotency-Key"]
    client = Client()
    url = f"/api/leagues/{api_data['league'].slug}/games"
    auth = {"Authorization": f"Bearer {api_data['token']}", "Idempotency-Key": "night-1"}

    def post(players):
        body = json.dumps({"players": players, "date": "2026-11-20"})
        return client.post(url, body, content_type="application/json", headers=auth)

    statuses = [post(["Ann", "Bob"]).status_code for _ in range(2)]
    statuses.append(post(["Bob", "Ann"]).status_code)

    assert statuses == [201, 200, 409]
    assert {str(status) for status in statuses} <= set(operation["responses"])


@given(st.text(max_size=20))
def test_the_documented_name_pattern_refuses_what_the_api_refuses(name):
    pattern = re.compile(
        SCHEMA["components"]["schemas"]["GameIn"]["properties"]["players"]["items"]["oneOf"][0][
            "pattern"
        ]
    )
    assert (pattern.search(name) is None) == has_control_characters(name)


# --- Fuzzing ------------------------------------------------------------------------------------


@pytest.fixture
def wsgi_in_test_transaction():
    """Keep Django's request signals from closing the test's connection mid-transaction.

    Django's own test client does the same; schemathesis calls the real WSGI application.
    """
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield application
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def api_data(organization, organizer, league, settings):
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    settings.SECURE_SSL_REDIRECT = False
    players = [PlayerFactory(organization=organization, name=n) for n in ("Ann", "Bob", "Cy")]
    GameFactory(league=league, players=players)
    private = LeagueFactory(organization=organization, slug="private", is_public=False)
    GameFactory(league=private, players=players[:2])
    _, token = ApiToken.issue(organization=organization, name="fuzz", by=organizer)
    return {"league": league, "token": token}


def assert_json_error_or_success(response) -> None:
    assert response.status_code < 500, response.content[:2000]
    # Schemathesis's response: lower-case header names, each with a list of values.
    assert response.headers["content-type"] == ["application/json"], response.content[:200]
    body = json.loads(response.content)
    if response.status_code >= 400:
        assert set(body) == {"error"}
        assert set(body["error"]) == {"field", "message", "code"}
        assert isinstance(body["error"]["message"], str) and body["error"]["message"]
        assert isinstance(body["error"]["code"], str) and body["error"]["code"]


# A body the schema allows can still break a rule no JSON schema says (two players at least,
# nobody twice ignoring case, a name that is not blank after trimming): 400 is right there.
RULES_NOT_IN_SCHEMA = [schemathesis.checks.positive_data_acceptance]

FUZZ_SETTINGS = settings(
    max_examples=30,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)


def fuzz(strategy, *, headers: dict) -> None:
    @FUZZ_SETTINGS
    @given(case=strategy)
    def check(case):
        response = case.call(headers=headers)
        assert_json_error_or_success(response)
        case.validate_response(response, headers=headers, excluded_checks=RULES_NOT_IN_SCHEMA)

    check()


def test_schemathesis_finds_no_server_error_and_no_broken_promise(
    wsgi_in_test_transaction, api_data
):
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", wsgi_in_test_transaction)
    slug = api_data["league"].slug
    auth = {"Authorization": f"Bearer {api_data['token']}"}
    games_before = Game.objects.count()
    operations = [result.ok() for result in schema.get_all_operations()]
    # Schemathesis leaves out the document's own address; every other one is fuzzed.
    assert {op.path for op in operations} == set(SCHEMA["paths"]) - {"/api/openapi.json"}

    for operation in operations:
        at_league = {"path_parameters": {"slug": slug}} if "{slug}" in operation.path else {}
        # Valid requests at the real league, with the token and without; then valid and
        # invalid requests anywhere, with the token.
        at_league_strategy = operation.as_strategy(GenerationMode.POSITIVE, **at_league)
        fuzz(at_league_strategy, headers=auth)
        fuzz(at_league_strategy, headers={})
        fuzz(operation.as_strategy(GenerationMode.POSITIVE), headers=auth)
        fuzz(operation.as_strategy(GenerationMode.NEGATIVE), headers=auth)
    # Valid posts did reach the league: the fuzzing was not refused wholesale.
    assert Game.objects.count() > games_before
