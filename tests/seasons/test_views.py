"""Season pages: what players read, what organizers change, and bad input changing nothing."""

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from leagues.models import Role
from seasons.models import EventType, Season, SeasonEvent
from tests.factories import UserFactory, organizer_of

from .conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def organizer(league):
    client = Client()
    client.force_login(organizer_of(league.organization, role=Role.ORGANIZER))
    return client


@pytest.fixture
def played(season, event_in, django_capture_on_commit_callbacks):
    event = event_in(season)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event)
    return event


def url(name, season, *args):
    return reverse(name, args=[season.league.slug, season.pk, *args])


def test_the_table_its_players_and_types_for_a_visitor(client, season, played):
    page = client.get(url("season_detail", season))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Winter" in text and "Friday" in text and "in progress" in text
    assert "Choose events" not in text  # not for a visitor
    standing = season.standings.order_by("position").first()
    page = client.get(url("season_player", season, standing.player_id))
    assert page.status_code == 200
    assert "Counts: every Store night finish counts" in page.content.decode()
    page = client.get(url("season_types", season))
    assert "Plus 1 for entering, 3 for each win, 1 for each draw, 3 for each bye." in (
        page.content.decode()
    )
    page = client.get(reverse("season_list", args=[season.league.slug]))
    assert "Winter" in page.content.decode()


def test_the_csv_has_the_table_and_escapes_formulas(client, season, played):
    player = season.standings.order_by("position").first().player
    player.name = "=HYPERLINK(1)"
    player.save(update_fields=["name"])
    response = client.get(url("season_export", season))
    lines = response.content.decode().splitlines()
    assert lines[0] == "rank,tied,player,points,events_counted,events_played"
    assert len(lines) == 9
    assert "'=HYPERLINK(1)" in response.content.decode()


def test_an_organizer_creates_a_season_from_a_published_system(organizer, league):
    response = organizer.post(
        reverse("season_new", args=[league.slug]),
        {
            "name": "Spring",
            "starts_on": "2026-03-01",
            "ends_on": "2026-05-31",
            "tiebreak_1": "best_single_finish",
            "preset": "limitless",
        },
    )
    season = Season.objects.get(name="Spring")
    assert response.status_code == 302
    assert response["Location"] == url("season_events", season)
    assert season.tiebreaks == ["best_single_finish"]
    (kind,) = season.event_types.all()
    assert kind.best_finishes == 10 and kind.placings[4] == [32, 6, 128]


def test_create_pressed_twice_makes_one_season(organizer, league):
    data = {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-05-31", "preset": ""}
    first = organizer.post(reverse("season_new", args=[league.slug]), data)
    second = organizer.post(reverse("season_new", args=[league.slug]), data)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    assert Season.objects.count() == 1
    # Another season with a name already taken is refused, with the field.
    data["starts_on"] = "2026-04-01"
    third = organizer.post(reverse("season_new", args=[league.slug]), data)
    assert third.status_code == 400
    assert "already has a season" in third.content.decode()


def test_a_season_ending_before_it_starts_changes_nothing(organizer, league):
    response = organizer.post(
        reverse("season_new", args=[league.slug]),
        {"name": "Spring", "starts_on": "2026-05-01", "ends_on": "2026-03-01", "preset": ""},
    )
    assert response.status_code == 400
    assert "The season ends (2026-03-01) before it starts (2026-05-01)." in (
        response.content.decode()
    )
    assert not Season.objects.exists()


@pytest.mark.parametrize(
    ("placings", "message"),
    [
        (
            "1 = 20\n2 = 16\n4 = 18",
            "row 3 (down to place 4): pays 18, more than the better places above (16).",
        ),
        ("1 = 20\n1 = 16", "each row must reach a lower place than the row above (1)."),
        ("1 = 20\n32 = 6 if more than 0 players", "a kicker needs the number of players"),
        ("first = 20", 'Line 1 ("first = 20"): write it as'),
    ],
)
def test_a_bad_point_table_says_which_row_and_changes_nothing(organizer, season, placings, message):
    kind = season.event_types.get()
    before = EventType.objects.values().get(pk=kind.pk)
    response = organizer.post(
        url("event_type_edit", season, kind.pk),
        {
            "name": "Store night",
            "placings": placings,
            "entering": 1,
            "per_round": 0,
            "per_win": 3,
            "per_draw": 1,
            "per_bye": 3,
        },
    )
    assert response.status_code == 400
    text = response.content.decode()
    assert message.replace("'", "&#x27;").replace('"', "&quot;") in text
    assert 'href="#id_placings"' in text  # the summary links to the field at fault
    assert EventType.objects.values().get(pk=kind.pk) == before
    assert not AuditEntry.objects.filter(action="season.type_change").exists()


def test_a_point_table_change_is_saved_twice_safely(organizer, season, played):
    kind = season.event_types.get()
    data = {
        "name": "Store night",
        "placings": "1 = 10\n4 = 5 if more than 6 players",
        "best_finishes": "3",
        "entering": 1,
        "per_round": 0,
        "per_win": 3,
        "per_draw": 1,
        "per_bye": 3,
    }
    for _ in range(2):
        response = organizer.post(url("event_type_edit", season, kind.pk), data)
        assert response.status_code == 302
    kind.refresh_from_db()
    assert kind.placings == [[1, 10, None], [4, 5, 6]]
    assert AuditEntry.objects.filter(action="season.type_change").count() == 1
    assert max(season.standings.values_list("points", flat=True)) == 14  # 1 + 3 + 10


def test_choosing_events(organizer, season, played):
    kind = season.event_types.get()
    field = f"event_{played.pk}"
    page = organizer.get(url("season_events", season))
    assert f'name="{field}"' in page.content.decode()
    response = organizer.post(url("season_events", season), {field: ""})
    assert response.status_code == 302
    assert not SeasonEvent.objects.exists()
    assert not season.standings.exists()
    response = organizer.post(url("season_events", season), {field: str(kind.pk)})
    assert SeasonEvent.objects.get().event_type == kind
    assert season.standings.count() == 8
    response = organizer.post(url("season_events", season), {field: "999999"})
    assert response.status_code == 400


def test_choosing_events_with_none_in_the_seasons_dates_says_how_to_make_one(organizer, season):
    page = organizer.get(url("season_events", season)).content.decode()
    empty = page.split('<div class="empty-state">')[1].split("</div>")[0]
    assert "<strong>No events in the season's dates</strong>" in empty
    assert "no events between 1 Jan 2026 and 31 Dec 2026" in empty
    assert f'href="{reverse("event_create", args=[season.league.slug])}"' in empty
    assert f'href="{url("season_edit", season)}"' in empty


def test_a_type_in_use_is_not_removed(organizer, season, played):
    kind = season.event_types.get()
    response = organizer.post(url("event_type_remove", season, kind.pk), follow=True)
    assert "move them to another type first" in response.content.decode()
    assert EventType.objects.filter(pk=kind.pk).exists()


def test_a_judge_may_not_change_a_season(season):
    client = Client()
    client.force_login(organizer_of(season.league.organization, role=Role.JUDGE))
    assert client.get(url("season_edit", season)).status_code == 403
    stranger = Client()
    stranger.force_login(UserFactory())
    assert stranger.get(url("season_detail", season)).status_code == 200  # public league


def test_a_new_event_type_and_the_qualify_page_for_the_organizers_only(organizer, season, client):
    data = {
        "name": "Prerelease",
        "placings": "1 = 8\n2 = 4",
        "entering": 1,
        "per_round": 0,
        "per_win": 0,
        "per_draw": 0,
        "per_bye": 0,
    }
    response = organizer.post(url("event_type_new", season), data)
    assert response.status_code == 302
    assert response["Location"] == url("season_types", season)
    assert set(season.event_types.values_list("name", flat=True)) == {"Store night", "Prerelease"}
    assert organizer.get(url("event_type_edit", season, 999999)).status_code == 404
    page = organizer.get(url("season_qualify", season))
    assert page.status_code == 200
    assert season.get_absolute_url() in page.content.decode()  # the way back
    visitor = Client()
    visitor.force_login(UserFactory())
    for name in ("season_qualify", "event_type_new"):
        assert visitor.get(url(name, season)).status_code == 403
