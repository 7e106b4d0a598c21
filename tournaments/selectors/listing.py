"""Reads for finding an event: the upcoming public events of the site or of one store, an
event's facts (when, where, format, fee, seats left) and its calendar entry.

Upcoming means dated today or later (the store's day) and not finished. Only events of public
leagues are listed, whoever looks: the lists are the same for everyone (a store's private
league keeps its nights to itself), and which leagues are public is asked of
`leagues.permissions.visible_leagues` for a visitor, the site's one rule for it, not
re-implemented here. Each list is one query, seats counted in it.

The store's time zone is the site's (settings.TIME_ZONE) until stores have one of their own:
`store_zone` is the one place that decides it.
"""

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

from django.contrib.auth.models import AnonymousUser
from django.db.models import Count, F, Q
from django.utils import timezone
from django.utils.translation import gettext

from leagues.models import Organization
from leagues.permissions import visible_leagues
from leagues.services import store_time_zone

from ..domain.ical import CalendarEvent, whole_day_end
from ..domain.listing import fee_label, seats_label
from ..models import Tournament
from .registration import Seats, seats_get

# The currency a store's first fee is offered in (the site speaks en-us); afterwards, the
# store's last one.
DEFAULT_CURRENCY = "USD"
HOME_LIMIT = 12
STORE_LIMIT = 60
# A calendar entry's length is a guess from the event's settings: each round its minutes
# plus 10 between rounds; rounds unknown until round 1 are counted as 4 (17-32 players).
GUESSED_SWISS_ROUNDS = 4
MINUTES_BETWEEN_ROUNDS = 10
CUT_ROUNDS = {"1v1": {0: 0, 4: 2, 8: 3, 16: 4}, "pods": {0: 0, 4: 1, 16: 2}}


def store_zone(organization: Organization | None = None) -> tzinfo:
    """The time zone a store's event times are in: the one its owner chose on the store's
    profile (`leagues.services.store_time_zone`), else the site's."""
    if organization is None:
        return timezone.get_default_timezone()
    return store_time_zone(organization)


def store_today(organization: Organization | None = None) -> date:
    return timezone.localdate(timezone=store_zone(organization))


def store_currency(organization: Organization) -> str:
    """The currency of the store's latest event that had one (its fees' usual currency)."""
    last = (
        Tournament.objects.filter(league__organization=organization)
        .exclude(fee_currency="")
        .order_by("-created_at", "-pk")
        .values_list("fee_currency", flat=True)
        .first()
    )
    return last or DEFAULT_CURRENCY


@dataclass(frozen=True)
class EventFacts:
    """What a player needs to decide on an event, as the lists and the event page show it."""

    slug: str
    name: str
    date: date
    start_time: time | None
    format: str
    store: str
    place: str  # the store's name, with the note when there is one
    fee: str  # "Free", "$10"
    seats: str  # "5 of 16 left", "No limit"
    seats_left: int | None
    registration_open: bool


def _facts(event: Tournament, *, taken: int | None, waiting: int = 0) -> EventFacts:
    """The event's facts; `taken` None: seats not counted (the event has started)."""
    store = event.league.organization.name
    cap = event.registration_cap
    return EventFacts(
        slug=event.slug,
        name=event.name,
        date=event.date,
        start_time=event.start_time,
        format=event.get_format_display(),
        store=store,
        place=f"{store} — {event.place}" if event.place else store,
        fee=fee_label(event.entry_fee, event.fee_currency, gettext),
        seats=""
        if taken is None
        else seats_label(cap=cap, taken=taken, waiting=waiting, gettext=gettext),
        seats_left=None if cap is None or taken is None else max(0, cap - taken),
        registration_open=event.registration_open,
    )


def upcoming_events(
    *, organization: Organization | None = None, limit: int = HOME_LIMIT, started: bool = True
) -> list[EventFacts]:
    """The next public events, soonest first (then by start time, unknown times last), of
    every store or of `organization`; with `started=False`, only those not begun (the home
    page lists the others under "Live now")."""
    public = visible_leagues(AnonymousUser())
    shown = [Tournament.Status.REGISTRATION]
    if started:
        shown += [Tournament.Status.SWISS, Tournament.Status.TOP_CUT]
    events = (
        Tournament.objects.filter(
            league__in=public, date__gte=store_today(organization), status__in=shown
        )
        .select_related("league__organization")
        .annotate(
            taken=Count(  # the cap's seats: an extra seat past the cap is not one
                "entries",
                filter=Q(entries__dropped_after__isnull=True, entries__extra_seat=False),
                distinct=True,
            ),
            waiting=Count(
                "registrations", filter=Q(registrations__status="waitlisted"), distinct=True
            ),
        )
        .order_by("date", F("start_time").asc(nulls_last=True), "name", "pk")
    )
    if organization is not None:
        events = events.filter(league__organization=organization)
    return [_facts(e, taken=e.taken, waiting=e.waiting) for e in events[:limit]]


@dataclass(frozen=True)
class LiveEvent:
    """An event being played now, for the home page's "Live now": where to follow it."""

    slug: str
    name: str
    store: str
    league: str
    status: str


def live_events(*, limit: int = HOME_LIMIT) -> list[LiveEvent]:
    """The public events being played now (Swiss rounds or top cut), newest first: one query."""
    public = visible_leagues(AnonymousUser())
    events = (
        Tournament.objects.filter(
            league__in=public,
            status__in=[Tournament.Status.SWISS, Tournament.Status.TOP_CUT],
        )
        .select_related("league__organization")
        .order_by("-date", "name", "pk")[:limit]
    )
    return [
        LiveEvent(
            slug=e.slug,
            name=e.name,
            store=e.league.organization.name,
            league=e.league.name,
            status=e.get_status_display(),
        )
        for e in events
    ]


def event_facts(
    event: Tournament, *, seats: Seats | None = None, started: bool = False
) -> EventFacts:
    """The event's facts, its seats counted unless given (`registration.seats_get`, which the
    event page has read already) or the event has started (no seats to offer then)."""
    if started:
        return _facts(event, taken=None)
    seats = seats or seats_get(event)
    return _facts(event, taken=seats.taken, waiting=seats.waiting)


def expected_minutes(event: Tournament) -> int:
    """How long the event is expected to run (a guess for the calendar; see the constants)."""
    rounds = event.swiss_rounds or GUESSED_SWISS_ROUNDS
    rounds += CUT_ROUNDS.get(event.format, {}).get(event.top_cut, 0)
    return rounds * (event.round_minutes + MINUTES_BETWEEN_ROUNDS)


def event_start(event: Tournament) -> datetime | None:
    """When the event starts, an aware datetime in the store's zone; None without a time."""
    if event.start_time is None:
        return None
    zone = store_zone(event.league.organization)
    return datetime.combine(event.date, event.start_time, tzinfo=zone)


def calendar_event(event: Tournament, *, url: str, host: str) -> CalendarEvent:
    """The event's calendar entry. Its UID is the event's id at the site's host: the same on
    every download, so importing it again updates the entry rather than adding one."""
    facts = event_facts(event)
    start = event_start(event)
    if start is None:
        begins, ends = event.date, whole_day_end(event.date)
    else:
        begins, ends = start, start + timedelta(minutes=expected_minutes(event))
    description = [f"{facts.format} at {facts.store}.", f"Entry: {facts.fee}."]
    if event.registration_note:
        description.append(event.registration_note)
    description.append(url)
    return CalendarEvent(
        uid=f"event-{event.pk}@{host}",
        summary=event.name,
        start=begins,
        end=ends,
        stamp=timezone.now(),
        url=url,
        location=facts.place,
        description="\n".join(description),
    )
