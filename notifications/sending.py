"""Sending deliveries, in the worker: claim one due row at a time, render its text at the first
attempt, send it within a bounded time (notifications.senders), record the outcome.

A claim takes the row with `SKIP LOCKED` and marks it "sending" (attempts + 1) in a short
transaction of its own; the network call happens outside any transaction, so a slow receiver
holds no row lock. Who is alive is told by PostgreSQL session advisory locks, which the server
drops the moment a worker's process dies: a run of the task holds `RUN_LOCK` shared, and a
delivery being sent holds its own (`DELIVERY_LOCK`, taken in the claiming transaction), until
its outcome is written. The reaper (`services.deliveries_sweep`) takes a free lock as the sign
of a dead worker: it puts the delivery back and closes the dead run. The outcome is written
only while the row is still "sending": sent, queued again for later (backoff,
notifications.domain.retry), or failed with the reason the store's page shows. A delivery
whose subject is gone (the event deleted, the player no longer seated) fails at once with
that reason.
"""

import logging
from collections import Counter
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.languages import recipient_language
from leagues.models import Organization
from tournaments.domain.labels import stage_label
from tournaments.models import Entry, Round, Seat
from tournaments.selectors import bracket_get, standing_lines

from .domain import messages
from .domain.retry import Outcome, after_failure
from .look import email_html, store_look
from .models import Delivery, NotificationSettings, StoreWebhook
from .senders import Mailer, email_send, webhook_post

log = logging.getLogger(__name__)

BATCH = 200  # deliveries one task sends before it hands over to a fresh task
# Advisory-lock namespaces (first key): "nrn" a run of deliver_due, "ndl" a delivery.
RUN_LOCK = (0x6E726E, 0)
DELIVERY_LOCK = 0x6E646C


class Gone(Exception):
    """What the message was about is no longer there: nothing to send."""


def _lock(sql: str, *keys: int) -> bool | None:
    with connection.cursor() as cursor:
        cursor.execute(sql, list(keys))
        return cursor.fetchone()[0]


def delivery_lock_key(pk: int) -> int:
    return pk % 2**31  # the two-key form takes int4 keys


def delivery_lock_try(pk: int) -> bool:
    """Take delivery `pk`'s lock on this session; False when a live worker holds it."""
    return _lock("SELECT pg_try_advisory_lock(%s, %s)", DELIVERY_LOCK, delivery_lock_key(pk))


def delivery_unlock(pk: int) -> None:
    _lock("SELECT pg_advisory_unlock(%s, %s)", DELIVERY_LOCK, delivery_lock_key(pk))


def runs_alive() -> bool:
    """Whether a run of the task is under way in a live process, anywhere."""
    if not _lock("SELECT pg_try_advisory_lock(%s, %s)", *RUN_LOCK):
        return True
    _lock("SELECT pg_advisory_unlock(%s, %s)", *RUN_LOCK)
    return False


def deliveries_send_due(*, limit: int = BATCH) -> dict[str, int]:
    """Send the deliveries that are due, one at a time; the counts of each outcome."""
    counts: Counter = Counter()
    mailer = Mailer()
    _lock("SELECT pg_advisory_lock_shared(%s, %s)", *RUN_LOCK)
    try:
        taken_elsewhere: set[int] = set()
        for _ in range(limit):
            delivery = _claim(taken_elsewhere)
            if delivery is None:
                break
            try:
                counts[_attempt(delivery, mailer)] += 1
            finally:
                delivery_unlock(delivery.pk)
    finally:
        mailer.close()
        _lock("SELECT pg_advisory_unlock_shared(%s, %s)", *RUN_LOCK)
    return dict(counts)


def _claim(taken_elsewhere: set[int]) -> Delivery | None:
    now = timezone.now()
    with transaction.atomic():
        while True:
            delivery = (
                Delivery.objects.select_for_update(skip_locked=True)
                .filter(status=Delivery.Status.QUEUED, next_attempt_at__lte=now)
                .exclude(pk__in=taken_elsewhere)
                .order_by("next_attempt_at", "id")
                .first()
            )
            if delivery is None:
                return None
            # Before "sending" commits, so the reaper never sees it sending and unlocked. Held
            # elsewhere: its last sender letting go, or the reaper looking (left for later).
            if delivery_lock_try(delivery.pk):
                break
            taken_elsewhere.add(delivery.pk)
        try:
            delivery.status = Delivery.Status.SENDING
            delivery.attempts += 1
            delivery.claimed_at = now
            delivery.save(update_fields=["status", "attempts", "claimed_at"])
        except BaseException:
            delivery_unlock(delivery.pk)  # a session lock outlives the rolled-back claim
            raise
    return delivery


def _attempt(delivery: Delivery, mailer: Mailer) -> str:
    # What went wrong is written for the store's page, in the store's language.
    store = store_language(delivery)
    with translation.override(store):
        return _attempt_in(delivery, mailer, store)


def _attempt_in(delivery: Delivery, mailer: Mailer, store: str) -> str:
    try:
        if not delivery.payload:
            delivery.payload = _render(delivery, store)
        if delivery.channel == Delivery.Channel.WEBHOOK:
            # A store that fixed its address meanwhile: the retry goes to the new one.
            url = (
                StoreWebhook.objects.filter(organization_id=delivery.organization_id)
                .values_list("url", flat=True)
                .first()
            )
            if not url:
                raise Gone(_("The store removed its webhook."))
            delivery.target = url
            outcome = webhook_post(
                url,
                delivery.payload,
                attempts=delivery.attempts,
                idempotency_key=delivery.idempotency_key,
            )
        else:
            outcome = email_send(
                delivery.target,
                delivery.payload,
                attempts=delivery.attempts,
                mailer=mailer,
                idempotency_key=delivery.idempotency_key,
            )
    except Gone as gone:
        outcome = Outcome(False, None, str(gone))
    except Exception:
        log.exception("Delivery %s failed", delivery.pk)
        outcome = after_failure(delivery.attempts, _("Something went wrong while sending it."))
    return _outcome_record(delivery, outcome)


def _outcome_record(delivery: Delivery, outcome: Outcome) -> str:
    now = timezone.now()
    fields = {"payload": delivery.payload, "target": delivery.target, "claimed_at": None}
    if outcome.sent:
        fields.update(status=Delivery.Status.SENT, sent_at=now, last_error="")
    elif outcome.retry_in is None:
        fields.update(status=Delivery.Status.FAILED, last_error=outcome.error)
    else:
        fields.update(
            status=Delivery.Status.QUEUED,
            last_error=outcome.error,
            next_attempt_at=now + timedelta(seconds=outcome.retry_in),
        )
    Delivery.objects.filter(pk=delivery.pk, status=Delivery.Status.SENDING).update(**fields)
    return fields["status"]


# --- What a message says ----------------------------------------------------------------------


def _still_wanted(delivery: Delivery) -> bool:
    """A player who turned the mail off between the change and the send gets none."""
    choice = {
        Delivery.Kind.ROUND_PAIRED: "email_round_paired",
        Delivery.Kind.PROMOTED: "email_waitlist_promoted",
    }.get(delivery.kind)
    if choice is None:
        return True  # an invitation tells of a seat taken in their name: not a choice
    return NotificationSettings.objects.filter(user_id=delivery.user_id, **{choice: True}).exists()


def event_when(event) -> str:
    """The event's day as a mail says it ("Wed 2 Dec 2026"), in the active language."""
    if not event.date:
        return _("date to be announced")
    return date_format(event.date, "GH_DAY")


def absolute(path: str) -> str:
    return settings.GUILDHALL_BASE_URL.rstrip("/") + path


def round_label(round_: Round) -> str:
    if round_.kind == Round.Kind.TOP_CUT and round_.stage:
        return _("Top cut: %(stage)s") % {"stage": stage_label(round_.stage, _)}
    return _("Round %(number)s") % {"number": round_.number}


def _email_payload(mail: messages.Email, delivery: Delivery, *, link: str, action: str) -> dict:
    """A mail as stored for its attempts: the text, and the same in the store's look (HTML)."""
    look = store_look(delivery.organization_id)
    html = email_html(mail, look=look, link=link, action=action)
    return {"subject": mail.subject, "body": mail.body, "html": html}


def store_language(delivery: Delivery) -> str:
    """The store's language: its channel's messages', and that of the reasons its
    notifications page shows for a message that failed (`last_error`)."""
    store = (
        Organization.objects.filter(pk=delivery.organization_id)
        .values_list("language", flat=True)
        .first()
    )
    return recipient_language(None, store)


def delivery_language(delivery: Delivery, store: str | None = None) -> str:
    """The language `delivery` is written in: a mail's recipient's (their account's choice,
    else the store's, else English), a store channel's message the store's. Never the
    language active in the worker, which may be that of whoever's request caused it."""
    store = store or store_language(delivery)
    if delivery.channel == Delivery.Channel.EMAIL:
        return recipient_language(delivery.user, store)
    return store


def _render(delivery: Delivery, store: str | None = None) -> dict:
    """The message's words, in its recipient's language (`delivery_language`)."""
    with translation.override(delivery_language(delivery, store)):
        return _render_text(delivery)


def _render_text(delivery: Delivery) -> dict:
    event = delivery.tournament
    if event is None:
        raise Gone(_("The event was deleted."))
    if delivery.channel == Delivery.Channel.EMAIL and not _still_wanted(delivery):
        raise Gone(_("The player turned these mails off."))
    link = absolute(reverse("event_detail", args=[event.slug]))
    kind = delivery.kind
    if kind == Delivery.Kind.ROUND_PAIRED:
        round_ = delivery.round
        link += f"?round={round_.number}"
        label = round_label(round_)
        if delivery.channel == Delivery.Channel.WEBHOOK:
            return {
                "content": messages.pairings_text(event=event.name, round_label=label, link=link)
            }
        seat = (
            Seat.objects.select_related("table", "entry__player")
            .filter(round=round_, entry__player__user_id=delivery.user_id)
            .first()
        )
        if seat is None:
            raise Gone(_("The player no longer has a seat in this round."))
        others = list(
            Seat.objects.filter(table=seat.table)
            .exclude(pk=seat.pk)
            .order_by("position")
            .values_list("entry__player__name", flat=True)
        )
        mail = messages.paired_email(
            event=event.name,
            round_label=label,
            table=seat.table.number,
            seat=seat.position,
            opponents=others,
            bye=not others,
            link=link,
            player=seat.entry.player.name,
            noun=event.play.noun,
        )
        return _email_payload(mail, delivery, link=link, action=_("See the pairings"))
    if kind == Delivery.Kind.PROMOTED:
        entry = (
            Entry.objects.select_related("player")
            .filter(tournament=event, player__user_id=delivery.user_id)
            .first()
        )
        if entry is None:
            raise Gone(_("The player is no longer registered."))
        when = event_when(event)
        mail = messages.promoted_email(
            event=event.name, when=when, link=link, player=entry.player.name
        )
        return _email_payload(mail, delivery, link=link, action=_("See the event"))
    if kind == Delivery.Kind.QUALIFIED:
        registered = Entry.objects.filter(
            tournament=event, player__user_id=delivery.user_id
        ).exists()
        if not registered or not delivery.payload.get("subject"):
            raise Gone(_("The player is no longer registered."))
        # Written when they were invited (the season may have moved on since).
        mail = messages.Email(delivery.payload["subject"], delivery.payload["body"])
        return _email_payload(mail, delivery, link=link, action=_("See the event"))
    if kind == Delivery.Kind.STANDINGS:
        _labels, lines = standing_lines(event)
        rows = [
            messages.StandingRow(line.rank, line.tied, line.name, line.points, line.record)
            for line in lines
        ]
        champion = bracket_get(event).champion if event.top_cut else None
        link = absolute(reverse("event_standings", args=[event.slug]))
        text = messages.standings_text(event=event.name, rows=rows, link=link, champion=champion)
        return {"content": text}
    raise Gone(_("Nothing to say for a %(kind)s message.") % {"kind": kind})
