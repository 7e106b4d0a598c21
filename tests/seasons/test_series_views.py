"""Series pages: what anyone reads, what a store's owner answers, what the host runs."""

import datetime
import html

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from leagues.models import Player, Role
from seasons.models import SeasonEvent, SeriesLink, SeriesMember
from seasons.series import (
    invitation_decide,
    series_create,
    series_events_set,
    series_invite,
    series_leave,
)
from seasons.services import season_create
from tests.factories import LeagueFactory, OrganizationFactory, UserFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.models import Entry
from tournaments.services.events import tournament_create

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 20)


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def world(django_capture_on_commit_callbacks):
    a = OrganizationFactory(name="Alpha Games", slug="alpha")
    b = OrganizationFactory(name="Beta Cards", slug="beta")
    a_owner = organizer_of(a, role=Role.OWNER, username="a-owner")
    b_owner = organizer_of(b, role=Role.OWNER, username="b-owner")
    b_organizer = organizer_of(b, role=Role.ORGANIZER, username="b-org")
    # A public league: a private league's events never count in a series (test_series_private).
    b_league = LeagueFactory(organization=b, slug="b-league", is_public=True)
    series = series_create(organization=a, name="Coast Cup", by=a_owner)
    member = series_invite(series=series, organization=b, by=a_owner)
    season = season_create(
        series=series,
        name="Cup 2026",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )
    with django_capture_on_commit_callbacks(execute=True):
        event = tournament_create(
            league=b_league, name="Beta Friday", format="1v1", date=DAY, confirm_date=True
        )
        register(event, "Bea", "Bo")
    return {
        "a": a,
        "b": b,
        "a_owner": a_owner,
        "b_owner": b_owner,
        "b_organizer": b_organizer,
        "series": series,
        "member": member,
        "season": season,
        "event": event,
    }


def test_only_the_invited_stores_owner_accepts_from_the_page(world):
    url = reverse("series_invitation_accept", args=["beta", world["member"].pk])
    superuser = UserFactory(is_superuser=True, is_staff=True)
    for user, status in (
        (world["b_organizer"], 403),
        (world["a_owner"], 404),  # the host's owner is not on store B's staff
        (superuser, 403),
        (UserFactory(), 404),
    ):
        assert client_for(user).post(url).status_code == status, user
    world["member"].refresh_from_db()
    assert world["member"].status == "invited"
    owner = client_for(world["b_owner"])
    page = owner.get(reverse("store_series", args=["beta"]))
    assert b"Coast Cup" in page.content and b"Accept" in page.content
    response = owner.post(url)
    assert response.status_code == 302
    world["member"].refresh_from_db()
    assert world["member"].status == "accepted"
    assert owner.post(url).status_code == 302  # pressed twice: told, nothing changes
    # An organizer of B sees the invitation but no buttons.
    series_invite(
        series=series_create(organization=world["a"], name="Other"), organization=world["b"]
    )
    page = client_for(world["b_organizer"]).get(reverse("store_series", args=["beta"]))
    assert b"An owner of Beta Cards accepts or declines" in page.content


def test_a_store_counts_its_events_and_the_series_publishes_names_dates_standings(
    world, django_capture_on_commit_callbacks
):
    invitation_decide(member=world["member"], accept=True, by=world["b_owner"])
    season, event = world["season"], world["event"]
    url = reverse("store_series_events", args=["beta", world["member"].pk, season.pk])
    organizer = client_for(world["b_organizer"])
    assert organizer.get(url).status_code == 200
    kind = season.event_types.get()
    with django_capture_on_commit_callbacks(execute=True):
        response = organizer.post(url, {f"event_{event.pk}": str(kind.pk)})
    assert response.status_code == 302
    assert SeasonEvent.objects.filter(season=season, tournament=event).exists()
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event)
    page = Client().get(reverse("series_season", args=["coast-cup", season.pk]))
    text = page.content.decode()
    assert "Beta Friday" in text and "Bea" in text and "Beta Cards" in text
    # No page of the store's league or event is linked from the series.
    assert reverse("event_detail", args=[event.slug]) not in text
    assert "/leagues/b-league/" not in text
    csv = Client().get(reverse("series_season_export", args=["coast-cup", season.pk]))
    assert b"Bea" in csv.content


def test_a_store_that_left_keeps_its_past_events_marked_on_the_public_pages(
    world, django_capture_on_commit_callbacks
):
    invitation_decide(member=world["member"], accept=True, by=world["b_owner"])
    season, event = world["season"], world["event"]
    with django_capture_on_commit_callbacks(execute=True):
        series_events_set(
            season=season,
            organization=world["b"],
            choices={event.pk: season.event_types.get().pk},
        )
        play_round(event)
    season_url = reverse("series_season", args=["coast-cup", season.pk])
    series_url = reverse("series_detail", args=["coast-cup"])
    assert "store left the series" not in Client().get(season_url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert series_leave(member=world["member"], by=world["b_owner"]) == []  # it was past
    text = Client().get(season_url).content.decode()
    line = next(li for li in text.split("<li>") if "Beta Friday" in li)
    assert "store left the series" in line  # the event stays, marked
    assert "Bea" in text  # and its players still count in the table
    page = Client().get(series_url).content.decode()
    store = next(li for li in page.split("<li>") if "Beta Cards" in li)
    left = timezone.localtime(SeriesMember.objects.get(pk=world["member"].pk).left_at)
    assert f"left {left:%-d %b %Y}" in store


def test_store_a_may_not_choose_store_bs_events(world):
    invitation_decide(member=world["member"], accept=True, by=world["b_owner"])
    a_member = SeriesMember.objects.get(series=world["series"], organization=world["a"])
    url = reverse("store_series_events", args=["alpha", a_member.pk, world["season"].pk])
    kind = world["season"].event_types.get()
    response = client_for(world["a_owner"]).post(url, {f"event_{world['event'].pk}": kind.pk})
    assert response.status_code == 302  # the form lists only Alpha's events: "nothing to change"
    assert not SeasonEvent.objects.exists()
    # Nor store B's membership from store A's address.
    url = reverse("store_series_events", args=["alpha", world["member"].pk, world["season"].pk])
    assert client_for(world["a_owner"]).get(url).status_code == 404


def test_the_host_invites_links_and_qualifies(world, django_capture_on_commit_callbacks):
    host = client_for(world["a_owner"])
    c = OrganizationFactory(name="Gamma Den", slug="gamma")
    url = reverse("series_invite", args=["coast-cup"])
    assert host.post(url, {"store": "gamma"}).status_code == 302
    assert host.post(url, {"store": "gamma"}).status_code == 302  # twice: told
    assert SeriesMember.objects.filter(organization=c, status="invited").count() == 1
    assert host.post(url, {"store": "nowhere"}).status_code == 400
    # A store's organizer is refused the host's pages.
    assert (
        client_for(world["b_organizer"])
        .get(reverse("series_manage", args=["coast-cup"]))
        .status_code
        == 403
    )
    invitation_decide(member=world["member"], accept=True, by=world["b_owner"])
    a_league = LeagueFactory(organization=world["a"], slug="a-league")
    season = world["season"]
    kind = season.event_types.get()
    with django_capture_on_commit_callbacks(execute=True):
        a_event = tournament_create(
            league=a_league, name="Alpha night", format="1v1", date=DAY, confirm_date=True
        )
        register(a_event, "Bea", "Al")
        series_events_set(season=season, organization=world["a"], choices={a_event.pk: kind.pk})
        series_events_set(
            season=season, organization=world["b"], choices={world["event"].pk: kind.pk}
        )
    with django_capture_on_commit_callbacks(execute=True):
        play_round(a_event)
        play_round(world["event"])
    bea_a = Player.objects.get(organization=world["a"], name="Bea")
    bea_b = Player.objects.get(organization=world["b"], name="Bea")
    links = reverse("series_links", args=["coast-cup"])
    assert host.get(links).status_code == 200
    response = host.post(links, {"player": bea_b.pk, "same_as": bea_a.pk})
    assert response.status_code == 302
    assert SeriesLink.objects.filter(player=bea_b, same_as=bea_a).exists()
    final = tournament_create(league=a_league, name="Cup final", date=datetime.date(2026, 12, 30))
    qualify = reverse("series_qualify", args=["coast-cup", season.pk])
    assert host.get(qualify).status_code == 200
    for _ in range(2):  # safe to press twice
        response = host.post(qualify, {"final": final.pk, "top": 1})
        assert response.status_code == 200
    assert Entry.objects.filter(tournament=final).count() >= 1
    names = set(Entry.objects.filter(tournament=final).values_list("player__name", flat=True))
    assert len(names) == Entry.objects.filter(tournament=final).count()


@pytest.mark.parametrize(
    "typed",
    [
        "/stores/gamma-den/",  # the address, as the docs give it
        "stores/gamma-den",
        "http://testserver/stores/gamma-den/",  # the whole URL, copied from the browser
        "https://guildhall.example/stores/gamma-den/?from=home#events",
        "guildhall.example/stores/gamma-den",
        "  gamma-den  ",  # the slug
        "Gamma-Den",
    ],
)
def test_the_host_invites_a_store_by_its_address_its_url_or_its_slug(world, typed):
    gamma = OrganizationFactory(name="Gamma Den", slug="gamma-den")
    response = client_for(world["a_owner"]).post(
        reverse("series_invite", args=["coast-cup"]), {"store": typed}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert SeriesMember.objects.filter(organization=gamma, status="invited").count() == 1


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("/stores/nowhere/", "No store at /stores/nowhere/"),
        ("/events/alpha-friday/", "is not a store's address"),
        ("https://guildhall.example/", "is not a store's address"),
        ("gamma den", "is not a store's address"),
    ],
)
def test_an_address_that_is_no_store_is_refused_with_the_reason(world, typed, said):
    response = client_for(world["a_owner"]).post(
        reverse("series_invite", args=["coast-cup"]), {"store": typed}
    )
    assert response.status_code == 400
    assert said in html.unescape(response.content.decode())
    assert SeriesMember.objects.filter(series=world["series"]).count() == 2


def test_the_host_creates_a_season_once_and_sets_its_point_tables(world):
    host = client_for(world["a_owner"])
    new = reverse("series_season_new", args=["coast-cup"])
    data = {"name": "Cup 2027", "starts_on": "2027-01-01", "ends_on": "2027-12-31", "preset": ""}
    first, second = host.post(new, data), host.post(new, data)  # "Create" pressed twice
    season = world["series"].seasons.get(name="Cup 2027")
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"] == season.get_absolute_url()
    told = [m.message for m in second.wsgi_request._messages]
    assert told[-1] == "Cup 2027 is already created."
    table = {
        "name": "Store night",
        "placings": "1 = 10\n2 = 6",
        "entering": 1,
        "per_round": 0,
        "per_win": 3,
        "per_draw": 1,
        "per_bye": 3,
    }
    response = host.post(reverse("series_type_new", args=["coast-cup", season.pk]), table)
    assert response.status_code == 302
    assert response["Location"] == season.get_absolute_url()
    kind = season.event_types.get()
    edit = reverse("series_type_edit", args=["coast-cup", season.pk, kind.pk])
    assert host.post(edit, {**table, "placings": "1 = 12"}).status_code == 302
    kind.refresh_from_db()
    assert kind.placings == [[1, 12, None]]
    assert (
        host.get(reverse("series_type_edit", args=["coast-cup", season.pk, 999999])).status_code
        == 404
    )
    # A store taking part does not run the series.
    assert client_for(world["b_owner"]).get(edit).status_code == 403
    assert client_for(world["b_owner"]).post(new, {**data, "name": "Other"}).status_code == 403
