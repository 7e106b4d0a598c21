"""An event's public pages in the shared cache (core.pagecache): which versions they hang on,
and the edits outside the services that bump the event's version.

Every service write locks the event row first (`services.common.tournament_lock`), and that is
where it bumps the event's version: registration, pairing, a result or its correction or undo,
a pairing edit, a drop, the top cut. An edit to the event row itself (the admin) bumps it here.
Its pages also show the store's and league's names and the players' names (the organization's
version, leagues.page_versions), and standings by opponents' rating read the league's ratings
(the league's version, bumped by each rating replay).

A player's own page (reports/views.py, polled by every phone) shows the event and its rounds but,
of the tables, only the player's own. So every change bumps a second scope too, the players'
(`PLAYERS_SCOPE`), except the two that touch one table: a table's result (or its correction
or undo) and its players' reports, which bump the pages of that table's players (`("entry",
id)`) instead (`event_changed`). A result at pod 12 leaves the other 252 phones' polls 304s.
"""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.pagecache import Scope, memo, touch

from . import selectors
from .models import Tournament
from .selectors import placings as placing_selectors
from .selectors.standings import tiebreakers
from .signals import event_touched

PLAYERS_SCOPE = "event-players"  # every player's own page of the event


def event_changed(event_id: int, *, table_of: list[int] | None = None) -> None:
    """Bump what a change to the event shows on: its pages, and every player's own page, or,
    for a change to one table (`table_of`: the entries seated at it), those players' pages
    only. One statement (and whatever the listeners of `signals.event_touched` do: a season
    the event counts in marks it, one more)."""
    if table_of is None:
        touch(("event", event_id), (PLAYERS_SCOPE, event_id))
    else:
        touch(("event", event_id), *(("entry", entry) for entry in table_of))
    event_touched.send(sender=Tournament, tournament_id=event_id)


def player_scopes(event: Tournament, entry_id: int | None) -> list[Scope]:
    """What a player's own page of the event hangs on (with their entry, if they hold one)."""
    scopes = [(PLAYERS_SCOPE, event.pk), ("org", event.league.organization_id)]
    if entry_id is not None:
        scopes.append(("entry", entry_id))
    return scopes


def event_scopes(event: Tournament) -> list[Scope]:
    scopes = [("event", event.pk), ("org", event.league.organization_id)]
    if "avg_opp_rating" in tiebreakers(event):
        scopes.append(("league", event.league_id))
    return scopes


def event_placings_kept(event: Tournament, *, request=None):
    """`selectors.placings.event_placings(event)`, computed once per version of the event
    (`core.pagecache.memo`), whichever page asks first: its pages' finish lines, a player's
    My Guildhall."""
    return memo(
        "event-placings",
        event_scopes(event),
        lambda: placing_selectors.event_placings(event),
        request=request,
    )


def event_page_scopes(request, slug: str, **kwargs) -> list[Scope]:
    """For `core.pagecache.public_page`: the event if the visitor may see it (else 404)."""
    return event_scopes(selectors.event_get(slug=slug, user=request.user))


def event_route(request, slug: str, **kwargs) -> str:
    return f"event:{slug}"


@receiver(post_save, sender=Tournament, dispatch_uid="pagecache_event_saved")
def event_saved(sender, instance: Tournament, created=False, raw=False, **kwargs):
    if not created and not raw:
        event_changed(instance.pk)


@receiver(post_delete, sender=Tournament, dispatch_uid="pagecache_event_deleted")
def event_deleted(sender, instance: Tournament, **kwargs):
    event_changed(instance.pk)
