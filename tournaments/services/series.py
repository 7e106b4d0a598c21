"""An event's listing (start time, place, fee) and its weekly repeats ("copy this event").

A copy takes every setting of the event (format, points, tiebreakers, rounds, cut, layout,
clock, registration cap and note, deck rules, time, place, fee) and nothing that happened in
it (entries, registrations, rounds, check-in): a new slug, a new seed, the date a week on.
The copies of an event and of its copies form one weekly series, kept by `series` (the first
event); the database holds one event per series per date, and the copy locks the first
event's row, so a double tap or two TOs at once make each week's copy once.
"""

import secrets
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from django.db import transaction
from django.db.models import Q
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from audit.actors import acting_user
from audit.services import log_action
from audit.summary import N_, Day, Summary
from leagues import services as league_services

from ..actions import Action
from ..errors import TournamentError
from ..models import Tournament
from .common import tournament_lock
from .events import far_date_problem, listing_check

MAX_WEEKS = 12

# Settings a copy takes over. `test_series` checks that every field of Tournament is listed
# here or in NOT_COPIED, so a new setting is a decision, not an accident.
COPIED = (
    "league",
    "name",
    "format",
    "points_win",
    "points_draw",
    "points_loss",
    "points_bye",
    "swiss_rounds",
    "tiebreakers",
    "top_cut",
    "first_round",
    "bye_pairing",
    "cut_seats",
    "pod_layout",
    "omw_floor",
    "gw_floor",
    "bye_rule",
    "registration_open",
    "registration_cap",
    "registration_note",
    "deck_visibility",
    "decklist_format",
    "decklist_required",
    "round_minutes",
    "self_report",
    "start_time",
    "place",
    "entry_fee",
    "fee_currency",
)
# Moved on by the copy's weeks with the date.
SHIFTED = ("registration_deadline", "deck_deadline")
# The event's own: who and what happened in it, and what the copy makes anew.
NOT_COPIED = (
    "id",
    "slug",
    "date",
    "status",
    "check_in",
    "seed",
    "series",
    "created_by",
    "created_at",
)


@dataclass
class Copies:
    """What a copy did: the events made, and the dates that already had one (left alone)."""

    created: list[Tournament] = field(default_factory=list)
    existing: list[Tournament] = field(default_factory=list)


@transaction.atomic
def tournament_listing_set(
    *,
    tournament: Tournament,
    date: date,
    start_time: time | None,
    place: str,
    entry_fee: Decimal | None,
    fee_currency: str,
    confirm_date: bool = False,
    by=None,
) -> Tournament:
    """Change when and where the event is and what it costs. The date moves only before
    round 1, and not onto a date its weekly series already holds."""
    tournament = tournament_lock(tournament)
    before = _listing(tournament)
    place, fee_currency = listing_check(
        start_time=start_time, place=place, entry_fee=entry_fee, fee_currency=fee_currency
    )
    if date != tournament.date:
        if tournament.rounds.exists():
            raise TournamentError(
                _("Round 1 has been paired: the date stays as it is."), code="started", field="date"
            )
        if not confirm_date and (far := far_date_problem(date)):
            raise TournamentError(far, code="far_date", field="date")
        series = _series(tournament.series_id or tournament.pk)
        if Tournament.objects.filter(series, date=date).exclude(pk=tournament.pk).exists():
            raise TournamentError(
                _("This weekly series already has an event on %(date)s.")
                % {"date": date_format(date, "GH_DATE_LONG")},
                code="series_date",
                field="date",
            )
    tournament.date = date
    tournament.start_time = start_time
    tournament.place = place
    tournament.entry_fee = entry_fee
    tournament.fee_currency = fee_currency
    tournament.save(update_fields=["date", "start_time", "place", "entry_fee", "fee_currency"])
    after = _listing(tournament)
    if after != before:
        summary = Summary(N_("date, time, place or fee changed"))
        log_action(tournament, Action.EVENT_LISTING, tournament, summary, before, after, by)
    return tournament


def _listing(tournament: Tournament) -> dict:
    return {
        "date": tournament.date.isoformat(),
        "start_time": tournament.start_time.strftime("%H:%M") if tournament.start_time else None,
        "place": tournament.place,
        "entry_fee": str(tournament.entry_fee) if tournament.entry_fee is not None else None,
        "fee_currency": tournament.fee_currency,
    }


def _series(root_id: int) -> Q:
    """The events of the series whose first event is `root_id`, that one included."""
    return Q(series_id=root_id) | Q(pk=root_id)


def _shifted(value: datetime | None, days: int) -> datetime | None:
    return None if value is None else value + timedelta(days=days)


@transaction.atomic
def tournament_copy_weekly(*, tournament: Tournament, weeks: int = 1, by=None) -> Copies:
    """The event again on each of the next `weeks` weeks (1 to MAX_WEEKS): same settings, no
    entries. A week that already has an event of the series keeps it (`Copies.existing`)."""
    if not isinstance(weeks, int) or not 1 <= weeks <= MAX_WEEKS:
        raise TournamentError(
            _("Copy for 1 to %(most)s weeks.") % {"most": MAX_WEEKS}, code="weeks", field="weeks"
        )
    # Every copy of the series locks its first event: two taps are serialised here.
    root_id = tournament.series_id or tournament.pk
    tournament_lock(root_id, pages=False)
    source = Tournament.objects.select_related("league__organization").get(pk=tournament.pk)
    dates = [source.date + timedelta(weeks=k) for k in range(1, weeks + 1)]
    found = {t.date: t for t in Tournament.objects.filter(_series(root_id), date__in=dates)}
    copies = Copies()
    for day in dates:
        if day in found:
            copies.existing.append(found[day])
            continue
        days = (day - source.date).days
        fields = {name: getattr(source, name) for name in COPIED}
        fields.update(
            {name: _shifted(getattr(source, name), days) for name in SHIFTED},
            date=day,
            series_id=root_id,
            slug=league_services.slug_new(
                model=Tournament,
                organization=source.league.organization,
                name=f"{source.name} {day:%Y-%m-%d}",
                scope="league__organization",
                fallback="event",
            ),
            seed=secrets.randbelow(2**31),
            created_by=acting_user(by),
        )
        copies.created.append(Tournament.objects.create(**fields))
    if copies.created:
        days = [Day(t.date, "GH_DAY_MONTH") for t in copies.created]
        summary = Summary(N_("copied to %(days)s"), days=days)
        after = {"copies": [{"slug": t.slug, "date": t.date.isoformat()} for t in copies.created]}
        log_action(source, Action.EVENT_COPY, source, summary, None, after, by)
    return copies
