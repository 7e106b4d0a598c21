"""Notifications end to end in one process: a TO's change records deliveries, the worker's task
(`deliver_due`, called as the worker calls it) sends them to a real HTTP server on 127.0.0.1
and to Django's locmem mailbox, retries with backoff, and gives up when it should.
"""

import smtplib
import time
from datetime import timedelta

import psycopg
import pytest
from django.core import mail
from django.core.mail.backends import locmem
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from notifications import receivers, senders, sending
from notifications import services as notify
from notifications.domain.messages import DISCORD_LIMIT
from notifications.models import Delivery
from notifications.tasks import deliver_due
from tests.factories import PlayerFactory
from tests.ratings.test_recalculate_killed import database_url
from tournaments.errors import AlreadyDone
from tournaments.models import Seat
from tournaments.services.events import tournament_create
from tournaments.services.registration import (
    registration_join,
    registration_leave,
    registration_settings_set,
)
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

from .conftest import BASE, enter, player_with_account, webhook_to
from .receiver import Answer, FakeReceiver

pytestmark = pytest.mark.django_db


def run_worker():
    """What the worker does with one queued run of the task."""
    return deliver_due.call()


def due_now():
    """Pretend the retry's wait has passed."""
    Delivery.objects.filter(status="queued").update(next_attempt_at=timezone.now())


def test_opted_in_players_get_their_seat_and_the_store_channel_the_pairings(
    event, django_capture_on_commit_callbacks
):
    org = event.league.organization
    ann = player_with_account(org, "Ann", paired=True)
    bob = player_with_account(org, "Bob", paired=True)
    cat = player_with_account(org, "Cat")  # chose nothing: no mail
    dan = PlayerFactory(organization=org, name="Dan")  # no account
    enter(event, ann, bob, cat, dan)
    with FakeReceiver() as receiver:
        webhook_to(org, receiver.url)
        with django_capture_on_commit_callbacks(execute=True):
            round_ = round_pair(tournament=event, number=1)
        assert receiver.requests == []  # the TO's request sent nothing
        assert DBTaskResult.objects.filter(task_path=deliver_due.module_path).count() == 1
        assert run_worker() == {"sent": 3}
        link = f"{BASE}/events/friday-modern/?round=1"
        assert receiver.contents() == [f"**Friday Modern**: Round 1 pairings are up: {link}"]
        assert receiver.requests[0]["json"]["allowed_mentions"] == {"parse": []}
        assert receiver.requests[0]["path"] == "/api/webhooks/123/secret-token"
    assert sorted(m.to[0] for m in mail.outbox) == ["ann@example.com", "bob@example.com"]
    for player in (ann, bob):
        seat = Seat.objects.select_related("table").get(round=round_, entry__player=player)
        (sent,) = [m for m in mail.outbox if m.to == [player.user.email]]
        other = Seat.objects.filter(table=seat.table).exclude(pk=seat.pk).get().entry.player.name
        assert sent.subject == f"[Guildhall] Friday Modern: Round 1, table {seat.table.number}"
        assert f"table {seat.table.number}, {['1st', '2nd'][seat.position - 1]} seat" in sent.body
        assert f"against {other}." in sent.body and link in sent.body
    assert set(Delivery.objects.values_list("status", flat=True)) == {"sent"}


def test_pairing_twice_notifies_once(event, django_capture_on_commit_callbacks):
    org = event.league.organization
    players = [player_with_account(org, n, paired=True) for n in ("Ann", "Bob", "Cat", "Dan")]
    enter(event, *players)
    with FakeReceiver() as receiver:
        webhook_to(org, receiver.url)
        with django_capture_on_commit_callbacks(execute=True):
            round_ = round_pair(tournament=event, number=1)
        with pytest.raises(AlreadyDone):  # the double tap
            round_pair(tournament=event, number=1)
        notify.round_paired_record(round_=round_)  # even announced again: the keys hold
        run_worker()
        assert len(receiver.requests) == 1
    assert sorted(m.to[0] for m in mail.outbox) == [p.user.email for p in players]


def test_a_webhook_that_fails_is_tried_again_with_backoff_then_delivered(event):
    org = event.league.organization
    with FakeReceiver(Answer(500), Answer(502, {"message": "bad gateway"}), Answer(204)) as rx:
        webhook_to(org, rx.url)
        notify.webhook_test_send(organization=org)
        before = timezone.now()
        assert run_worker() == {"queued": 1}
        delivery = Delivery.objects.get()
        assert (delivery.attempts, delivery.last_error) == (1, "HTTP 500")
        wait = (delivery.next_attempt_at - before).total_seconds()
        assert 30 <= wait < 32
        assert run_worker() == {}  # not due yet: nothing sent
        # The task asked the queue for a run when the retry is due.
        later = DBTaskResult.objects.get(task_path=deliver_due.module_path)
        assert later.run_after == delivery.next_attempt_at
        run_worker()
        assert DBTaskResult.objects.count() == 1  # that run is asked for once
        due_now()
        before = timezone.now()
        run_worker()
        delivery.refresh_from_db()
        assert delivery.attempts == 2 and "HTTP 502" in delivery.last_error
        assert 120 <= (delivery.next_attempt_at - before).total_seconds() < 122
        due_now()
        run_worker()
        delivery.refresh_from_db()
        assert (delivery.status, delivery.attempts, delivery.last_error) == ("sent", 3, "")
        assert len(rx.requests) == 3


def test_a_webhook_that_keeps_failing_is_given_up_after_five_attempts(event):
    org = event.league.organization
    with FakeReceiver(Answer(500)) as receiver:
        webhook_to(org, receiver.url)
        notify.webhook_test_send(organization=org)
        for _ in range(7):
            run_worker()
            due_now()
        assert len(receiver.requests) == 5
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("failed", 5)


def test_discord_asking_to_wait_is_honoured(event):
    org = event.league.organization
    answers = (
        Answer(429, {"message": "You are being rate limited.", "retry_after": 2.5}),
        Answer(429, headers={"Retry-After": "7"}),
        Answer(204),
    )
    with FakeReceiver(*answers) as receiver:
        webhook_to(org, receiver.url)
        notify.webhook_test_send(organization=org)
        before = timezone.now()
        run_worker()
        delivery = Delivery.objects.get()
        assert 2.5 <= (delivery.next_attempt_at - before).total_seconds() < 3.5
        assert delivery.last_error.startswith("HTTP 429")
        due_now()
        before = timezone.now()
        run_worker()
        delivery.refresh_from_db()
        assert 7 <= (delivery.next_attempt_at - before).total_seconds() < 8
        due_now()
        run_worker()
        delivery.refresh_from_db()
        assert delivery.status == "sent"


@pytest.mark.parametrize("status", [400, 401, 404])
def test_a_webhook_refused_for_good_is_not_tried_again(event, status):
    org = event.league.organization
    with FakeReceiver(Answer(status, {"message": "Unknown Webhook"})) as receiver:
        webhook_to(org, receiver.url)
        notify.webhook_test_send(organization=org)
        run_worker()
        due_now()
        run_worker()
        assert len(receiver.requests) == 1
    delivery = Delivery.objects.get()
    assert delivery.status == "failed"
    assert delivery.last_error == f'HTTP {status}: {{"message": "Unknown Webhook"}}'


def test_a_receiver_that_does_not_answer_holds_the_worker_only_seconds(event, monkeypatch):
    monkeypatch.setattr(senders, "READ_TIMEOUT", 0.5)
    org = event.league.organization
    # The receiver would hold the worker 20 s; the time-out lets go after 0.5 s. The bound
    # leaves room for a machine busy with other work (3.9 s seen at a load of 15 on 2 cores).
    with FakeReceiver(Answer(204, delay=20)) as receiver:
        webhook_to(org, receiver.url)
        notify.webhook_test_send(organization=org)
        start = time.monotonic()
        run_worker()
        assert time.monotonic() - start < 8
    delivery = Delivery.objects.get()
    assert delivery.status == "queued" and "No answer within" in delivery.last_error


def test_a_dead_or_slow_webhook_neither_fails_nor_slows_pairing(
    event, django_capture_on_commit_callbacks
):
    org = event.league.organization
    enter(event, *[PlayerFactory(organization=org, name=n) for n in ("Ann", "Bob", "Cat")])
    with FakeReceiver(Answer(500, delay=5)) as receiver:
        webhook_to(org, receiver.url)
        start = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            round_pair(tournament=event, number=1)
        assert time.monotonic() - start < 1.0
        assert receiver.requests == []
    assert Delivery.objects.get().status == "queued"


def test_a_broken_notification_never_stops_the_pairing(event, monkeypatch):
    def broken(**kwargs):
        Delivery.objects.create(key="x", kind="paired", channel="email", organization_id=0)

    monkeypatch.setattr(receivers.services, "round_paired_record", broken)
    org = event.league.organization
    enter(event, *[PlayerFactory(organization=org, name=n) for n in ("Ann", "Bob")])
    round_ = round_pair(tournament=event, number=1)
    assert round_.tables.count() == 1
    assert not Delivery.objects.exists()  # the savepoint took the broken write back


def test_moving_up_from_the_waitlist_mails_those_who_asked(event, league):
    event = registration_settings_set(tournament=event, open=True, cap=2, deadline=None, note="")
    org = league.organization
    ann = player_with_account(org, "Ann")
    registration_join(tournament=event, player=PlayerFactory(organization=org))
    eve = player_with_account(org, "Eve", promoted=True)
    fay = player_with_account(org, "Fay")  # did not ask
    first = registration_join(tournament=event, player=ann)
    registration_join(tournament=event, player=eve)
    registration_join(tournament=event, player=fay)
    registration_leave(registration=first)  # Eve moves up
    run_worker()
    (sent,) = mail.outbox
    assert sent.to == ["eve@example.com"]
    assert sent.subject == "[Guildhall] Friday Modern: you have a seat"
    assert f"{BASE}/events/friday-modern/" in sent.body
    assert "A seat came free in Friday Modern (Fri 20 Nov 2026)" in sent.body
    registration_settings_set(tournament=event, open=True, cap=4, deadline=None, note="")
    run_worker()
    assert len(mail.outbox) == 1  # Fay moved up too, and asked for nothing


def test_no_mail_at_all_when_the_site_sends_none(event, settings):
    settings.GUILDHALL_MAIL_DELIVERS = False
    org = event.league.organization
    enter(event, *[player_with_account(org, n, paired=True) for n in ("Ann", "Bob")])
    round_pair(tournament=event, number=1)
    assert not Delivery.objects.exists()


def test_the_final_standings_reach_the_channel_within_discords_limit(event):
    org = event.league.organization
    names = [f"A player with a rather long name number {n:02}" for n in range(40)]
    enter(event, *[PlayerFactory(organization=org, name=n) for n in names])
    event.swiss_rounds = 1
    event.save(update_fields=["swiss_rounds"])
    with FakeReceiver() as receiver:
        webhook_to(org, receiver.url)
        round_ = round_pair(tournament=event, number=1)
        for table in round_.tables.filter(reported=False):
            table_report(table=table, winner=table.seats.get(position=1).entry)
        round_end(round_=round_)
        run_worker()
        pairings, standings = receiver.contents()
    assert "Round 1 pairings are up" in pairings
    assert len(standings) <= DISCORD_LIMIT
    assert standings.startswith("**Friday Modern** is over.\nFinal standings:\n1= ")
    assert standings.endswith(f"Full standings: {BASE}/events/friday-modern/standings/")
    assert standings.count(" pts (1-0-0)") == 8  # the top 8: every winner has 3 points


def test_a_retry_goes_to_the_address_the_store_fixed_meanwhile(event):
    org = event.league.organization
    with FakeReceiver(Answer(404)) as old, FakeReceiver() as new:
        hook = webhook_to(org, old.url.replace("/api/", "/wrong/"))
        notify.webhook_test_send(organization=org)
        Delivery.objects.update(status="queued")
        hook.url = new.url
        hook.save()
        run_worker()
        assert len(new.requests) == 1 and old.requests == []
    assert Delivery.objects.get().target == new.url


def test_the_sweep_puts_back_a_delivery_whose_worker_died(event):
    org = event.league.organization
    webhook_to(org, "https://discord.example/api/webhooks/1/x")
    delivery, _ = notify.webhook_test_send(organization=org)
    DBTaskResult.objects.all().delete()  # the queue lost its run too
    Delivery.objects.filter(pk=delivery.pk).update(
        status="sending", attempts=1, claimed_at=timezone.now() - timedelta(minutes=5)
    )
    assert notify.deliveries_sweep() == 1
    delivery.refresh_from_db()
    assert delivery.status == "queued" and delivery.attempts == 1
    assert DBTaskResult.objects.filter(task_path=deliver_due.module_path).count() == 1
    assert notify.deliveries_sweep() == 0  # a run is coming: no second one
    assert DBTaskResult.objects.count() == 1


def test_messages_finished_90_days_ago_are_deleted_and_nothing_still_to_send(event, monkeypatch):
    org = event.league.organization
    now = timezone.now()
    for name, status, days in [
        ("sent long ago", "sent", 91),
        ("failed long ago", "failed", 120),
        ("sent lately", "sent", 89),
        ("queued long ago", "queued", 200),  # still to send: kept whatever its age
        ("sending long ago", "sending", 200),
    ]:
        Delivery.objects.create(
            key=name,
            kind="test",
            channel="webhook",
            organization=org,
            target="https://discord.example/api/webhooks/1/x",
            status=status,
            claimed_at=now,
            created_at=now - timedelta(days=days),
        )
    assert notify.deliveries_prune(now=now) == 2
    kept = set(Delivery.objects.values_list("key", flat=True))
    assert kept == {"sent lately", "queued long ago", "sending long ago"}
    # The reaper's sweep prunes, at most once an hour per process.
    monkeypatch.setattr(notify, "_pruned_at", None)
    Delivery.objects.filter(key="sent lately").update(created_at=now - timedelta(days=95))
    notify.deliveries_sweep()
    assert not Delivery.objects.filter(key="sent lately").exists()
    Delivery.objects.filter(key="queued long ago").update(status="sent")
    notify.deliveries_sweep()  # within the hour: left for the next prune
    assert Delivery.objects.filter(key="queued long ago").exists()


def gone_within(backend: int, *, seconds: float) -> None:
    """Wait until the server has let go of `backend`'s locks (its own connection: the test's
    transaction reads the lock table once)."""
    deadline = time.monotonic() + seconds
    url = database_url().replace("postgres://", "postgresql://")
    with psycopg.connect(url, autocommit=True) as watcher:
        while watcher.execute("SELECT count(*) FROM pg_locks WHERE pid = %s", [backend]).fetchone()[
            0
        ]:
            assert time.monotonic() < deadline, f"backend {backend} still holds its locks"
            time.sleep(0.02)


def test_a_delivery_being_sent_is_not_taken_by_a_second_worker_nor_the_reaper(event):
    org = event.league.organization
    webhook_to(org, "https://discord.example/api/webhooks/1/x")
    delivery, _ = notify.webhook_test_send(organization=org)
    Delivery.objects.update(status="sending", attempts=1, claimed_at=timezone.now())
    assert sending.deliveries_send_due() == {}
    # A live worker: another session holds the delivery's lock (and a run's).
    with psycopg.connect(database_url().replace("postgres://", "postgresql://")) as other:
        other.execute(
            "SELECT pg_advisory_lock(%s, %s)", [sending.DELIVERY_LOCK, delivery.pk % 2**31]
        )
        other.execute("SELECT pg_advisory_lock_shared(%s, %s)", list(sending.RUN_LOCK))
        assert notify.deliveries_sweep() == 0
        assert Delivery.objects.get().status == "sending"
        backend = other.info.backend_pid
    # Its process died: the server drops its locks as the backend exits, a moment after the
    # client hung up (CI once swept in that moment); wait for it, as the 5 s reaper round does.
    gone_within(backend, seconds=5)
    assert notify.deliveries_sweep() == 1
    assert Delivery.objects.get().status == "queued"


def test_the_sweep_wakes_the_queue_when_the_run_that_was_sending_died(event):
    """The red team killed the worker mid-delivery: its task run stayed RUNNING, counted as a
    worker coming, and the message waited until an unrelated one woke the queue."""
    org = event.league.organization
    webhook_to(org, "https://discord.example/api/webhooks/1/x")
    notify.webhook_test_send(organization=org)
    started = timezone.now() - timedelta(seconds=40)
    killed = deliver_due.enqueue()
    DBTaskResult.objects.filter(id=killed.id).update(status="RUNNING", started_at=started)
    Delivery.objects.update(status="sending", attempts=1, claimed_at=started)
    assert notify.deliveries_sweep() == 1
    assert DBTaskResult.objects.get(id=killed.id).status == "FAILED"
    ready = DBTaskResult.objects.filter(task_path=deliver_due.module_path, status="READY")
    assert ready.count() == 1
    assert notify.deliveries_sweep() == 0 and ready.count() == 1  # one run asked for, once


def test_recording_a_64_player_round_is_a_few_queries(league):
    """The notification part of pairing 64 opted-in players with a webhook: a fixed handful
    of queries (no query per player), and no network."""
    from tests.factories import TournamentFactory

    event = TournamentFactory(league=league)
    org = league.organization
    enter(event, *[player_with_account(org, f"P{n:02}", paired=True) for n in range(64)])
    webhook_to(org, "https://discord.example/api/webhooks/1/x")
    receivers.signals.round_paired.disconnect(dispatch_uid="notifications.paired")
    try:
        round_ = round_pair(tournament=event, number=1)
    finally:
        receivers.connect()
    with CaptureQueriesContext(connection) as queries:
        receivers.on_round_paired(sender=None, round_=round_)
    # savepoint, the opted-in seats, the webhook, the insert, release
    assert len(queries) == 5, [q["sql"][:80] for q in queries]
    assert Delivery.objects.count() == 65


def test_a_player_who_turned_the_mail_off_before_it_went_gets_none(event):
    org = event.league.organization
    ann, bob = (player_with_account(org, n, paired=True) for n in ("Ann", "Bob"))
    enter(event, ann, bob)
    round_pair(tournament=event, number=1)
    notify.settings_set(user=ann.user, email_round_paired=False, email_waitlist_promoted=False)
    run_worker()
    assert [m.to for m in mail.outbox] == [["bob@example.com"]]
    assert Delivery.objects.get(user=ann.user).last_error == "The player turned these mails off."


class FlakyBackend(locmem.EmailBackend):
    """Django's test mailbox, counting its connections and dropping the one to "bob@"."""

    opened = 0

    def open(self):
        type(self).opened += 1
        return super().open()

    def send_messages(self, messages):
        if any("bob@" in to for m in messages for to in m.to):
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)


def test_a_rounds_mails_share_one_connection_and_a_dropped_one_is_tried_again(event, settings):
    settings.EMAIL_BACKEND = "tests.notifications.test_services.FlakyBackend"
    FlakyBackend.opened = 0
    org = event.league.organization
    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    enter(event, *[player_with_account(org, n, paired=True) for n in names])
    round_pair(tournament=event, number=1)
    assert run_worker() == {"sent": 5, "queued": 1}
    assert len(mail.outbox) == 5
    bob = Delivery.objects.get(user__username="bob")
    assert bob.last_error == "The mail server did not take it (SMTPServerDisconnected)."
    # One connection, and one more after Bob's broke (if Bob was not the last to go).
    assert FlakyBackend.opened in (1, 2)


def test_outside_development_a_webhook_to_a_private_address_is_never_posted(event, settings):
    """The form refuses such an address; one that got in anyway (saved while developing, or a
    public name pointed at this machine later) fails at once and is not posted."""
    settings.GUILDHALL_WEBHOOK_LOCAL = False
    org = event.league.organization
    with FakeReceiver() as receiver:
        webhook_to(org, receiver.url.replace("127.0.0.1", "localhost"))
        notify.webhook_test_send(organization=org)
        run_worker()
        assert receiver.requests == []
    delivery = Delivery.objects.get()
    assert delivery.status == "failed" and "https://" in delivery.last_error


def test_a_pod_events_pairing_mail_says_pod(league):
    """Issue 31 #10: the pod pages say "pod"; their mails said "table"."""
    event = tournament_create(league=league, name="Friday cEDH", format="pods")
    org = league.organization
    ann = player_with_account(org, "Ann", paired=True)
    enter(event, ann, *[PlayerFactory(organization=org, name=n) for n in ("Bob", "Cy", "Dee")])
    round_pair(tournament=event, number=1)
    run_worker()
    (sent,) = mail.outbox
    assert sent.subject == "[Guildhall] Friday cEDH: Round 1, pod 1"
    assert "you play at pod 1, " in sent.body and "table" not in sent.body
