"""An achievement league: the achievements a league's organizers define, the points it pays
besides them (per game played, per placing), and the players' claims.

A `Claim` is one player's achievement in one game (or, awarded by the organizer, on one
night): claimed by the player and waiting for a podmate (`pending`), confirmed by one
(`confirmed`), declined by one (`disputed`, for the organizer to settle), refused by the
organizer (`rejected`) or taken back by its claimer (`withdrawn`). The database keeps one
live claim of an achievement per player per game; the rule "once per night / season" is the
service's, under the player's row lock (achievements.domain.scoring).
"""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from .domain.scoring import NAME_MAX, Per

# How often an achievement may be earned, as players read it (the domain's RULES, translated).
RULE_LABELS = {
    Per.GAME: _("once per game"),
    Per.NIGHT: _("once per night"),
    Per.SEASON: _("once per season"),
}


class Scoring(models.Model):
    """What a league pays besides its achievements; none: nothing."""

    counted = ngettext_lazy("%(n)s achievement scoring", "%(n)s achievement scorings", "n")

    league = models.OneToOneField(
        "leagues.League", on_delete=models.CASCADE, related_name="achievement_scoring"
    )
    per_game = models.PositiveSmallIntegerField(default=0)
    # Points for 1st, 2nd, ... (places past the list pay nothing).
    placings = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("achievement scoring")

    def __str__(self) -> str:
        return f"scoring of {self.league_id}"


class Achievement(models.Model):
    counted = ngettext_lazy("%(n)s achievement", "%(n)s achievements", "n")
    league = models.ForeignKey(
        "leagues.League", on_delete=models.CASCADE, related_name="achievements"
    )
    name = models.CharField(max_length=NAME_MAX)
    description = models.CharField(max_length=200, blank=True)
    points = models.SmallIntegerField()
    per = models.CharField(
        _("how often"),
        max_length=8,
        choices=[(p.value, RULE_LABELS[p]) for p in Per],
        default="game",
    )
    # A retired achievement is no longer claimed or awarded; what was earned stays.
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-active", "name", "id"]
        constraints = [
            models.UniqueConstraint(
                "league",
                Lower("name"),
                name="achievement_name_unique_per_league_ci",
                violation_error_message=_("The league already has an achievement with this name."),
            ),
            models.CheckConstraint(
                condition=models.Q(points__gte=-100, points__lte=100),
                name="achievement_points_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rule(self) -> str:
        return RULE_LABELS[Per(self.per)]


class Claim(models.Model):
    counted = ngettext_lazy("%(n)s achievement claim", "%(n)s achievement claims", "n")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a podmate")
        CONFIRMED = "confirmed", pgettext_lazy("a claim's state", "confirmed")
        DISPUTED = "disputed", _("declined: the organizer decides")
        REJECTED = "rejected", _("refused by the organizer")
        WITHDRAWN = "withdrawn", pgettext_lazy("a claim's state", "withdrawn")

    class Source(models.TextChoices):
        CLAIM = "claim", _("claimed by the player")
        AWARD = "award", _("awarded by the organizer")

    HELD = (Status.PENDING, Status.DISPUTED, Status.CONFIRMED)

    achievement = models.ForeignKey(Achievement, on_delete=models.CASCADE, related_name="claims")
    player = models.ForeignKey(
        "leagues.Player", on_delete=models.PROTECT, related_name="achievement_claims"
    )
    # The game it was earned in; None for an award for a night. A deleted game leaves the
    # claim on its night (the organizer sees it and may refuse it).
    game = models.ForeignKey(
        "leagues.Game",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="achievement_claims",
    )
    night = models.DateField()
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.CLAIM)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The podmate who confirmed or declined it.
    answered_by = models.ForeignKey(
        "leagues.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    # The organizer who awarded or settled it.
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("achievement claim")
        ordering = ["-night", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["achievement", "player", "game"],
                condition=models.Q(
                    game__isnull=False, status__in=["pending", "disputed", "confirmed"]
                ),
                name="claim_once_per_game",
                violation_error_message=_("This achievement is already claimed for this game."),
            ),
        ]
        indexes = [
            models.Index(fields=["player", "created_at"], name="claim_player_recent"),
            models.Index(fields=["achievement", "player", "status"], name="claim_held"),
            models.Index(fields=["game"], name="claim_game"),
        ]

    def __str__(self) -> str:
        return f"{self.achievement} for {self.player} ({self.status})"
