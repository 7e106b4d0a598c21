"""One translation of a refusal: an htmx fragment with its status and where it goes, a form
error on its field, or a page message and a redirect; and htmx told to swap 400 and 409."""

import json
import re

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import RequestFactory
from django.urls import reverse
from django_htmx.middleware import HtmxDetails

from core.errors import ConflictError, DomainError
from core.errors_http import error_response
from leagues.services import GameConflict, LeagueError


def request_for(*, htmx: bool):
    headers = {"HX-Request": "true"} if htmx else {}
    request = RequestFactory().post("/somewhere/", headers=headers)
    request.htmx = HtmxDetails(request)
    request._messages = CookieStorage(request)
    return request


class NameForm(forms.Form):
    name = forms.CharField(required=False)


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (LeagueError("A player needs a name.", field="name", code="empty_name"), 400),
        (GameConflict(game=None, message="This game was deleted meanwhile."), 409),
        (ConflictError(message="Someone entered this pod first."), 409),
    ],
)
def test_htmx_gets_the_error_fragment_with_its_status_and_where_it_goes(error, status):
    response = error_response(
        request_for(htmx=True), error, target="#pod-3 .pod-errors", swap="outerHTML"
    )
    assert response.status_code == status
    assert response["HX-Retarget"] == "#pod-3 .pod-errors"
    assert response["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert "<html" not in html and "<body" not in html  # a fragment, not a page
    assert error.message in html and f'data-code="{error.code}"' in html
    assert 'role="alert"' in html


def test_htmx_without_a_target_leaves_the_swap_to_the_request():
    response = error_response(request_for(htmx=True), DomainError(message="No."), status=422)
    assert response.status_code == 422
    assert "HX-Retarget" not in response and "HX-Reswap" not in response


def test_a_form_gets_the_message_on_the_field_it_names_or_on_top():
    form = NameForm(data={"name": ""})
    assert form.is_valid()
    request = request_for(htmx=False)
    error = LeagueError("A player needs a name.", field="name", code="empty_name")
    response = error_response(
        request, error, form=form, template="errors/domain_error.html", prefix="Not saved: "
    )
    assert response.status_code == 400
    assert form.errors == {"name": ["A player needs a name."]}
    assert "Not saved: A player needs a name." in response.content.decode()
    other = NameForm(data={"name": "x"})
    other.is_valid()
    error_response(
        request,
        LeagueError("Not here.", field="players"),
        form=other,
        template="errors/domain_error.html",
    )
    assert other.non_field_errors() == ["Not here."]


def test_a_normal_post_without_a_page_gets_a_message_and_a_redirect():
    request = request_for(htmx=False)
    error = GameConflict(game=None, message="This game was deleted meanwhile.")
    response = error_response(request, error, redirect_to="/games/", prefix="Not undone: ")
    assert (response.status_code, response["Location"]) == (302, "/games/")
    assert [str(m) for m in get_messages(request)] == [
        "Not undone: This game was deleted meanwhile."
    ]
    with pytest.raises(ValueError):
        error_response(request, error)  # neither a page nor a place to go


def resolve(rules: list[dict], status: int) -> dict:
    """htmx 2's resolveResponseHandling: the first rule whose `code` regex matches."""
    return next((r for r in rules if re.search(r["code"], str(status))), {"swap": False})


@pytest.mark.django_db
def test_htmx_is_configured_to_swap_400_and_409_but_not_other_errors(client):
    page = client.get(reverse("home")).content.decode()
    content = re.search(r"<meta name=\"htmx-config\" content='([^']*)'>", page).group(1)
    config = json.loads(content)
    assert config["allowEval"] is False  # the CSP forbids eval; still off
    rules = config["responseHandling"]
    for status in (200, 302, 400, 409):
        assert resolve(rules, status)["swap"] is True, status
    for status in (204, 403, 404, 410, 500):
        assert resolve(rules, status)["swap"] is False, status
