"""The TO ends the Swiss rounds early (`services.rounds.swiss_finish`): the store closes, or too
few players are left to pair another round. A red-team find: a pod event of three that lost a
player in round 2 could pair no round 3 ("At least three players are needed") and offered no
way to finish; it stayed at "Round 2 · Complete" with no final standings."""

import pytest
from django.urls import reverse

from audit.models import AuditEntry
from leagues.models import Role
from tests import scenes
from tests.factories import UserFactory, organizer_of
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Round, Tournament
from tournaments.services.entries import entry_drop
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair, swiss_finish

pytestmark = pytest.mark.django_db


def test_a_pod_event_too_small_to_pair_again_is_finished_after_its_last_round(league):
    build = {"name": "Three", "format": "pods", "swiss_rounds": 3}
    scene = scenes.rounds_played(1, league=league, players=["Ann", "Bo", "Cy"], **build)
    event, cy = scene.event, scene.entry("Cy")
    entry_drop(entry=cy)
    with pytest.raises(TournamentError, match="At least three players"):
        round_pair(tournament=event)
    event.refresh_from_db()
    finished = swiss_finish(tournament=event, after=1)
    assert finished.status == Tournament.Status.FINISHED and finished.swiss_rounds == 1
    entry = AuditEntry.objects.get(action="event.swiss_finish")
    assert entry.before == {"swiss_rounds": 3, "status": "swiss"}
    assert entry.after == {"swiss_rounds": 1, "status": "finished"}
    with pytest.raises(AlreadyDone, match="already finished"):
        swiss_finish(tournament=event, after=1)  # a double tap
    assert AuditEntry.objects.filter(action="event.swiss_finish").count() == 1


def test_a_round_being_played_or_a_stale_page_changes_nothing(league):
    scene = scenes.round_paired(
        scenes.rounds_played(1, league=league, name="Eight", swiss_rounds=3)
    )
    event, playing = scene.event, scene.round
    with pytest.raises(TournamentError, match="Round 2 is still being played"):
        swiss_finish(tournament=event, after=2)
    with pytest.raises(TournamentError, match="Round 2 is the event's latest round now"):
        swiss_finish(tournament=event, after=1)  # the console showed round 1
    scenes.tables_reported(playing)
    round_end(round_=playing)
    event.refresh_from_db()
    assert (event.status, event.swiss_rounds) == (Tournament.Status.SWISS, 3)
    assert not AuditEntry.objects.filter(action="event.swiss_finish").exists()


def test_with_a_top_cut_the_console_then_offers_the_cut(league, client):
    event = scenes.rounds_played(2, league=league, name="Cut", swiss_rounds=3, top_cut=4).event
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    console = reverse("event_run", args=[event.slug])
    page = client.get(console).content.decode()
    assert "Finish after round 2" in page
    assert "the top 4 is then seeded from the standings after round 2" in page
    answer = client.post(reverse("event_swiss_finish", args=[event.slug]), {"after": "2"})
    assert answer.status_code == 302
    event.refresh_from_db()
    assert (event.status, event.swiss_rounds) == (Tournament.Status.SWISS, 2)
    page = client.get(console).content.decode()
    assert "The Swiss rounds end after round 2: start the top 4." in page
    assert "Start the top 4" in page and "Finish after round" not in page
    assert "Pair round 3" not in page


def test_the_console_offers_it_only_after_a_complete_swiss_round(league, client):
    event = scenes.event_open(league=league, name="Eight", swiss_rounds=3).event
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    console = reverse("event_run", args=[event.slug])
    assert "Finish after round" not in client.get(console).content.decode()  # not started
    round_pair(tournament=event)
    assert "Finish after round" not in client.get(console).content.decode()  # playing
    round_end(round_=_reported(event.rounds.get(number=1)))
    page = client.get(console).content.decode()
    assert "Pair round 2" in page and "Finish after round 1" in page
    assert "the standings after round 1 become the final standings" in page
    answer = client.post(reverse("event_swiss_finish", args=[event.slug]), {"after": "1"})
    assert answer.status_code == 302
    page = client.get(console).content.decode()
    assert "The Swiss rounds ended after round 1." in page
    assert "The event is finished: the <a" in page
    again = client.post(reverse("event_swiss_finish", args=[event.slug]), {"after": "1"})
    assert "The event is already finished." in client.get(again["Location"]).content.decode()
    assert event.rounds.count() == 1


def test_a_player_cannot_finish_the_event(league, client):
    event = scenes.rounds_played(1, league=league, name="Eight", swiss_rounds=3).event
    client.force_login(UserFactory(username="pat"))
    answer = client.post(reverse("event_swiss_finish", args=[event.slug]), {"after": "1"})
    assert answer.status_code in (403, 404)
    event.refresh_from_db()
    assert event.status == Tournament.Status.SWISS


def _reported(round_: Round) -> Round:
    for table in round_.tables.all():
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    return round_
