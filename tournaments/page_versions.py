"""An event's public pages in the shared cache (core.pagecache): which versions they hang on,
and the edits outside the services that bump the event's version.

Every service write locks the event row first (`services.common.tournament_lock`), and that is
where it bumps the event's version: registration, pairing, a result or its correction or undo,
a pairing edit, a drop, the top cut. An edit to the event row itself (the admin) bumps it here.
Its pages also show the store's and league's names and the players' names (the organization's
version, leagues.page_versions), and standings by opponents' rating read the league's ratings
(the league's version, bumped by each rating replay).
"""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.pagecache import Scope, touch

from . import selectors
from .models import Tournament
from .selectors.standings import tiebreakers


def event_scopes(event: Tournament) -> list[Scope]:
    scopes = [("event", event.pk), ("org", event.league.organization_id)]
    if "avg_opp_rating" in tiebreakers(event):
        scopes.append(("league", event.league_id))
    return scopes


def event_page_scopes(request, slug: str, **kwargs) -> list[Scope]:
    """For `core.pagecache.public_page`: the event if the visitor may see it (else 404)."""
    return event_scopes(selectors.event_get(slug=slug, user=request.user))


def event_route(request, slug: str, **kwargs) -> str:
    return f"event:{slug}"


@receiver(post_save, sender=Tournament, dispatch_uid="pagecache_event_saved")
def event_saved(sender, instance: Tournament, created=False, raw=False, **kwargs):
    if not created and not raw:
        touch(("event", instance.pk))


@receiver(post_delete, sender=Tournament, dispatch_uid="pagecache_event_deleted")
def event_deleted(sender, instance: Tournament, **kwargs):
    touch(("event", instance.pk))
