"""The real path: a TO pairs a round (committed), a real `manage.py db_worker` process picks
the queued task up and sends the store's message to a real HTTP server on 127.0.0.1 and the
players' mails (printed by the worker's console mail backend under DEBUG). The receiver first
asks to wait (429, Discord's `retry_after`): the worker's task asks the queue for a later run
and that run delivers it.
"""

import signal
import time

import pytest
from django_tasks_db.models import DBTaskResult

from jobs.models import Job
from jobs.services import job_start
from notifications import services as notify
from notifications.models import Delivery
from notifications.tasks import QUEUE, deliver_due
from ratings.job_kinds import CATCH_UP
from tests.factories import LeagueFactory, OrganizationFactory, TournamentFactory
from tests.jobs.test_worker_killed import stop, worker
from tests.ratings.test_recalculate_killed import wait_until
from tournaments.services.rounds import round_pair

from .conftest import BASE, enter, player_with_account, webhook_to
from .receiver import Answer, FakeReceiver


@pytest.mark.django_db(transaction=True)
def test_a_paired_round_reaches_the_channel_and_the_players_through_the_worker(settings):
    settings.GUILDHALL_BASE_URL = BASE
    org = OrganizationFactory(slug="worker-store")
    event = TournamentFactory(league=LeagueFactory(organization=org), slug="worker-cup")
    players = [player_with_account(org, n, paired=True) for n in ("Ann", "Bob", "Cat", "Dan")]
    enter(event, *players)
    rate_limited = Answer(429, {"message": "You are being rate limited.", "retry_after": 1})
    with FakeReceiver(rate_limited, Answer(204)) as receiver:
        webhook_to(org, receiver.url)
        round_pair(tournament=event, number=1)
        assert receiver.requests == []
        process = worker("notifications")
        try:
            wait_until(
                lambda: not Delivery.objects.exclude(status="sent").exists(),
                seconds=60,
                what="every delivery to be sent",
            )
        finally:
            output = stop(process)
        assert len(receiver.requests) == 2  # asked to wait, then delivered
        waited = receiver.requests[1]["at"] - receiver.requests[0]["at"]
        assert waited >= 1.0
        assert receiver.contents()[1].startswith("**")
        assert "Round 1 pairings are up: " in receiver.contents()[1]
    webhook = Delivery.objects.get(channel="webhook")
    assert (webhook.attempts, webhook.status) == (2, "sent")
    assert Delivery.objects.filter(channel="email", status="sent").count() == 4
    for player in players:
        assert f"To: {player.user.email}" in output


@pytest.mark.django_db(transaction=True)
def test_a_dripping_webhook_holds_up_no_job(settings):
    """Messages have a queue and a worker of their own: while one store's receiver drips its
    answer (the message worker waits on it, up to the POST's 10 s deadline), a job queued
    meanwhile is done by the default queue's worker."""
    org = OrganizationFactory(slug="slow-store")
    league = LeagueFactory(organization=org)
    with FakeReceiver(Answer(204, drip_every=0.5, drip_for=30)) as receiver:
        webhook_to(org, receiver.url)
        notify.webhook_test_send(organization=org)
        assert DBTaskResult.objects.get(task_path=deliver_due.module_path).queue_name == QUEUE
        workers = [worker("notifications"), worker()]
        try:
            wait_until(lambda: receiver.requests, seconds=60, what="the message to go out")
            job = job_start(kind=CATCH_UP, league=league, key=f"test-catch-up:{league.pk}")
            wait_until(
                lambda: Job.objects.get(pk=job.pk).status == Job.Status.DONE,
                seconds=60,
                what="the job",
            )
            assert Delivery.objects.get().status == "sending"  # still dripping meanwhile
        finally:
            for process in workers:
                stop(process)


@pytest.mark.django_db(transaction=True)
def test_a_message_whose_worker_was_killed_mid_delivery_goes_again_by_itself():
    """SIGKILL the message worker while the receiver holds its POST: a new worker's reaper
    finds the delivery's lock free within a round, puts it back and wakes the queue (no other
    message needed), and it is delivered again with the same idempotency key: at least
    once, the receiver drops the copy by its key (docs/operations.md)."""
    org = OrganizationFactory(slug="killed-store")
    with FakeReceiver(Answer(204, delay=20), Answer(204)) as receiver:
        webhook_to(org, receiver.url)
        delivery, _ = notify.webhook_test_send(organization=org)
        victim = worker("notifications")
        try:
            wait_until(lambda: receiver.requests, seconds=60, what="the first POST")
            victim.send_signal(signal.SIGKILL)
            assert victim.wait(timeout=30) == -signal.SIGKILL
        finally:
            if victim.poll() is None:  # pragma: no cover - a wait above failed
                victim.kill()
                victim.wait()
            victim.stdout.close()
        assert Delivery.objects.get().status == "sending"
        # The killed run is left RUNNING. A second run may already wait in the queue (one CI
        # run of two saw it: a wake-up enqueued while the first run held the POST); it has not
        # started, so what sends the message again below is still the rescuer's reaper or that
        # waiting run, never the killed one.
        runs = DBTaskResult.objects.filter(task_path=deliver_due.module_path)
        killed_run = runs.get(status="RUNNING")
        assert set(runs.exclude(pk=killed_run.pk).values_list("status", flat=True)) <= {"READY"}

        rescuer = worker("notifications")
        started = time.monotonic()
        try:
            wait_until(
                lambda: Delivery.objects.get().status == "sent",
                seconds=60,
                what="the message to go again",
            )
            resumed_in = time.monotonic() - started
            # The killed run is closed too (once older than the reaper's grace), not shown
            # running forever.
            wait_until(
                lambda: DBTaskResult.objects.get(pk=killed_run.pk).status == "FAILED",
                seconds=60,
                what="the killed run to be closed",
            )
        finally:
            stop(rescuer)
        first, second = receiver.requests
    # A worker's start-up (a few seconds on the shared test machine), the killed run's grace
    # (10 s since it started) and a reaper round.
    assert resumed_in < 30
    delivery.refresh_from_db()
    assert delivery.attempts == 2
    key = delivery.idempotency_key
    assert first["headers"]["Idempotency-Key"] == second["headers"]["Idempotency-Key"] == key
    assert first["json"] == second["json"]
