"""seasons.series: a series across stores, its invitations, one person counted once, leaving,
the host's links, and the qualification of a season's top to a final."""

import datetime

import pytest

from audit.models import AuditEntry
from leagues.models import Player, Role
from leagues.services.claims import claim_code_issue, claim_with_code
from notifications.models import Delivery
from seasons.domain.rules import PointTable, SeasonError
from seasons.models import SeasonEvent, SeasonStanding, SeriesMember
from seasons.qualification import qualification_invite
from seasons.series import (
    invitation_decide,
    series_create,
    series_events_set,
    series_invite,
    series_leave,
    series_link,
    series_unlink,
)
from seasons.services import event_type_save, season_create, season_events_set
from tests.factories import LeagueFactory, OrganizationFactory, UserFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.models import Entry, Registration
from tournaments.services.events import tournament_create

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 20)


@pytest.fixture
def stores():
    """Three stores, each with a league, an owner and an organizer."""
    out = {}
    for key, name in (("a", "Alpha Games"), ("b", "Beta Cards"), ("c", "Gamma Den")):
        org = OrganizationFactory(name=name, slug=name.split()[0].lower())
        out[key] = {
            "org": org,
            "league": LeagueFactory(organization=org, slug=f"{key}-league"),
            "owner": organizer_of(org, role=Role.OWNER, username=f"{key}-owner"),
            "organizer": organizer_of(org, role=Role.ORGANIZER, username=f"{key}-org"),
        }
    return out


@pytest.fixture
def series(stores):
    return series_create(organization=stores["a"]["org"], name="Tri-Store Cup")


def accepted(series, store):
    member = series_invite(series=series, organization=store["org"])
    return invitation_decide(member=member, accept=True, by=store["owner"])


@pytest.fixture
def season(series):
    return season_create(
        series=series,
        name="Cup 2026",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )


def first_named_wins(names):
    """A table's winner: the seat of the first of `names` at it (else its first seat)."""

    def decide(table, seats):
        by_name = {seat.entry.player.name: seat.entry for seat in seats}
        return next((by_name[n] for n in names if n in by_name), seats[0].entry)

    return decide


def played_event(store, season, names, django_capture_on_commit_callbacks, date=DAY, rounds=1):
    """A 1v1 event of the store with `names`, counted in the series' season, `rounds` played,
    each table won by whoever is named first in `names`."""
    with django_capture_on_commit_callbacks(execute=True):
        event = tournament_create(
            league=store["league"],
            name=f"{store['org'].name} night {date}",
            format="1v1",
            date=date,
            confirm_date=True,
        )
        register(event, *names)
        kind = season.event_types.get()
        series_events_set(season=season, organization=store["org"], choices={event.pk: kind.pk})
    for _ in range(rounds):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(event, decide=first_named_wins(names))
    return event


def table_of(season):
    return [
        (s.player.name, s.points, s.events_counted)
        for s in SeasonStanding.objects.filter(season=season).select_related("player")
    ]


# --- Invitations --------------------------------------------------------------------------------


def test_the_host_takes_part_from_the_start(series, stores):
    member = SeriesMember.objects.get(series=series)
    assert member.organization == stores["a"]["org"]
    assert member.status == "accepted"
    assert AuditEntry.objects.filter(action="series.create").count() == 1


def test_only_the_invited_stores_owner_accepts(series, stores):
    member = series_invite(series=series, organization=stores["b"]["org"])
    superuser = UserFactory(is_superuser=True, is_staff=True)
    refused = [
        stores["b"]["organizer"],  # the invited store's organizer
        stores["a"]["owner"],  # the host's owner
        stores["c"]["owner"],  # another store's owner
        superuser,
        UserFactory(),
    ]
    for user in refused:
        for accept in (True, False):
            with pytest.raises(SeasonError) as error:
                invitation_decide(member=member, accept=accept, by=user)
            assert error.value.code == "not_owner"
    member.refresh_from_db()
    assert member.status == "invited"
    invitation_decide(member=member, accept=True, by=stores["b"]["owner"])
    member.refresh_from_db()
    assert (member.status, member.decided_by) == ("accepted", stores["b"]["owner"])
    with pytest.raises(SeasonError) as error:  # pressed twice
        invitation_decide(member=member, accept=True, by=stores["b"]["owner"])
    assert error.value.code == "twice"
    assert AuditEntry.objects.filter(
        action="series.accept", organization=stores["b"]["org"]
    ).exists()


def test_a_declined_invitation_is_closed_until_invited_again(series, stores):
    member = series_invite(series=series, organization=stores["b"]["org"])
    invitation_decide(member=member, accept=False, by=stores["b"]["owner"])
    with pytest.raises(SeasonError) as error:
        invitation_decide(member=member, accept=True, by=stores["b"]["owner"])
    assert error.value.code == "decided"
    series_invite(series=series, organization=stores["b"]["org"])
    invitation_decide(member=member, accept=True, by=stores["b"]["owner"])
    member.refresh_from_db()
    assert member.status == "accepted"


def test_inviting_twice_changes_nothing(series, stores):
    series_invite(series=series, organization=stores["b"]["org"])
    with pytest.raises(SeasonError) as error:
        series_invite(series=series, organization=stores["b"]["org"])
    assert error.value.code == "twice"
    assert SeriesMember.objects.filter(series=series).count() == 2


def test_only_accepted_stores_count_their_events(
    series, season, stores, django_capture_on_commit_callbacks
):
    series_invite(series=series, organization=stores["b"]["org"])
    event = tournament_create(league=stores["b"]["league"], name="B night", date=DAY)
    kind = season.event_types.get()
    with pytest.raises(SeasonError) as error:  # invited, not accepted yet
        series_events_set(
            season=season, organization=stores["b"]["org"], choices={event.pk: kind.pk}
        )
    assert error.value.code == "not_taking_part"
    with pytest.raises(SeasonError) as error:  # never invited
        series_events_set(
            season=season, organization=stores["c"]["org"], choices={event.pk: kind.pk}
        )
    assert error.value.code == "not_taking_part"
    invitation_decide(
        member=SeriesMember.objects.get(organization=stores["b"]["org"]),
        accept=True,
        by=stores["b"]["owner"],
    )
    with pytest.raises(SeasonError) as error:  # store A may not choose store B's event
        series_events_set(
            season=season, organization=stores["a"]["org"], choices={event.pk: kind.pk}
        )
    assert error.value.code == "unknown_event"
    assert series_events_set(
        season=season, organization=stores["b"]["org"], choices={event.pk: kind.pk}
    )
    assert SeasonEvent.objects.filter(season=season).count() == 1
    # In the History of the store that chose, naming the series.
    entry = AuditEntry.objects.get(action="season.events")
    assert entry.organization == stores["b"]["org"]
    assert "Tri-Store Cup" in entry.summary and "B night: counts as Store night" in entry.summary


# --- One person across stores -------------------------------------------------------------------


def test_three_stores_with_one_shared_player_count_them_once(
    series, season, stores, django_capture_on_commit_callbacks
):
    accepted(series, stores["b"])
    accepted(series, stores["c"])
    sam = UserFactory(username="sam")
    others = {key: [f"{key.upper()}{n}" for n in range(3)] for key in stores}
    for key, store in stores.items():
        Player.objects.create(organization=store["org"], name="Sam", user=sam)
        played_event(store, season, ["Sam", *others[key]], django_capture_on_commit_callbacks)
    rows = table_of(season)
    names = [name for name, _, _ in rows]
    assert names.count("Sam") == 1
    assert len(rows) == 1 + 9  # Sam once, and the nine others
    (sam_row,) = [row for row in rows if row[0] == "Sam"]
    assert sam_row[2] == 3  # three events counted, one per store
    # Sam sits first at each event and wins round 1: 1 for entering + 3 for the win, 3 times.
    assert sam_row[1] == 12


def test_players_without_an_account_stay_apart_until_the_host_links_them(
    series, season, stores, django_capture_on_commit_callbacks
):
    accepted(series, stores["b"])
    played_event(stores["a"], season, ["Dana", "A1"], django_capture_on_commit_callbacks)
    played_event(stores["b"], season, ["Dana", "B1"], django_capture_on_commit_callbacks)
    assert [name for name, _, _ in table_of(season)].count("Dana") == 2  # same name: no guess
    dana_a = Player.objects.get(organization=stores["a"]["org"], name="Dana")
    dana_b = Player.objects.get(organization=stores["b"]["org"], name="Dana")
    link = series_link(series=series, player=dana_b, same_as=dana_a, by=stores["a"]["owner"])
    rows = table_of(season)
    assert [name for name, _, _ in rows].count("Dana") == 1
    assert ("Dana", 8, 2) in rows
    assert AuditEntry.objects.filter(action="series.link").exists()
    series_unlink(link=link, by=stores["a"]["owner"])
    assert [name for name, _, _ in table_of(season)].count("Dana") == 2


def test_a_link_is_refused_when_it_is_not_the_hosts_to_make(series, stores):
    accepted(series, stores["b"])
    a1 = Player.objects.create(organization=stores["a"]["org"], name="A one")
    a2 = Player.objects.create(organization=stores["a"]["org"], name="A two")
    claimed = Player.objects.create(
        organization=stores["b"]["org"], name="Claimed", user=UserFactory()
    )
    outsider = Player.objects.create(organization=stores["c"]["org"], name="Outsider")
    for player, same_as, code in (
        (a1, a2, "same_store"),
        (claimed, a1, "has_account"),
        (outsider, a1, "not_in_series"),
    ):
        with pytest.raises(SeasonError) as error:
            series_link(series=series, player=player, same_as=same_as)
        assert error.value.code == code


def test_a_claim_approved_later_joins_the_person_at_once(
    series, season, stores, django_capture_on_commit_callbacks
):
    accepted(series, stores["b"])
    lee = UserFactory(username="lee")
    Player.objects.create(organization=stores["a"]["org"], name="Lee", user=lee)
    played_event(stores["a"], season, ["Lee", "A1"], django_capture_on_commit_callbacks)
    played_event(stores["b"], season, ["Lee", "B1"], django_capture_on_commit_callbacks)
    assert [name for name, _, _ in table_of(season)].count("Lee") == 2
    lee_b = Player.objects.get(organization=stores["b"]["org"], name="Lee")
    code = claim_code_issue(player=lee_b, by=stores["b"]["owner"])
    with django_capture_on_commit_callbacks(execute=True):
        claim_with_code(user=lee, code=code.code)
    assert ("Lee", 8, 2) in table_of(season)


# --- Leaving ------------------------------------------------------------------------------------


def test_a_store_that_leaves_keeps_its_past_events_and_drops_its_later_ones(
    series, season, stores, django_capture_on_commit_callbacks, monkeypatch
):
    member = accepted(series, stores["b"])
    past = played_event(
        stores["b"], season, ["B1", "B2"], django_capture_on_commit_callbacks, date=DAY
    )
    later = played_event(
        stores["b"],
        season,
        ["B3", "B4"],
        django_capture_on_commit_callbacks,
        date=datetime.date(2026, 12, 10),
    )
    monkeypatch.setattr("django.utils.timezone.localdate", lambda *a: datetime.date(2026, 12, 1))
    removed = series_leave(member=member, by=stores["b"]["owner"])
    assert removed == [later.name]
    assert list(SeasonEvent.objects.filter(season=season).values_list("tournament", flat=True)) == [
        past.pk
    ]
    assert {name for name, _, _ in table_of(season)} == {"B1", "B2"}
    member.refresh_from_db()
    assert member.status == "left"
    with pytest.raises(SeasonError) as error:  # pressed twice
        series_leave(member=member, by=stores["b"]["owner"])
    assert error.value.code == "twice"
    with pytest.raises(SeasonError):  # no new events from a store that left
        series_events_set(
            season=season,
            organization=stores["b"]["org"],
            choices={later.pk: season.event_types.get().pk},
        )


def test_the_host_does_not_leave_its_series(series, stores):
    member = SeriesMember.objects.get(series=series, organization=stores["a"]["org"])
    with pytest.raises(SeasonError) as error:
        series_leave(member=member)
    assert error.value.code == "host"


# --- Qualification ------------------------------------------------------------------------------


@pytest.fixture
def mail_delivers(settings):
    settings.GUILDHALL_MAIL_DELIVERS = True


def test_the_top_of_a_series_is_invited_to_the_final_once(
    series, season, stores, django_capture_on_commit_callbacks, mail_delivers
):
    accepted(series, stores["b"])
    sam = UserFactory(username="sam", email="sam@example.com")
    Player.objects.create(organization=stores["b"]["org"], name="Sam", user=sam)
    played_event(stores["a"], season, ["Ann", "A1"], django_capture_on_commit_callbacks)
    played_event(stores["b"], season, ["Sam", "B1"], django_capture_on_commit_callbacks)
    final = tournament_create(
        league=stores["a"]["league"], name="Cup final", date=datetime.date(2026, 12, 30)
    )
    with django_capture_on_commit_callbacks(execute=True):
        done = qualification_invite(season=season, final=final, top=2, by=stores["a"]["owner"])
    # Ann (store A's player) and Sam (store B's, with an account: a player at A made for
    # them), both 1st (4 points), are registered.
    assert sorted(done.registered) == ["Ann", "Sam"]
    assert done.skipped == []
    assert set(Entry.objects.filter(tournament=final).values_list("player__name", flat=True)) == {
        "Ann",
        "Sam",
    }
    sam_at_a = Player.objects.get(organization=stores["a"]["org"], user=sam)
    assert Registration.objects.get(tournament=final, player=sam_at_a).status == "seated"
    mails = Delivery.objects.filter(kind="qualified")
    assert [(m.target, m.payload["subject"]) for m in mails] == [
        ("sam@example.com", "Cup final: you are invited")
    ]
    assert "in its top 2" in mails[0].payload["body"]
    # Pressed twice: nobody registered or mailed again.
    with django_capture_on_commit_callbacks(execute=True):
        again = qualification_invite(season=season, final=final, top=2, by=stores["a"]["owner"])
    assert again.registered == [] and sorted(again.already) == ["Ann", "Sam"]
    assert Entry.objects.filter(tournament=final).count() == 2
    assert Delivery.objects.filter(kind="qualified").count() == 1
    assert AuditEntry.objects.filter(action="season.qualify").count() == 1


def test_a_qualifier_with_no_account_from_another_store_is_listed_not_guessed(
    series, season, stores, django_capture_on_commit_callbacks
):
    accepted(series, stores["b"])
    played_event(stores["b"], season, ["Nomad", "B1"], django_capture_on_commit_callbacks)
    Player.objects.create(organization=stores["a"]["org"], name="Nomad")  # same name at A
    final = tournament_create(league=stores["a"]["league"], name="Cup final", date=DAY)
    done = qualification_invite(season=season, final=final, top=1)
    assert done.registered == []
    assert [name for name, _ in done.skipped] == ["Nomad"]
    assert "link them" in done.skipped[0][1]
    assert not Entry.objects.filter(tournament=final).exists()


def test_the_final_must_be_the_seasons_stores_event_still_to_play(
    series, season, stores, django_capture_on_commit_callbacks
):
    accepted(series, stores["b"])
    played_event(stores["a"], season, ["Ann", "A1"], django_capture_on_commit_callbacks)
    elsewhere = tournament_create(league=stores["b"]["league"], name="B final", date=DAY)
    with pytest.raises(SeasonError) as error:
        qualification_invite(season=season, final=elsewhere, top=4)
    assert error.value.code == "not_a_final"


def test_a_stores_season_top_is_invited_too(
    stores, django_capture_on_commit_callbacks, mail_delivers
):
    store = stores["a"]
    season = season_create(
        league=store["league"],
        name="Winter",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )
    with django_capture_on_commit_callbacks(execute=True):
        event = tournament_create(
            league=store["league"], name="Friday", format="1v1", date=DAY, confirm_date=True
        )
        register(event, "Ann", "Bob", "Cy", "Dee")
        season_events_set(season=season, choices={event.pk: season.event_types.get().pk})
    for player in Player.objects.filter(organization=store["org"]):  # each with an account
        player.user = UserFactory(username=player.name.lower(), email=f"{player.name}@example.com")
        player.save(update_fields=["user"])
    with django_capture_on_commit_callbacks(execute=True):
        play_round(event)
    final = tournament_create(league=store["league"], name="Winter final", date=DAY)
    with django_capture_on_commit_callbacks(execute=True):
        done = qualification_invite(season=season, final=final, top=2)
    winners = {
        table.winner.player.name for table in event.rounds.get().tables.select_related("winner")
    }
    assert len(winners) == 2
    assert sorted(done.registered) == sorted(winners)  # the two round-1 winners, tied 1st
    # The qualified mail goes to them as it does for a series' top: the winners only, once.
    mails = Delivery.objects.filter(kind="qualified").order_by("target")
    assert [(m.target, m.payload["subject"]) for m in mails] == [
        (f"{name}@example.com", "Winter final: you are invited") for name in sorted(winners)
    ]
    assert all("Winter" in m.payload["body"] and "top 2" in m.payload["body"] for m in mails)
    with django_capture_on_commit_callbacks(execute=True):
        again = qualification_invite(season=season, final=final, top=2)
    assert again.registered == [] and Delivery.objects.filter(kind="qualified").count() == 2


def test_a_series_point_table_change_rescores_at_once_and_is_in_the_hosts_history(
    series, season, stores, django_capture_on_commit_callbacks
):
    played_event(stores["a"], season, ["Ann", "A1"], django_capture_on_commit_callbacks)
    assert ("Ann", 4, 1) in table_of(season)  # 1 entering + 3 a win
    kind = season.event_types.get()
    event_type_save(
        season=season,
        table=PointTable(event_type=kind.name, entering=2, per_win=5),
        event_type=kind,
        by=stores["a"]["owner"],
    )
    assert ("Ann", 7, 1) in table_of(season)
    entry = AuditEntry.objects.get(action="season.type_change")
    assert entry.organization == stores["a"]["org"]
    assert entry.before["per_win"] == 3 and entry.after["per_win"] == 5
