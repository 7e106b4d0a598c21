"""A game cannot be dated more than a day ahead of today (in the store's time zone).

A game dated 2031 topped the game log and moved every 30-day change. Each way a game comes in
refuses it with the field (and for a CSV, the line and column) named, and stores nothing:
the entry form, the correction form, the admin, the JSON API and the CSV import. Tomorrow is
still allowed (a game entered late at night, or from another time zone).
"""

import datetime
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from leagues.domain.csvformat import latest_game_date, parse_games_csv
from leagues.models import ApiToken, Game
from tests.factories import GameFactory, PlayerFactory
from tests.leagues.test_admin import as_user, game_data, url, world  # noqa: F401
from tests.leagues.test_game_views import entry

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
TOMORROW = TODAY + datetime.timedelta(days=1)
LATER = TODAY + datetime.timedelta(days=2)
FAR = datetime.date(2031, 1, 1)


@pytest.fixture
def roster(league):
    return {name: PlayerFactory(organization=league.organization, name=name) for name in "AB"}


def test_the_domain_rule_is_a_day_ahead():
    assert latest_game_date(datetime.date(2026, 12, 31)) == datetime.date(2027, 1, 1)


@pytest.mark.parametrize("day", [LATER, FAR])
def test_the_entry_form_refuses_a_future_date(organizer_client, league, roster, day):
    response = organizer_client.post(
        reverse("game_create", args=[league.slug]), entry("A", "B", played_on=day.isoformat())
    )
    assert response.status_code == 400
    assert "in the future" in response.content.decode()
    assert response.context["form"].errors["played_on"]
    assert not Game.objects.exists()


def test_the_entry_form_takes_tomorrow(organizer_client, league, roster):
    response = organizer_client.post(
        reverse("game_create", args=[league.slug]), entry("A", "B", played_on=TOMORROW.isoformat())
    )
    assert response.status_code == 302
    assert Game.objects.get().played_on == TOMORROW


def test_the_correction_form_refuses_a_future_date(organizer_client, league, roster):
    game = GameFactory(league=league, players=[roster["A"], roster["B"]], played_on=TODAY)
    response = organizer_client.post(
        reverse("game_edit", args=[game.pk]), entry("A", "B", played_on=FAR.isoformat())
    )
    assert response.status_code == 400
    assert response.context["form"].errors["played_on"]
    game.refresh_from_db()
    assert game.played_on == TODAY


def test_the_admin_refuses_a_future_date(client, world):  # noqa: F811
    as_user(client, world.organizer)
    data = game_data(world.league_a, [(world.ann, 1), (world.bob, 2)], played_on=FAR.isoformat())
    response = client.post(url("game", "add"), data)
    assert response.status_code == 200
    assert "in the future" in response.content.decode()
    assert response.context["adminform"].form.errors["played_on"]
    assert not Game.objects.filter(played_on=FAR).exists()


def test_the_api_refuses_a_future_date_with_the_field(client, league, organizer):
    _, token = ApiToken.issue(organization=league.organization, name="bot", by=organizer)
    response = client.post(
        reverse("api_games", args=[league.slug]),
        data=json.dumps({"players": ["A", "B"], "date": FAR.isoformat()}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["field"], error["code"]) == ("date", "future_date")
    assert TOMORROW.isoformat() in error["message"]
    assert not Game.objects.exists()


def test_a_csv_row_in_the_future_is_a_problem_on_its_line_and_column():
    text = f",{TODAY:%Y-%m-%d},A,B\n,{FAR:%m/%d/%Y},A,B\n,{TOMORROW:%Y-%m-%d},B,A\n"
    parsed = parse_games_csv(text, latest=TOMORROW)
    assert [g.line for g in parsed.games] == [1, 3]
    [problem] = parsed.problems
    assert (problem.line, problem.field) == (2, "column B (date)")
    assert "in the future" in problem.message and TOMORROW.isoformat() in problem.message


def test_a_results_csv_row_in_the_future_is_a_problem_too():
    text = f"game_id,date,player,placement\n1,{FAR},A,1\n1,{FAR},B,2\n"
    [problem] = parse_games_csv(text, latest=TOMORROW).problems
    assert (problem.line, problem.field) == (2, "column B (date)")


def test_the_import_command_refuses_a_file_with_a_future_game(league, tmp_path):
    path = tmp_path / "games.csv"
    path.write_text(f",{TODAY},A,B\n,{FAR},A,B\n")
    stderr = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_games", str(path), league=league.slug, stderr=stderr)
    assert "line 2, column B (date): 2031-01-01 is in the future" in stderr.getvalue()
    assert not Game.objects.exists()
