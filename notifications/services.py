"""Notifications' writes: recording messages with the change, and the settings.

Recording (`*_record`, called by the receivers of `tournaments.signals` inside the TO's
transaction) only inserts `Delivery` rows, a few queries whatever the number of players, and
asks for a worker once the transaction commits (`tasks.wake`); nothing here touches the
network in a request. Sending is `notifications.sending`, run by the worker's task.
`deliveries_sweep` (run by `db_worker`'s reaper every few seconds) puts back a delivery whose
worker died while sending it, closes the task run that died with it, asks for a worker when
due deliveries have none, and once an hour deletes the messages finished more than 90 days ago
(`deliveries_prune`).
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.languages import recipient_language
from leagues.models import Organization
from tournaments.models import Round, Seat, Tournament

from .domain import messages
from .domain.webhooks import webhook_url_problem
from .models import Delivery, NotificationSettings, StoreWebhook
from .sending import absolute, delivery_lock_try, delivery_unlock, event_when, runs_alive
from .tasks import due_by, pending_runs, runs_running, wake

log = logging.getLogger(__name__)

# A run marked running this long without holding its lock died with its worker (the lock is
# taken a moment after the worker marks the run running; until then it counts as coming).
RUN_GRACE = timedelta(seconds=10)
# A message sent or given up this long ago is deleted (the store's page shows its last 20;
# a store running weekly 256-player events writes about 100,000 a year).
KEPT = timedelta(days=90)
PRUNE_EVERY = timedelta(hours=1)
_pruned_at = None  # this process's last prune (the sweep runs every few seconds)


class NotificationError(DomainError):
    pass


# --- Recording, in the TO's transaction -------------------------------------------------------


def round_paired_record(*, round_: Round) -> int:
    """Mail each opted-in player of the round their seat; tell the store's channel."""
    tournament = round_.tournament
    organization_id = tournament.league.organization_id
    rows = []
    if settings.GUILDHALL_MAIL_DELIVERS:
        wanted = (
            Seat.objects.filter(
                round=round_,
                entry__player__user__notification_settings__email_round_paired=True,
                entry__player__user__is_active=True,
            )
            .exclude(entry__player__user__email="")
            .values_list("entry__player__user_id", "entry__player__user__email")
        )
        rows += [
            Delivery(
                key=f"paired:{round_.pk}:user:{user_id}",
                kind=Delivery.Kind.ROUND_PAIRED,
                channel=Delivery.Channel.EMAIL,
                organization_id=organization_id,
                tournament=tournament,
                round=round_,
                user_id=user_id,
                target=email,
            )
            for user_id, email in wanted
        ]
    rows += _webhook_rows(
        organization_id, Delivery.Kind.ROUND_PAIRED, f"paired:{round_.pk}", tournament, round_
    )
    return _record(rows)


def promoted_record(*, registration) -> int:
    """Mail a player who moved up from the waitlist, if they asked for it."""
    if not settings.GUILDHALL_MAIL_DELIVERS or registration.player.user_id is None:
        return 0
    address = (
        NotificationSettings.objects.filter(
            user_id=registration.player.user_id,
            email_waitlist_promoted=True,
            user__is_active=True,
        )
        .exclude(user__email="")
        .values_list("user__email", flat=True)
        .first()
    )
    if address is None:
        return 0
    return _record(
        [
            Delivery(
                key=f"promoted:{registration.pk}:entry:{registration.entry_id}",
                kind=Delivery.Kind.PROMOTED,
                channel=Delivery.Channel.EMAIL,
                organization_id=registration.player.organization_id,
                tournament_id=registration.tournament_id,
                user_id=registration.player.user_id,
                target=address,
            )
        ]
    )


def qualified_record(*, registration, season: str, rank: int, top: int) -> int:
    """Mail a player invited to a final by their place in a season: written now (the season
    may move on before the worker sends it), once per player per event whatever the number
    of presses (the key). Not an opt-in mail: it tells them of a seat taken in their name."""
    player = registration.player
    if not settings.GUILDHALL_MAIL_DELIVERS or player.user_id is None:
        return 0
    user = (
        get_user_model().objects.filter(pk=player.user_id, is_active=True).exclude(email="").first()
    )
    if user is None:
        return 0
    event = registration.tournament
    link = absolute(reverse("event_detail", args=[event.slug]))
    store = (
        Organization.objects.filter(pk=player.organization_id)
        .values_list("language", flat=True)
        .first()
    )
    # Written now, in the TO's request: in the player's language, not the TO's.
    with translation.override(recipient_language(user, store)):
        mail = messages.qualified_email(
            event=event.name,
            when=event_when(event),
            link=link,
            player=player.name,
            season=season,
            rank=rank,
            top=top,
        )
    return _record(
        [
            Delivery(
                key=f"qualified:{event.pk}:player:{player.pk}",
                kind=Delivery.Kind.QUALIFIED,
                channel=Delivery.Channel.EMAIL,
                organization_id=player.organization_id,
                tournament_id=event.pk,
                user_id=player.user_id,
                target=user.email,
                payload={"subject": mail.subject, "body": mail.body},
            )
        ]
    )


def event_finished_record(*, tournament: Tournament) -> int:
    """The final standings to the store's channel."""
    organization_id = tournament.league.organization_id
    rows = _webhook_rows(
        organization_id, Delivery.Kind.STANDINGS, f"standings:{tournament.pk}", tournament, None
    )
    return _record(rows)


def _webhook_rows(organization_id, kind, key, tournament, round_) -> list[Delivery]:
    url = (
        StoreWebhook.objects.filter(organization_id=organization_id)
        .values_list("url", flat=True)
        .first()
    )
    if not url:
        return []
    return [
        Delivery(
            key=f"{key}:webhook",
            kind=kind,
            channel=Delivery.Channel.WEBHOOK,
            organization_id=organization_id,
            tournament=tournament,
            round=round_,
            target=url,
        )
    ]


def _record(rows: list[Delivery]) -> int:
    """Insert the rows (a key already there is a message already recorded: skipped) and ask
    for a worker once the caller's transaction commits."""
    if not rows:
        return 0
    Delivery.objects.bulk_create(rows, ignore_conflicts=True)
    transaction.on_commit(wake, robust=True)
    return len(rows)


# --- The store's webhook and a player's choices -----------------------------------------------


def webhook_local_http_allowed() -> bool:
    """http:// to this machine only while developing (a local test receiver)."""
    return settings.GUILDHALL_WEBHOOK_LOCAL


@transaction.atomic
def webhook_set(*, organization, url: str, by=None) -> StoreWebhook | None:
    """Set (or, with an empty `url`, remove) the store's webhook address."""
    url = url.strip()
    if not url:
        StoreWebhook.objects.filter(organization=organization).delete()
        return None
    problem = webhook_url_problem(url, allow_local_http=webhook_local_http_allowed())
    if problem:
        raise NotificationError(message=problem, code="webhook_url", field="url")
    webhook, _ = StoreWebhook.objects.update_or_create(
        organization=organization, defaults={"url": url, "updated_by": by}
    )
    return webhook


@transaction.atomic
def webhook_test_send(*, organization, by=None) -> tuple[Delivery, bool]:
    """Queue a test message to the store's channel: (the delivery, whether it is new). While
    one is still on its way, pressing again queues nothing (that one is returned)."""
    webhook = StoreWebhook.objects.select_for_update().filter(organization=organization).first()
    if webhook is None:
        raise NotificationError(
            message=_("Set the webhook address first."), code="no_webhook", field="url"
        )
    waiting = Delivery.objects.filter(
        organization=organization,
        kind=Delivery.Kind.TEST,
        status__in=[Delivery.Status.QUEUED, Delivery.Status.SENDING],
    ).first()
    if waiting is not None:
        return waiting, False
    now = timezone.now()
    delivery = Delivery.objects.create(
        key=f"test:{organization.pk}:{now.timestamp():.6f}",
        kind=Delivery.Kind.TEST,
        channel=Delivery.Channel.WEBHOOK,
        organization=organization,
        target=webhook.url,
        payload={"content": _store_text(organization)},
    )
    transaction.on_commit(wake, robust=True)
    return delivery, True


def _store_text(organization) -> str:
    """The test message, in the store's language (not that of whoever pressed the button)."""
    with translation.override(recipient_language(None, organization.language)):
        return messages.test_text(store=organization.name)


@transaction.atomic
def delivery_retry(*, organization, delivery_id: int, by=None) -> tuple[Delivery, bool]:
    """Send one of the store's failed channel messages again, once the channel works again
    (a new webhook address, the channel back): queued now with the same words, its tries
    counted afresh. (the delivery, whether it was queued now): pressed again while it is on
    its way (or once sent), it changes nothing."""
    delivery = (
        Delivery.objects.select_for_update()
        .filter(organization=organization, pk=delivery_id, channel=Delivery.Channel.WEBHOOK)
        .first()
    )
    if delivery is None:
        raise NotificationError(
            message=_("That message is no longer kept (messages are kept 90 days)."), code="gone"
        )
    if delivery.status != Delivery.Status.FAILED:
        return delivery, False
    if not StoreWebhook.objects.filter(organization=organization).exists():
        raise NotificationError(
            message=_("Set the webhook address first."), code="no_webhook", field="url"
        )
    delivery.status = Delivery.Status.QUEUED
    delivery.attempts = 0
    delivery.last_error = ""
    delivery.next_attempt_at = timezone.now()
    delivery.save(update_fields=["status", "attempts", "last_error", "next_attempt_at"])
    transaction.on_commit(wake, robust=True)
    return delivery, True


def settings_set(*, user, email_round_paired: bool, email_waitlist_promoted: bool):
    choice, _ = NotificationSettings.objects.update_or_create(
        user=user,
        defaults={
            "email_round_paired": email_round_paired,
            "email_waitlist_promoted": email_waitlist_promoted,
        },
    )
    return choice


# --- Keeping the queue honest (db_worker's reaper) -----------------------------------------


def deliveries_sweep(*, grace: timedelta = RUN_GRACE) -> int:
    """Put back the deliveries whose worker died mid-send, close the task runs that died with
    them, and make sure due deliveries have a worker coming; the number put back.

    A worker's death is told by its advisory locks (`notifications.sending`), dropped by the
    server when its process dies: its delivery is back within one reaper round (5 s), and a
    worker is asked for once its run is older than `grace` (so within 15 s), not after a
    time-out. A delivery put back was sent at least once, maybe received: it goes again with
    the same idempotency key (at least once, never zero times; README, Deployment)."""
    now = timezone.now()
    back = 0
    sending_ids = Delivery.objects.filter(status=Delivery.Status.SENDING).values_list(
        "pk", flat=True
    )
    for pk in sending_ids:
        if not delivery_lock_try(pk):
            continue  # its worker is alive
        try:
            # Read again under the lock: a sender writes the outcome before letting go.
            back += Delivery.objects.filter(pk=pk, status=Delivery.Status.SENDING).update(
                status=Delivery.Status.QUEUED, next_attempt_at=now, claimed_at=None
            )
        finally:
            delivery_unlock(pk)
    if back:
        log.warning("%s notification(s) lost their worker; queued again", back)
    # A run marked running a moment ago may not hold its lock yet: it counts as coming for
    # `grace`; older, it is dead unless a run holds the lock (closed, so the admin stops
    # showing it running).
    alive, young = runs_alive(), runs_running().filter(started_at__gte=now - grace)
    if not alive:
        runs_running().filter(started_at__lt=now - grace).update(status="FAILED", finished_at=now)
    coming = alive or young.exists() or pending_runs().filter(due_by(now)).exists()
    due = Delivery.objects.filter(status=Delivery.Status.QUEUED, next_attempt_at__lte=now)
    if due.exists() and not coming:
        wake()
    global _pruned_at
    if _pruned_at is None or now - _pruned_at >= PRUNE_EVERY:
        deliveries_prune(now=now)
        _pruned_at = now
    return back


def deliveries_prune(*, now=None, kept: timedelta = KEPT) -> int:
    """Delete the messages sent or given up more than `kept` ago (never one still to send:
    a queued or sending delivery stays whatever its age). The number deleted."""
    now = now or timezone.now()
    old = Delivery.objects.filter(
        status__in=[Delivery.Status.SENT, Delivery.Status.FAILED], created_at__lt=now - kept
    )
    deleted, _ = old.delete()
    return deleted
