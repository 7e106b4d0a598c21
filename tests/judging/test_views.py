"""The judges' pages over HTTP: the desk's poll answers 304 while nothing changed and the new
queue when a call comes; a player's call from their page and "a judge is coming" there; the
TO's call from a table's card; the penalty form's refusal names its field and changes
nothing; a deck check from proposal to extension."""

import pytest
from django.test import Client
from django.urls import reverse

from judging.models import DeckCheck, JudgeCall, Penalty
from judging.services.calls import call_create, call_take
from leagues.models import Role
from tests import scenes
from tests.factories import UserFactory, organizer_of
from tests.judging.helpers import seated, table

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    return scenes.round_paired(swiss_rounds=3).event


@pytest.fixture
def judge(event):
    client = Client()
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE, username="judy"))
    return client


def player_client(entry) -> Client:
    user = UserFactory(username=entry.player.name.lower())
    entry.player.user = user
    entry.player.save(update_fields=["user"])
    client = Client()
    client.force_login(user)
    return client


def test_the_desk_poll_is_a_304_until_a_call_comes(event, judge):
    url = reverse("judge_desk", args=[event.slug])
    page = judge.get(url)
    assert page.status_code == 200 and "No call waiting" in page.text
    etag = page["ETag"]
    poll = judge.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    assert poll.status_code == 304
    t1 = table(event, 1)
    call_create(table=t1, entry=seated(t1)[0], reason="dispute")
    poll = judge.get(url + "?shown=0", headers={"HX-Request": "true", "If-None-Match": etag})
    assert poll.status_code == 200
    assert poll.text.lstrip().startswith('<section id="judge-queue"')  # the fragment only
    assert "A new judge call came in" in poll.text and "A dispute" in poll.text
    assert poll["ETag"] != etag


def test_a_player_calls_from_their_page_and_sees_a_judge_coming(event):
    t1 = table(event, 1)
    ann = seated(t1)[0]
    client = player_client(ann)
    page = client.get(reverse("my_event", args=[event.slug]))
    assert "Call a judge" in page.text
    answer = client.post(reverse("judge_call", args=[event.slug]), {"reason": "ruling"})
    assert answer.status_code == 302 and answer.url == reverse("my_event", args=[event.slug])
    call = JudgeCall.objects.get()
    assert (call.entry, call.reason, call.table) == (ann, "ruling", t1)
    assert "waiting for a judge" in client.get(answer.url).text
    call_take(call=call, by=UserFactory())
    assert "A judge is coming." in client.get(answer.url).text
    # A second tap says so and adds nothing.
    client.post(reverse("judge_call", args=[event.slug]), {"reason": "ruling"})
    assert JudgeCall.objects.count() == 1


def test_a_player_cancels_only_their_own_call(event):
    t1 = table(event, 1)
    ann, bob = seated(t1)
    call = call_create(table=t1, entry=ann)
    bobs = player_client(bob)
    assert "Cancel my call" not in bobs.get(reverse("my_event", args=[event.slug])).text
    bobs.post(reverse("judge_call", args=[event.slug]), {"action": "cancel", "call": call.pk})
    call.refresh_from_db()
    assert call.status == "waiting"
    player_client(ann).post(
        reverse("judge_call", args=[event.slug]), {"action": "cancel", "call": call.pk}
    )
    call.refresh_from_db()
    assert call.status == "cancelled"


def test_the_to_calls_from_a_tables_card(event, judge):
    t2 = table(event, 2)
    console = judge.get(reverse("event_run", args=[event.slug]))
    assert f"/tables/{t2.pk}/judge-call/" in console.text
    answer = judge.post(reverse("judge_table_call", args=[event.slug, t2.pk]))
    assert answer.status_code == 302
    assert JudgeCall.objects.get().table == t2


def test_done_with_an_extension_from_the_desk(event, judge):
    t1 = table(event, 1)
    call = call_create(table=t1, entry=seated(t1)[0])
    url = reverse("judge_calls", args=[event.slug])
    judge.post(url, {"call": call.pk, "action": "take"})
    judge.post(url, {"call": call.pk, "action": "done", "minutes": "5", "note": "GRV"})
    call.refresh_from_db()
    t1.refresh_from_db()
    assert (call.status, call.note, t1.extra_minutes) == ("done", "GRV", 5)


def test_a_bad_extension_is_said_and_changes_nothing(event, judge):
    t1 = table(event, 1)
    call = call_create(table=t1, entry=seated(t1)[0])
    url = reverse("judge_calls", args=[event.slug])
    answer = judge.post(url, {"call": call.pk, "action": "done", "minutes": "99"}, follow=True)
    assert "A time extension is 0 to 30 minutes" in answer.text
    call.refresh_from_db()
    assert call.status == "waiting"


def test_the_penalty_form_names_the_missing_reason(event, judge):
    ann = seated(table(event, 1))[0]
    url = reverse("judge_penalties", args=[event.slug])
    data = {"entry": ann.pk, "infraction": "GPE-GRV", "penalty": "match_loss"}
    answer = judge.post(url, data)
    assert answer.status_code == 400
    assert 'href="#id_deviation_reason"' in answer.text and "say why" in answer.text
    assert not Penalty.objects.exists()
    answer = judge.post(url, {**data, "deviation_reason": "Head judge's call"})
    assert answer.status_code == 302
    log = judge.get(url).text
    assert "deviation: IPG Warning" in log and "Head judge&#x27;s call" in log


def test_a_player_sees_their_own_penalties_only(event, judge):
    t1 = table(event, 1)
    ann, bob = seated(t1)
    url = reverse("judge_penalties", args=[event.slug])
    judge.post(url, {"entry": ann.pk, "infraction": "GPE-LEC", "note": "secret note"})
    anns = player_client(ann).get(reverse("my_event", args=[event.slug])).text
    assert "Your penalties" in anns and "Looking at Extra Cards" in anns
    assert "secret note" not in anns
    bobs = player_client(bob).get(reverse("my_event", args=[event.slug])).text
    assert "Your penalties" not in bobs


def test_a_deck_check_round_from_the_page(event, judge):
    url = reverse("judge_deck_checks", args=[event.slug])
    page = judge.get(url + "?count=2&mode=random")
    assert page.text.count('class="card deck-proposal"') == 2
    t3 = table(event, 3)
    judge.post(url, {"action": "start", "table": t3.pk})
    check = DeckCheck.objects.get()
    judge.post(url, {"action": "done", "check": check.pk, "minutes": "6"})
    t3.refresh_from_db()
    assert t3.extra_minutes == 6
    again = judge.get(url + "?count=4&mode=random").text
    assert f'data-table="{t3.number}"' in again  # listed as done...
    assert again.count('class="card deck-proposal"') == 3  # ...and not proposed again
