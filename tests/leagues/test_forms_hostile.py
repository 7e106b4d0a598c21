"""The game entry form (new game and correction) against hostile values in every field.

Each field of a valid post is replaced by one hostile value (tests/hostile.py). The answer is
400 with the error on the form and no row written, or (for text that is merely odd, such as
a formula-looking name) a saved game; never a 500.
"""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues.models import Game, Player
from tests.factories import GameFactory, PlayerFactory
from tests.hostile import HOSTILE_VALUES, REFUSED_BY_KIND, form_errors, row_counts

pytestmark = pytest.mark.django_db

BASE = {
    "played_on": "2026-11-20",
    "player_0": "Ann",
    "player_1": "Bob",
    "add_new_players": "on",
    "notes": "",
}
FIELDS = {
    "played_on": "date",
    "player_0": "name",
    "player_1": "name",
    "seat_0": "count",
    "tied_1": "checkbox",
    "notes": "text",
}


@pytest.fixture
def game(league):
    ann, bob = (PlayerFactory(organization=league.organization, name=n) for n in ("Ann", "Bob"))
    return GameFactory(league=league, players=[ann, bob], played_on=datetime.date(2026, 11, 1))


def post_and_check(client, url, data, *, value_key, field, kind):
    before = row_counts()
    response = client.post(url, data)

    assert response.status_code in (302, 400), response.status_code
    if response.status_code == 400:
        errors = form_errors(response)
        assert errors, "a refused form names what is wrong"
        assert row_counts() == before
    else:
        assert value_key not in REFUSED_BY_KIND[kind], f"{value_key} in {field} was accepted"
        assert all("\x00" not in p.name and len(p.name) <= 100 for p in Player.objects.all())
    return response


NEW_GAME_CASES = [
    (field, value_key)
    for field, kind in FIELDS.items()
    for value_key in HOSTILE_VALUES
    # A checkbox is ticked by anything: three values show it never breaks.
    if kind != "checkbox" or value_key in ("10k-chars", "nul", "huge")
]


@pytest.mark.parametrize(("field", "value_key"), NEW_GAME_CASES)
def test_new_game_form(organizer_client, league, field, value_key):
    url = reverse("game_create", kwargs={"slug": league.slug})
    data = {**BASE, field: HOSTILE_VALUES[value_key]}

    post_and_check(
        organizer_client, url, data, value_key=value_key, field=field, kind=FIELDS[field]
    )


# The correction form is the same form: a few values per field show it changes nothing.
CORRECTION_VALUES = ["10k-chars", "nul", "bell", "huge", "bad-date", "superscript-digit"]


@pytest.mark.parametrize("field", ["played_on", "player_0", "seat_0", "notes"])
@pytest.mark.parametrize("value_key", CORRECTION_VALUES)
def test_correction_form(organizer_client, game, field, value_key):
    url = reverse("game_edit", kwargs={"pk": game.pk})
    data = {**BASE, field: HOSTILE_VALUES[value_key]}

    def stored():
        game.refresh_from_db()
        results = list(game.results.values_list("player__name", "placement").order_by("placement"))
        return (game.played_on, game.notes, results)

    before = stored()

    response = post_and_check(
        organizer_client, url, data, value_key=value_key, field=field, kind=FIELDS[field]
    )

    if response.status_code == 400:
        assert stored() == before


@pytest.mark.parametrize(
    "key", ["player_²", "player_٣", "player_" + "9" * 5000, "player_-1", "seat_²", "player_"]
)
def test_odd_row_keys_are_ignored_or_refused(organizer_client, league, key):
    url = reverse("game_create", kwargs={"slug": league.slug})

    response = organizer_client.post(url, {**BASE, key: "Cy"})

    assert response.status_code in (302, 400)
    assert Game.objects.count() <= 1


@pytest.mark.parametrize("index", ["²", "9" * 5000, "-5", "nan", ""])
def test_the_add_row_fragment_refuses_odd_indexes(organizer_client, league, index):
    url = reverse("game_form_row", kwargs={"slug": league.slug})

    assert organizer_client.get(url, {"index": index}).status_code == 400


@pytest.mark.parametrize("action", ["", "drop-table", "x" * 10_000, "\x00"])
def test_an_unknown_import_action_changes_nothing(organizer_client, league, action):
    upload_url = reverse("import_upload", kwargs={"slug": league.slug})

    uploaded = organizer_client.post(
        upload_url, {"file": SimpleUploadedFile("g.csv", b",2024-01-01,Ann,Bob\n", "text/csv")}
    )
    before = row_counts()

    response = organizer_client.post(uploaded["Location"], {"action": action})

    assert response.status_code in (200, 400)
    assert row_counts() == before
