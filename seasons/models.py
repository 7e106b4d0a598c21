"""A points season of a league, or of a series across stores: its event types with their point
tables, the events that count, and the season table as last replayed.

A `Series` is one store's (its host's) invitation to other stores to share seasons: each
invited store is a `SeriesMember` whose owner accepts or declines; only accepted stores count
their events in the series' seasons, and a store that leaves keeps its past events there,
marked. A series' table counts one person once: store players linked to one account are one
person, and a player with no account is one person unless the host links them
(`SeriesLink`); nobody is matched by name.

The season table (`SeasonStanding`) is derived, never edited: `seasons.services` replays it
from the events' finishes (`SeasonEvent.finishes`, a snapshot of each event's placings and
records) with the pure `seasons.domain.rules.season_table`. An event whose pages' version
moved past `SeasonEvent.seen_version` must be read again; `Season.stale` marks a season that
lost an event. The after-commit catch-up, or the worker's sweep, brings both up to date.
"""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from seasons.domain.rules import TIEBREAKS, PlacingRow, PointTable

# The tie-break rules as organizers and players read them (the domain's TIEBREAKS labels,
# translated; the domain keeps them in English).
TIEBREAK_LABELS = {
    "most_event_wins": _("Most event wins"),
    "best_single_finish": _("Best single finish"),
    "most_events": _("Most events played"),
    "most_match_wins": _("Most match wins (byes included)"),
}


class Series(models.Model):
    """Seasons shared by several stores; `organization` is the host, which invites the others."""

    counted = ngettext_lazy("%(n)s series", "%(n)s series", "n")

    organization = models.ForeignKey(
        "leagues.Organization", on_delete=models.CASCADE, related_name="hosted_series"
    )
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name", "id"]
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series_detail", args=[self.slug])


class SeriesMember(models.Model):
    """A store in a series: invited, then accepted or declined by its owner; or left."""

    counted = ngettext_lazy("%(n)s series member", "%(n)s series members", "n")

    class Status(models.TextChoices):
        INVITED = "invited", pgettext_lazy("a store in a series", "Invited")
        ACCEPTED = "accepted", pgettext_lazy("a store in a series", "Taking part")
        DECLINED = "declined", pgettext_lazy("a store in a series", "Declined")
        LEFT = "left", pgettext_lazy("a store in a series", "Left")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="members")
    organization = models.ForeignKey(
        "leagues.Organization", on_delete=models.CASCADE, related_name="series_memberships"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITED)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    invited_at = models.DateTimeField(default=timezone.now)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["series", "organization__name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "organization"], name="series_member_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.series_id}: {self.organization_id} ({self.status})"


class SeriesLink(models.Model):
    """The host's word that `player` (a store's player with no account) is the same person as
    `same_as` (another store's player) in the series' tables."""

    counted = ngettext_lazy("%(n)s series link", "%(n)s series links", "n")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="links")
    player = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="+")
    same_as = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="+")
    linked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "player"], name="series_link_unique"),
            models.CheckConstraint(
                condition=~models.Q(player=models.F("same_as")), name="series_link_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.series_id}: {self.player_id} = {self.same_as_id}"


class Season(models.Model):
    # A store's season is its league's; a series' season is shared by the series' stores.
    counted = ngettext_lazy("%(n)s season", "%(n)s seasons", "n")
    league = models.ForeignKey(
        "leagues.League", null=True, blank=True, on_delete=models.CASCADE, related_name="seasons"
    )
    series = models.ForeignKey(
        Series, null=True, blank=True, on_delete=models.CASCADE, related_name="seasons"
    )
    name = models.CharField(max_length=120)
    starts_on = models.DateField()
    ends_on = models.DateField()
    # Names of seasons.domain.rules.TIEBREAKS, in order.
    tiebreaks = models.JSONField(default=list, blank=True)
    stale = models.BooleanField(default=False, editable=False)
    replayed_at = models.DateTimeField(null=True, blank=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-starts_on", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_name_unique"),
            models.UniqueConstraint(
                fields=["series", "name"],
                condition=models.Q(series__isnull=False),
                name="season_series_name_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(league__isnull=True) ^ models.Q(series__isnull=True),
                name="season_league_or_series",
            ),
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")), name="season_dates_order"
            ),
        ]
        indexes = [
            models.Index(fields=["stale"], condition=models.Q(stale=True), name="season_stale")
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        if self.series_id:
            return reverse("series_season", args=[self.series.slug, self.pk])
        return reverse("season_detail", args=[self.league.slug, self.pk])

    @property
    def scope(self):
        """What the season's changes are filed under in the History: its league or series."""
        return self.series if self.series_id else self.league

    @property
    def tiebreak_labels(self) -> list[str]:
        return [TIEBREAK_LABELS[name] for name in self.tiebreaks if name in TIEBREAKS]


class EventType(models.Model):
    """One kind of event of the season and how it pays (seasons.domain.rules.PointTable)."""

    counted = ngettext_lazy("%(n)s event type", "%(n)s event types", "n")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="event_types")
    name = models.CharField(max_length=80)
    # [[down_to, points, more_than or null], ...], best place first.
    placings = models.JSONField(default=list, blank=True)
    best_finishes = models.PositiveSmallIntegerField(null=True, blank=True)
    entering = models.PositiveSmallIntegerField(default=0)
    per_round = models.PositiveSmallIntegerField(default=0)
    per_win = models.PositiveSmallIntegerField(default=0)
    per_draw = models.PositiveSmallIntegerField(default=0)
    per_bye = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "name"], name="season_event_type_unique")
        ]

    def __str__(self) -> str:
        return self.name

    def point_table(self) -> PointTable:
        return PointTable(
            event_type=self.name,
            placings=tuple(PlacingRow(*row) for row in self.placings),
            best_finishes=self.best_finishes,
            entering=self.entering,
            per_round=self.per_round,
            per_win=self.per_win,
            per_draw=self.per_draw,
            per_bye=self.per_bye,
        )


class SeasonEvent(models.Model):
    """An event counted in the season, by its type; `finishes` is its last snapshot:
    [[player_id, first, last, rounds, wins, draws, byes], ...] of `players` players."""

    counted = ngettext_lazy("%(n)s season event", "%(n)s season events", "n")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="events")
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="season_events"
    )
    # RESTRICT: a type in use is not deleted alone (services refuse it), but goes with its season.
    event_type = models.ForeignKey(EventType, on_delete=models.RESTRICT, related_name="events")
    players = models.PositiveIntegerField(default=0, editable=False)
    finishes = models.JSONField(default=list, blank=True, editable=False)
    final = models.BooleanField(default=False, editable=False)
    # The version of the event's pages (core.pagecache: every change to the event bumps it in
    # its own transaction) that `finishes` was read at: the event is stale while they differ.
    seen_version = models.BigIntegerField(default=-1, editable=False)

    class Meta:
        ordering = ["tournament__date", "tournament_id"]
        constraints = [
            models.UniqueConstraint(fields=["season", "tournament"], name="season_event_unique")
        ]
        indexes = [models.Index(fields=["tournament"], name="season_event_tournament")]

    def __str__(self) -> str:
        return f"{self.season_id}: {self.tournament_id}"


class SeasonStanding(models.Model):
    """A player's line of the season table as last replayed (see the module)."""

    counted = ngettext_lazy("%(n)s season standing", "%(n)s season standings", "n")

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey("leagues.Player", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField()  # 1, 2, 3... the order of the table
    rank = models.PositiveIntegerField()
    tied = models.BooleanField(default=False)
    points = models.IntegerField()
    events_counted = models.PositiveIntegerField()
    events_played = models.PositiveIntegerField()
    # {"counted": [[event, type, points, placing, first, last, players]], "dropped": [...],
    #  "to_beat": [[type, points]], "tiebreaks": [[name, value]]}
    detail = models.JSONField(default=dict)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_standing_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.season_id}: {self.rank}. {self.player_id} ({self.points})"
