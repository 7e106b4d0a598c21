"""Signal receivers: decide which league and position a change touches, and mark it dirty.

The work itself happens in ratings.services after commit. A league being deleted as a whole
(the `origin` of the cascade) takes its ledger with it, so nothing is marked then.
"""

from django.db.models.signals import post_delete, post_save, pre_save
from django.dispatch import receiver

from leagues.models import Game, GameResult, League
from leagues.signals import games_changed

from .services import ratings_mark_dirty


def _origin_model(origin):
    """The model whose delete() started this cascade (an instance or a queryset)."""
    return type(origin) if hasattr(origin, "_meta") else getattr(origin, "model", None)


def _league_cascade(origin) -> bool:
    return _origin_model(origin) is League


@receiver(pre_save, sender=Game, dispatch_uid="ratings_game_pre_save")
def remember_old_position(sender, instance: Game, raw=False, **kwargs):
    instance._ratings_was = None
    if raw or instance.pk is None:
        return
    instance._ratings_was = (
        Game.objects.filter(pk=instance.pk).values_list("league_id", "played_on").first()
    )


@receiver(post_save, sender=Game, dispatch_uid="ratings_game_saved")
def game_saved(sender, instance: Game, raw=False, **kwargs):
    if raw:
        return
    was = getattr(instance, "_ratings_was", None)
    if was is not None:
        league_id, played_on = was
        ratings_mark_dirty(league_id=league_id, position=(played_on, instance.pk))
    ratings_mark_dirty(league_id=instance.league_id, position=(instance.played_on, instance.pk))


@receiver(post_delete, sender=Game, dispatch_uid="ratings_game_deleted")
def game_deleted(sender, instance: Game, origin=None, **kwargs):
    if _league_cascade(origin):
        return
    ratings_mark_dirty(league_id=instance.league_id, position=(instance.played_on, instance.pk))


@receiver(post_save, sender=GameResult, dispatch_uid="ratings_result_saved")
@receiver(post_delete, sender=GameResult, dispatch_uid="ratings_result_deleted")
def result_changed(sender, instance: GameResult, raw=False, origin=None, **kwargs):
    if raw or _origin_model(origin) in (League, Game):
        return  # a whole game's deletion is marked by game_deleted
    game = Game.objects.filter(pk=instance.game_id).values_list("league_id", "played_on").first()
    if game is not None:
        ratings_mark_dirty(league_id=game[0], position=(game[1], instance.game_id))


@receiver(games_changed, dispatch_uid="ratings_games_changed")
def games_bulk_changed(sender, league: League, since, **kwargs):
    ratings_mark_dirty(league_id=league.pk, position=since)
