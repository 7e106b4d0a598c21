"""Who may see and run an event: the store's rules (leagues.permissions) plus per-event judges.

An event is visible to whoever may see its league, and to its own judges
(`TournamentJudge`), who may not be members of the store. An event is run (console,
registration, pairing, results, drops, top cut) by the store's owners, organizers and
judges, by superusers, and by the event's own judges; a per-event judge gets nothing else
of the store: no other event, no league page of a private league, no league history.
"""

from django.db.models import Exists, OuterRef, Q, QuerySet

from leagues.permissions import can_run_events_of, viewer_organization_ids, visible_leagues

from .models import Tournament, TournamentJudge


def _is_active(user) -> bool:
    return bool(user and user.is_authenticated and user.is_active)


def is_event_judge(user, event: Tournament) -> bool:
    """Whether `user` is one of this event's own judges (not counting store memberships)."""
    if not _is_active(user):
        return False
    return TournamentJudge.objects.filter(tournament=event, user=user).exists()


def visible_events(user) -> QuerySet:
    """Events `user` may look at: those of the leagues they may see, and those they judge."""
    events = Tournament.objects.select_related("league__organization")
    visible = Q(league__in=visible_leagues(user))
    if _is_active(user):
        visible |= Q(Exists(TournamentJudge.objects.filter(tournament=OuterRef("pk"), user=user)))
    return events.filter(visible)


def event_is_visible(user, event: Tournament) -> bool:
    """`visible_events`' rule for one event already read with its league: a public league's
    at once (most events: no query), else by the user's stores and the event's judges."""
    if event.league.is_public:
        return True
    ids = viewer_organization_ids(user)
    return ids is None or event.league.organization_id in ids or is_event_judge(user, event)


def can_run_event(user, event: Tournament) -> bool:
    """The store's owners, organizers and judges, superusers, and the event's own judges."""
    return can_run_events_of(user, event.league.organization_id) or is_event_judge(user, event)
