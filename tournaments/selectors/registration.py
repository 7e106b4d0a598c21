"""Reads for online registration and check-in: the event's seats and waitlist, the signed-in
user's own registration, and the check-in QR code (an SVG drawn server-side by segno)."""

from dataclasses import dataclass

import segno
from django.db.models import Count, Q, QuerySet
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from leagues.models import Player

from ..models import Registration, Tournament


@dataclass(frozen=True)
class Seats:
    """How full the event is: the cap's seats taken (walk-ins entered while a seat was free
    included), the cap, the waitlist, and the extra seats (players the TO entered past the
    cap, who take no seat of the waitlist's)."""

    taken: int
    cap: int | None
    waiting: int
    extra: int = 0

    @property
    def left(self) -> int | None:
        return None if self.cap is None else max(0, self.cap - self.taken)

    @property
    def over(self) -> int:
        """Players past the cap: the TO may register anyone by name (a walk-in) when full."""
        return 0 if self.cap is None else self.extra + max(0, self.taken - self.cap)

    @property
    def total(self) -> int:
        """Every player in, extra seats included."""
        return self.taken + self.extra


def seats_taken(event: Tournament) -> int:
    """The cap's seats taken: entries still in (walk-ins included), but the extra seats."""
    return event.entries.filter(dropped_after__isnull=True, extra_seat=False).count()


def seats_get(event: Tournament) -> Seats:
    counts = event.entries.filter(dropped_after__isnull=True).aggregate(
        taken=Count("pk", filter=Q(extra_seat=False)), extra=Count("pk", filter=Q(extra_seat=True))
    )
    return Seats(
        taken=counts["taken"],
        cap=event.registration_cap,
        waiting=event.registrations.filter(status="waitlisted").count(),
        extra=counts["extra"],
    )


def own_player(user, event: Tournament) -> Player | None:
    """The store's player linked to the signed-in user's account, if any."""
    if not user.is_authenticated:
        return None
    return Player.objects.filter(organization_id=event.league.organization_id, user=user).first()


def own_registration(player: Player | None, event: Tournament) -> Registration | None:
    if player is None:
        return None
    return Registration.objects.filter(tournament=event, player=player).first()


def waitlist_position(registration: Registration) -> int | None:
    """1 for the first on the waitlist; None when not waiting, and once round 1 is paired
    (a player still on the waitlist then has no seat and no place to wait in)."""
    if registration.status != "waitlisted":
        return None
    event = registration.tournament
    if event.status != Tournament.Status.REGISTRATION or event.rounds.exists():
        return None
    return (
        Registration.objects.filter(
            tournament_id=registration.tournament_id,
            status="waitlisted",
            queued_at__lte=registration.queued_at,
        )
        .exclude(queued_at=registration.queued_at, id__gt=registration.id)
        .count()
    )


def not_checked_in(event: Tournament) -> list[Registration]:
    """Registered (seated) players who have not checked in yet, in arrival order: one query."""
    return list(
        event.registrations.filter(status="seated", checked_in_at__isnull=True)
        .select_related("player")
        .order_by("queued_at", "id")
    )


def seated_list(event: Tournament) -> QuerySet:
    """Who holds a seat, in arrival order (the TO's table sorts and pages it)."""
    return (
        event.registrations.filter(status="seated")
        .select_related("player")
        .order_by("queued_at", "id")
    )


def registrations_for_to(event: Tournament) -> dict:
    """The TO's registration page: who is seated (with check-in and paid), who waits, in
    arrival order, and the walk-ins (entries the TO typed in, present by definition)."""
    live = list(
        event.registrations.filter(status__in=("seated", "waitlisted"))
        .select_related("player")
        .order_by("queued_at", "id")
    )
    registered_players = {r.player_id for r in event.registrations.all()}
    walk_ins = [
        e
        for e in event.entries.filter(dropped_after__isnull=True).select_related("player")
        if e.player_id not in registered_players
    ]
    seated = [r for r in live if r.status == "seated"]
    return {
        "seated": seated,
        "waiting": [r for r in live if r.status == "waitlisted"],
        "walk_ins": walk_ins,
        "not_checked_in": [r for r in seated if r.checked_in_at is None],
        "gone": list(
            event.registrations.filter(status__in=("cancelled", "no_show"))
            .select_related("player")
            .order_by("queued_at", "id")
        ),
    }


def qr_svg(url: str) -> SafeString:
    """The QR code of `url` as inline SVG (no script, no image request), sized by CSS."""
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=4, border=2, dark="#000", light="#fff", omitsize=True)
    return mark_safe(svg)  # segno's own markup; the URL is encoded as modules, not text


def check_in_url(request, event: Tournament) -> str:
    """The absolute address the check-in QR code opens."""
    return request.build_absolute_uri(reverse("event_check_in", kwargs={"slug": event.slug}))


def registration_block(request, event: Tournament) -> dict:
    """What the event page shows before round 1: the seats and waitlist, the check-in code
    while check-in is open, and for a signed-in player of the store their own registration."""
    player = own_player(request.user, event)
    registration = own_registration(player, event)
    return {
        "seats": seats_get(event),
        "player": player,
        "registration": registration,
        "position": waitlist_position(registration) if registration else None,
        "entered": player is not None and event.entries.filter(player=player).exists(),
        "qr": qr_svg(check_in_url(request, event))
        if event.check_in == Tournament.CheckIn.OPEN
        else None,
    }
