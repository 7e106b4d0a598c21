"""Listening to the tournament services (tournaments.signals): each announcement records its
deliveries in the announcing transaction. A bug or a database error here is caught inside a
savepoint and logged: a notification that cannot be recorded never stops a round from being
paired, a player from moving up or an event from ending.
"""

import logging

from django.db import transaction

from tournaments import signals

from . import services

log = logging.getLogger(__name__)


def _guarded(record, **kwargs) -> None:
    try:
        with transaction.atomic():
            record(**kwargs)
    except Exception:
        log.exception("Recording notifications failed (%s); the change itself went on", record)


def on_round_paired(sender, round_, **kwargs) -> None:
    _guarded(services.round_paired_record, round_=round_)


def on_waitlist_promoted(sender, registration, **kwargs) -> None:
    _guarded(services.promoted_record, registration=registration)


def on_event_finished(sender, tournament, **kwargs) -> None:
    _guarded(services.event_finished_record, tournament=tournament)


def connect() -> None:
    signals.round_paired.connect(on_round_paired, dispatch_uid="notifications.paired")
    signals.waitlist_promoted.connect(on_waitlist_promoted, dispatch_uid="notifications.promoted")
    signals.event_finished.connect(on_event_finished, dispatch_uid="notifications.finished")
