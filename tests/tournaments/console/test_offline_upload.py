"""The round paired on the TO's phone, sent back (console/views/offline.py, services.offline):
adopted once however often it is sent, refused with the reason when the event changed since the
phone's snapshot or when the round breaks a rule of the server's pairing, and only from those
who run the event, with a CSRF token."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from audit.models import AuditEntry
from leagues.models import Role
from tests.factories import OrganizationFactory, PlayerFactory, UserFactory, organizer_of
from tests.tournaments.offline.states import STATES, build, seatings
from tournaments.actions import Action
from tournaments.domain import nextround
from tournaments.models import Round
from tournaments.selectors.pairing_snapshot import pairing_snapshot
from tournaments.services.entries import entry_drop
from tournaments.services.offline import ADOPTED_NOTE
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair, round_swap

pytestmark = pytest.mark.django_db

ONE_V_ONE_9 = STATES[1]  # 9 players, round 2 being played, a drop, a requested bye next
PODS_17 = STATES[2]


def phone_pairs(event, results=None) -> dict:
    """What the phone sends: the round paired from the snapshot (and results tapped on it)."""
    answer = json.loads(
        nextround.pair_offline(json.dumps(pairing_snapshot(event)), json.dumps(results or {}))
    )
    assert answer["ok"], answer
    return {"input": answer["input"], "tables": answer["tables"], "results": results or {}}


def send(client, event, body):
    return client.post(
        reverse("offline_upload", args=[event.slug]),
        data=json.dumps(body),
        content_type="application/json",
    )


@pytest.fixture
def judge_client(league):
    client = Client()
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


def rounds_of(event) -> list[int]:
    return list(event.rounds.order_by("number").values_list("number", flat=True))


def test_the_phone_round_is_adopted_once_however_often_it_is_sent(league, judge_client):
    event = build(league, *ONE_V_ONE_9)
    body = phone_pairs(event)

    first = send(judge_client, event, body)
    again = send(judge_client, event, body)

    assert first.status_code == 200 and first.json()["round"] == 3
    assert again.status_code == 200 and again.json()["already"] is True
    assert rounds_of(event) == [1, 2, 3]
    adopted = event.rounds.get(number=3)
    assert seatings(adopted) == body["tables"]
    assert ADOPTED_NOTE in adopted.notes_text
    assert event.rounds.get(number=2).status == Round.Status.COMPLETE
    # The requested bye is a requested-bye table, as the server's own pairing writes it.
    assert adopted.tables.filter(requested_bye=True).count() == 1
    assert AuditEntry.objects.filter(action=Action.ROUND_OFFLINE).count() == 1


def test_results_tapped_on_the_phone_are_recorded_before_the_round(league, judge_client):
    event = build(league, *PODS_17)
    opened = event.rounds.get(number=3)
    table = opened.tables.filter(seats__position=2).order_by("number").last()
    winner = table.seats.get(position=2).entry
    # The server never heard of this table's result: the phone has it.
    table.reported, table.winner, table.is_draw = False, None, False
    table.save()
    table.seats.update(place=None, game_wins=None)
    body = phone_pairs(event, {str(table.number): {"winner": winner.player_id}})

    response = send(judge_client, event, body)

    assert response.status_code == 200, response.json()
    table.refresh_from_db()
    assert table.reported and table.winner == winner
    assert seatings(event.rounds.get(number=4)) == body["tables"]


def test_the_phones_results_sent_again_are_not_put_on_the_next_rounds_tables(league, judge_client):
    """The page's retry or a second tap sends the round and its results again after the server
    adopted it: the results were round 3's tables, not round 4's of the same numbers."""
    event = build(league, *PODS_17)
    table = event.rounds.get(number=3).tables.order_by("number").first()
    winner = table.seats.get(position=1).entry
    table.reported, table.winner, table.is_draw = False, None, False
    table.save()
    table.seats.update(place=None, game_wins=None)
    body = phone_pairs(event, {str(table.number): {"winner": winner.player_id}})
    assert send(judge_client, event, body).status_code == 200
    adopted = event.rounds.get(number=4).tables
    assert adopted.filter(number=table.number, reported=False).exists()
    reported = list(adopted.filter(reported=True).values_list("number", flat=True))  # a bye

    again = send(judge_client, event, body)

    assert again.status_code == 200 and again.json()["already"] is True, again.json()
    assert list(adopted.filter(reported=True).values_list("number", flat=True)) == reported
    assert table.seats.get(entry=winner).place == 1


def test_a_round_paired_from_a_stale_snapshot_is_refused_and_kept(league, judge_client):
    event = build(league, *ONE_V_ONE_9)
    body = phone_pairs(event)
    # Meanwhile, at the server: a player drops.
    leaving = event.entries.filter(dropped_after__isnull=True).select_related("player").last()
    entry_drop(entry=leaving)

    response = send(judge_client, event, body)

    assert response.status_code == 409
    assert response.json()["code"] == "stale"
    assert f"{leaving.player.name} dropped or left" in response.json()["message"]
    assert rounds_of(event) == [1, 2]
    refused = AuditEntry.objects.get(action=Action.ROUND_OFFLINE_REFUSED)
    assert len(refused.after["tables"]) == len(body["tables"])  # the phone's round, kept


def test_a_changed_result_makes_the_snapshot_stale(league, judge_client):
    event = build(league, *ONE_V_ONE_9)
    body = phone_pairs(event)
    table = event.rounds.get(number=2).tables.filter(seats__position=2).first()
    table_report(table=table, draw=True)

    response = send(judge_client, event, body)

    assert response.status_code == 409
    assert "round 2 has other results on the server" in response.json()["message"]


def swap_two(tables):
    """The first player of the first two tables change places (a hand-made round)."""
    tables = [list(t) for t in tables]
    tables[0][0], tables[1][0] = tables[1][0], tables[0][0]
    return tables


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("twice", "twice"),
        ("unseated", "unseated"),
        ("dropped", "not_active"),
        ("sizes", "sizes"),
        ("garbage", "shape"),
        ("round", "not_next"),
    ],
)
def test_a_round_that_breaks_a_rule_is_refused_and_nothing_changes(
    league, judge_client, case, code
):
    event = build(league, *PODS_17)
    body = phone_pairs(event)
    tables = [list(t) for t in body["tables"]]
    dropped = event.entries.filter(dropped_after__isnull=False).first().player_id
    if case == "twice":
        tables[0][0] = tables[1][0]
    elif case == "unseated":
        tables[0].pop()
    elif case == "dropped":
        tables[0][0] = dropped
    elif case == "sizes":  # a player from a smallest pod to a largest: other sizes
        pods = [t for t in tables if len(t) > 1]
        small, large = min(pods, key=len), max(pods[::-1], key=len)
        large.append(small.pop())
    elif case == "garbage":
        tables[0] = ["Ann", None]
    elif case == "round":
        body["input"] = {**body["input"], "round": 5}
    before = rounds_of(event)

    response = send(judge_client, event, {**body, "tables": tables})

    assert response.status_code == 409, response.json()
    assert response.json()["code"] == code
    assert rounds_of(event) == before
    assert event.rounds.get(number=3).status == Round.Status.PLAYING


def test_a_swap_that_keeps_the_rules_is_adopted_with_a_note(league, judge_client):
    event = build(league, *PODS_17)
    body = phone_pairs(event)
    tables = swap_two(body["tables"])

    response = send(judge_client, event, {**body, "tables": tables})

    assert response.status_code == 200
    adopted = event.rounds.get(number=4)
    assert seatings(adopted) == tables
    assert "differs" in adopted.notes_text


def test_a_round_the_server_paired_meanwhile_differently_is_refused(league, judge_client):
    event = build(league, *ONE_V_ONE_9)
    body = phone_pairs(event)
    round_end(round_=event.rounds.get(number=2))
    round_ = round_pair(tournament=event)
    first, second = (t.seats.order_by("position").first().entry for t in round_.tables.all()[:2])
    round_swap(round_=round_, a=first, b=second)

    response = send(judge_client, event, body)

    assert response.status_code == 409
    assert response.json()["code"] == "paired_meanwhile"


def test_an_unreadable_upload_is_refused(league, judge_client):
    event = build(league, *ONE_V_ONE_9)
    response = judge_client.post(
        reverse("offline_upload", args=[event.slug]), data="{", content_type="application/json"
    )
    assert response.status_code == 400
    assert rounds_of(event) == [1, 2]


def test_a_player_or_another_stores_judge_cannot_upload(league):
    event = build(league, *ONE_V_ONE_9)
    body = phone_pairs(event)
    player = UserFactory()
    PlayerFactory(organization=league.organization, user=player, name="Pat")
    stranger_judge = organizer_of(OrganizationFactory(), role=Role.JUDGE)
    for user in (player, stranger_judge):
        client = Client()
        client.force_login(user)
        assert send(client, event, body).status_code in (403, 404)
        assert client.get(reverse("offline_snapshot", args=[event.slug])).status_code in (403, 404)
    assert rounds_of(event) == [1, 2]


def test_an_upload_needs_the_csrf_token(league):
    event = build(league, *ONE_V_ONE_9)
    client = Client(enforce_csrf_checks=True)
    client.force_login(organizer_of(league.organization, role=Role.JUDGE))

    assert send(client, event, phone_pairs(event)).status_code == 403
    assert rounds_of(event) == [1, 2]


def test_the_page_and_its_snapshot_for_the_judge(league, judge_client):
    event = build(league, *ONE_V_ONE_9)

    page = judge_client.get(reverse("offline_pair", args=[event.slug]))
    snapshot = judge_client.get(reverse("offline_snapshot", args=[event.slug])).json()

    assert page.status_code == 200
    assert reverse("offline_upload", args=[event.slug]) in page.content.decode()
    assert snapshot["round"] == 3 and snapshot["pairable"]
    assert [t["number"] for t in snapshot["open"]["tables"]] == list(
        event.rounds.get(number=2).tables.order_by("number").values_list("number", flat=True)
    )


def test_a_site_deployed_without_the_pairing_code_says_so(league, judge_client, monkeypatch):
    event = build(league, *ONE_V_ONE_9)

    def missing(path):
        raise ValueError(f"Missing staticfiles manifest entry for '{path}'")

    monkeypatch.setattr("tournaments.console.views.offline.static", missing)
    page = judge_client.get(reverse("offline_pair", args=[event.slug])).content.decode()

    assert "make assets" in page
    assert "offline_pair" not in page  # no script that would fail


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 100_000 + b"]" * 100_000,  # past the parser's recursion limit
        json.dumps({"input": {"round": 3}, "tables": [], "results": {}})[:-1].encode()
        + b', "x": '
        + b"[" * 500
        + b"]" * 500
        + b"}",  # read, but deeper than any round the phone sends
        b"\xff\xfe\x00not text",
    ],
    ids=["100000-deep", "500-deep", "not-utf8"],
)
def test_a_deeply_nested_or_garbled_upload_is_refused_and_nothing_written(
    league, judge_client, body
):
    event = build(league, *ONE_V_ONE_9)
    audits = AuditEntry.objects.count()

    response = judge_client.post(
        reverse("offline_upload", args=[event.slug]), data=body, content_type="application/json"
    )

    assert response.status_code == 400
    assert response.json() == {
        "ok": False,
        "message": "The phone's round could not be read: pair it again.",
    }
    assert rounds_of(event) == [1, 2]
    assert AuditEntry.objects.count() == audits
