"""A private league's events stay out of a series (issue 43, a red-team break): a store that
tries to count one is refused with the reason, and one counted anyway (before the rule, or
its league made private since) is never read by an anonymous visitor on the series' season
page or its CSV, while the league itself answers 404."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from leagues.models import League, Role
from seasons.models import SeasonEvent, SeasonStanding
from seasons.qualification import qualification_invite
from seasons.series import invitation_decide, series_create, series_events_set, series_invite
from seasons.services import SeasonError, season_catch_up, season_create
from tests.factories import LeagueFactory, OrganizationFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.models import Entry
from tournaments.services.events import tournament_create

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 20)


@pytest.fixture
def world(django_capture_on_commit_callbacks):
    a = OrganizationFactory(name="Alpha Games", slug="alpha")
    b = OrganizationFactory(name="Beta Cards", slug="beta")
    a_owner = organizer_of(a, role=Role.OWNER, username="a-owner")
    b_owner = organizer_of(b, role=Role.OWNER, username="b-owner")
    private = LeagueFactory(organization=b, slug="b-private", name="Staff", is_public=False)
    public = LeagueFactory(organization=a, slug="a-open", is_public=True)
    series = series_create(organization=a, name="Coast Cup", by=a_owner)
    member = series_invite(series=series, organization=b, by=a_owner)
    invitation_decide(member=member, accept=True, by=b_owner)
    season = season_create(
        series=series,
        name="Cup 2026",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )
    with django_capture_on_commit_callbacks(execute=True):
        secret = tournament_create(
            league=private, name="Secret Friday", format="1v1", date=DAY, confirm_date=True
        )
        register(secret, "Bea Hidden", "Bo Hidden")
        open_night = tournament_create(
            league=public, name="Alpha night", format="1v1", date=DAY, confirm_date=True
        )
        register(open_night, "Al Open", "Ann Open")
        series_events_set(
            season=season, organization=a, choices={open_night.pk: season.event_types.get().pk}
        )
        play_round(open_night)
        play_round(secret)
    return {
        "a": a,
        "b": b,
        "b_owner": b_owner,
        "member": member,
        "private": private,
        "season": season,
        "secret": secret,
    }


def public_reads(season) -> str:
    page = Client().get(reverse("series_season", args=["coast-cup", season.pk]))
    csv = Client().get(reverse("series_season_export", args=["coast-cup", season.pk]))
    assert page.status_code == 200 and csv.status_code == 200
    return page.content.decode() + csv.content.decode()


def test_a_store_is_refused_counting_its_private_leagues_event_with_the_reason(world):
    season, secret = world["season"], world["secret"]
    with pytest.raises(SeasonError) as refused:
        series_events_set(
            season=season,
            organization=world["b"],
            choices={secret.pk: season.event_types.get().pk},
        )
    assert refused.value.code == "private_league"
    assert refused.value.field == f"event_{secret.pk}"
    assert "Secret Friday" in refused.value.message and "Staff" in refused.value.message
    assert "private" in refused.value.message
    assert not SeasonEvent.objects.filter(tournament=secret).exists()


def test_the_choose_page_leaves_a_private_event_out_and_says_why(world):
    season, secret = world["season"], world["secret"]
    owner = Client()
    owner.force_login(world["b_owner"])
    url = reverse("store_series_events", args=["beta", world["member"].pk, season.pk])
    page = owner.get(url).content.decode()
    assert f'name="event_{secret.pk}"' not in page
    assert "Secret Friday" in page and "private league" in page  # told, not silently missing
    response = owner.post(url, {f"event_{secret.pk}": str(season.event_types.get().pk)})
    assert response.status_code == 302
    assert not SeasonEvent.objects.filter(tournament=secret).exists()
    assert "Bea Hidden" not in public_reads(season)


def test_an_anonymous_visitor_reads_no_private_players_on_the_page_or_the_csv(
    world, django_capture_on_commit_callbacks
):
    """As the break was made: the event counted while it could be, its league private now
    (a queryset update sends no signal: the stored table still holds the event)."""
    season, secret, private = world["season"], world["secret"], world["private"]
    League.objects.filter(pk=private.pk).update(is_public=True)
    with django_capture_on_commit_callbacks(execute=True):
        series_events_set(
            season=season,
            organization=world["b"],
            choices={secret.pk: season.event_types.get().pk},
        )
    assert "Bea Hidden" in public_reads(season)  # a public league's event is published
    League.objects.filter(pk=private.pk).update(is_public=False)
    assert SeasonStanding.objects.filter(season=season, player__name="Bea Hidden").exists()
    text = public_reads(season)
    for hidden in ("Bea Hidden", "Bo Hidden", "Secret Friday"):
        assert hidden not in text, hidden
    assert "Al Open" in text and "Alpha night" in text  # the public events stay
    assert Client().get(reverse("league_detail", args=["b-private"])).status_code == 404
    # The store is told, beside the event it chose then.
    owner = Client()
    owner.force_login(world["b_owner"])
    url = reverse("store_series_events", args=["beta", world["member"].pk, season.pk])
    assert "Staff is private now" in owner.get(url).content.decode()


def test_a_league_made_private_leaves_the_series_table_at_once(
    world, django_capture_on_commit_callbacks
):
    season, secret, private = world["season"], world["secret"], world["private"]
    League.objects.filter(pk=private.pk).update(is_public=True)
    with django_capture_on_commit_callbacks(execute=True):
        series_events_set(
            season=season,
            organization=world["b"],
            choices={secret.pk: season.event_types.get().pk},
        )
    private.refresh_from_db()
    private.is_public = False
    with django_capture_on_commit_callbacks(execute=True):
        private.save()  # as the admin saves it
    names = set(SeasonStanding.objects.filter(season=season).values_list("player__name", flat=True))
    assert names == {"Al Open", "Ann Open"}
    season_catch_up(season_id=season.pk)  # a later catch-up keeps it out
    assert not SeasonStanding.objects.filter(season=season, player__name="Bea Hidden").exists()


def test_the_hosts_final_invites_no_private_leagues_player(
    world, django_capture_on_commit_callbacks
):
    """The table stored while the event counted (its league private since, no signal): the
    host's "Invite the top to a final" reads it without the private league's players."""
    season, secret, private = world["season"], world["secret"], world["private"]
    League.objects.filter(pk=private.pk).update(is_public=True)
    with django_capture_on_commit_callbacks(execute=True):
        series_events_set(
            season=season,
            organization=world["b"],
            choices={secret.pk: season.event_types.get().pk},
        )
    League.objects.filter(pk=private.pk).update(is_public=False)
    a_league = League.objects.get(slug="a-open")
    final = tournament_create(league=a_league, name="Cup final", date=datetime.date(2026, 12, 30))
    with django_capture_on_commit_callbacks(execute=True):
        done = qualification_invite(season=season, final=final, top=8)
    names = set(Entry.objects.filter(tournament=final).values_list("player__name", flat=True))
    assert names == {"Al Open", "Ann Open"}
    told = done.registered + done.already + [name for name, _ in done.skipped]
    assert not [name for name in told if "Hidden" in name], told  # nor named to the host
