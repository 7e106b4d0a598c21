"""The rating ledger: per-league settings, every rating step, and each player's current rating.

`RatingChange` is the ledger: one row per player per rated game, holding the display value
before and after, and the system's full state after the game (plus running games, wins and
draws, as `leagues.domain.outcome` counts them), so a replay can restart from any game without
reading anything older. `Rating` is a cache of each
player's last ledger row, for standings. Both can be rebuilt from the league's games at any
time (`manage.py recalculate_ratings`); `LeagueRating.dirty_*` is the durable marker of the
earliest game whose ratings are not yet up to date.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from leagues.domain.outcome import win_percent
from leagues.models import Game, League, Player
from ratings.domain.registry import DEFAULT_SYSTEM


class LeagueRating(models.Model):
    counted = ngettext_lazy("%(n)s league rating", "%(n)s league ratings", "n")
    league = models.OneToOneField(League, on_delete=models.CASCADE, related_name="rating_settings")
    system = models.CharField(max_length=32, default=DEFAULT_SYSTEM)
    params = models.JSONField(default=dict, blank=True)
    # The earliest position (played_on, game id) whose ratings must be recomputed; null = none.
    dirty_from_date = models.DateField(null=True, blank=True)
    dirty_from_game = models.BigIntegerField(null=True, blank=True)
    rated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(dirty_from_date__isnull=True, dirty_from_game__isnull=True)
                | models.Q(dirty_from_date__isnull=False, dirty_from_game__isnull=False),
                name="leaguerating_dirty_marker_whole",
            )
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.system}"

    @property
    def dirty_from(self) -> tuple | None:
        if self.dirty_from_date is None:
            return None
        return (self.dirty_from_date, self.dirty_from_game)


class Rating(models.Model):
    counted = ngettext_lazy("%(n)s rating", "%(n)s ratings", "n")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    value = models.FloatField(help_text=_("What the leaderboard shows."))
    rating = models.FloatField(help_text=_("The system's rating (OpenSkill: mu)."))
    deviation = models.FloatField(null=True, blank=True, help_text=_("OpenSkill: sigma."))
    games = models.PositiveIntegerField(default=0)
    # As `leagues.domain.outcome` counts them: a win is an unshared first place, a draw a
    # shared one; the rest of `games` are losses.
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0, db_default=0)
    last_played = models.DateField(null=True, blank=True)
    last_game_id = models.BigIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="rating_one_per_player")
        ]
        indexes = [
            models.Index(fields=["league", "-value"], name="rating_league_value"),
            # players rated at or after a position (ledger.delete_from)
            models.Index(
                fields=["league", "last_played", "last_game_id"], name="rating_league_last"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.value:g} in {self.league}"

    @property
    def losses(self) -> int:
        return self.games - self.wins - self.draws

    @property
    def win_percent(self) -> float:
        """Wins / games: a draw is no win."""
        return win_percent(self.wins, self.games)


class RatingChange(models.Model):
    # Derived rows, written only by a replay from leagues_gameresult under the league lock:
    # no database FK constraints (checking ~3 per row at commit doubled a 100,000-game
    # rebuild) and no single-column FK indexes (the composite ones below serve every lookup).
    # Django still cascades deletes of a league, game or player to these rows.
    counted = ngettext_lazy("%(n)s rating change", "%(n)s rating changes", "n")
    league = models.ForeignKey(
        League,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    player = models.ForeignKey(
        Player,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        db_constraint=False,
        db_index=False,
    )
    played_on = models.DateField(help_text=_("The game's date, copied: the ledger's order."))
    before = models.FloatField()
    after = models.FloatField()
    delta = models.FloatField()
    rating = models.FloatField(help_text=_("The system's rating after the game."))
    deviation = models.FloatField(null=True, blank=True)
    games = models.PositiveIntegerField(help_text=_("Games rated so far, this one included."))
    wins = models.PositiveIntegerField(help_text=_("Unshared first places so far."))
    draws = models.PositiveIntegerField(
        default=0, db_default=0, help_text=_("Shared first places so far.")
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="ratingchange_one_per_result")
        ]
        indexes = [
            models.Index(fields=["league", "played_on", "game"], name="ratingchange_league_order"),
            models.Index(
                fields=["league", "player", "played_on", "game"], name="ratingchange_player_order"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.before:g} → {self.after:g} (game {self.game_id})"

    @property
    def abs_delta(self) -> float:
        return abs(self.delta)
