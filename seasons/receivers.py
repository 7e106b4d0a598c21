"""Signal receivers: a changed event asks for its seasons' catch-up after commit (no query
in the writer's transaction); a season that lost an event is marked. The work happens in
`seasons.services` after commit."""

from django.db.models.signals import post_delete
from django.dispatch import receiver

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
