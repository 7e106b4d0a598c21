"""The rating settings form against hostile values in every field of every system.

A refused value is a 400 with the error on its field, and the league keeps its rating system
and parameters (and every row: nothing is re-rated); never a 500.
"""

import pytest
from django.urls import reverse

from ratings.forms import RatingSettingsForm
from ratings.models import LeagueRating
from tests.forms import error_summary
from tests.hostile import HOSTILE_VALUES, ID_VALUES, row_counts

pytestmark = pytest.mark.django_db


def base_data() -> dict:
    """The form as first shown (every system's defaults), as a browser would post it."""
    form = RatingSettingsForm(current_system="guildmaster", current_params={})
    data = {}
    for name, field in form.fields.items():
        if field.initial is None or field.initial is False:
            continue
        data[name] = "on" if field.initial is True else str(field.initial)
    return data


NUMBERS = {
    key: HOSTILE_VALUES[key]
    for key in ("huge-negative", "float-overflow", "nan", "inf", "formula", "bad-date")
}
FIELDS = [
    name
    for name in RatingSettingsForm(current_system="guildmaster", current_params={}).fields
    if name != "system"
]


def settings_of(league):
    row = LeagueRating.objects.filter(league=league).values("system", "params").first()
    return row


@pytest.mark.parametrize("field", FIELDS)
def test_each_parameter(organizer_client, league, field):
    url = reverse("rating_settings", kwargs={"slug": league.slug})
    system = field.split("__")[0]
    # Numbers, checkboxes and choices: the values that test a number's parsing and range;
    # the JSON text box (k_bands): every value.
    values = HOSTILE_VALUES if field.endswith("bands") else {**ID_VALUES, **NUMBERS}
    for key, value in values.items():
        before, stored = row_counts(), settings_of(league)
        response = organizer_client.post(url, {**base_data(), "system": system, field: value})
        assert response.status_code in (302, 400), (key, field)
        if response.status_code == 400:
            assert response.context["form"].errors, (key, field)
            assert row_counts() == before, (key, field)
            assert settings_of(league) == stored, (key, field)


def test_the_system_choice(organizer_client, league):
    url = reverse("rating_settings", kwargs={"slug": league.slug})
    for key, value in ID_VALUES.items():
        before = row_counts()
        response = organizer_client.post(url, {**base_data(), "system": value})
        assert response.status_code == 400, key
        assert "system" in response.context["form"].errors, key
        assert 'href="#id_system"' in error_summary(response.content.decode()), key
        assert row_counts() == before, key
