"""Signal receivers: a changed event asks for its seasons' catch-up after commit (no query
in the writer's transaction); a season that lost an event is marked, and so is every season
of a series whose store's player was linked to an account or unlinked (one person across
stores is found by account). The work happens in `seasons.services` after commit."""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from leagues.models import League, Player
from tournaments.signals import event_touched

from .models import Season, SeasonEvent
from .services import season_mark_stale, seasons_catch_up_event


@receiver(event_touched, dispatch_uid="seasons_event_touched")
def event_touched_mark(sender, tournament_id: int, **kwargs):
    seasons_catch_up_event(tournament_id=tournament_id)


@receiver(post_delete, sender=SeasonEvent, dispatch_uid="seasons_event_deleted")
def season_event_deleted(sender, instance: SeasonEvent, origin=None, **kwargs):
    origin_model = type(origin) if hasattr(origin, "_meta") else getattr(origin, "model", None)
    if origin_model is Season:
        return  # the season goes with it
    season_mark_stale(season_id=instance.season_id)


@receiver(post_save, sender=Player, dispatch_uid="seasons_player_account")
def player_account_changed(sender, instance: Player, created=False, update_fields=None, **kwargs):
    """A claim approved, a code used, an account unlinked: the series' seasons where this
    store takes part count people by account, so they are replayed. A new player has no
    finishes yet, and a save that leaves the account alone changes no person."""
    if created or (update_fields is not None and "user" not in update_fields):
        return
    seasons = Season.objects.filter(
        series__members__organization_id=instance.organization_id
    ).values_list("pk", flat=True)
    for season_id in seasons:
        season_mark_stale(season_id=season_id)


@receiver(post_save, sender=League, dispatch_uid="seasons_league_saved")
def league_saved(sender, instance: League, created=False, update_fields=None, **kwargs):
    """A league made private (or public again, in the admin): the series' seasons counting its
    events are replayed, so a private league's players leave their public tables at once."""
    if created or (update_fields is not None and "is_public" not in update_fields):
        return
    seasons = (
        Season.objects.filter(series__isnull=False, events__tournament__league=instance)
        .values_list("pk", flat=True)
        .distinct()
    )
    for season_id in seasons:
        season_mark_stale(season_id=season_id)
