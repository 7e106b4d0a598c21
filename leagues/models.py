"""League data: organizations and their members, players, leagues, games and results.

Invariants live in the database: one result per player per game, places from 1, seats
distinct, player names unique per organization ignoring case, league slugs unique. The rule
that spans rows — a game has at least two players whose places form a competition ranking —
is a deferred constraint trigger on PostgreSQL (migration 0002), checked at commit.
"""

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone

from .domain.csvformat import NAME_MAX_LENGTH


class Role(models.TextChoices):
    OWNER = "owner", "Owner"
    ORGANIZER = "organizer", "Organizer"
    JUDGE = "judge", "Judge / TO"


# Roles that may change league data (players, games, imports) on the site and in the admin.
MANAGER_ROLES = (Role.OWNER, Role.ORGANIZER)


class Organization(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="organizations"
    )

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.ORGANIZER)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "user"], name="membership_one_role_per_org"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of {self.organization}"


class Player(models.Model):
    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        help_text="The player's own account, if they have one.",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(
                "organization",
                Lower("name"),
                name="player_name_unique_per_org_ci",
                violation_error_message="This organization already has a player with this name.",
            ),
            models.CheckConstraint(condition=~models.Q(name=""), name="player_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class League(models.Model):
    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(max_length=120)
    slug = models.SlugField(
        max_length=60, unique=True, help_text="Used in web addresses and on the command line."
    )
    game_label = models.CharField(
        "game / format", max_length=80, blank=True, help_text="e.g. Commander, cEDH, Modern"
    )
    is_public = models.BooleanField(
        "public", default=True, help_text="Anyone can see a public league's standings and games."
    )
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["organization__name", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(starts_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="league_ends_after_it_starts",
                violation_error_message="A league cannot end before it starts.",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league_detail", kwargs={"slug": self.slug})


class ImportBatch(models.Model):
    """One uploaded CSV: kept while the organizer previews it, then as the record of the import."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for confirmation"
        IMPORTED = "imported", "Imported"
        CANCELLED = "cancelled", "Cancelled"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="imports")
    filename = models.CharField(max_length=255, blank=True)
    sha256 = models.CharField(max_length=64, db_index=True)
    content = models.TextField(help_text="The file as uploaded, decoded to text.")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)
    imported_at = models.DateTimeField(null=True, blank=True)
    games_imported = models.PositiveIntegerField(default=0)
    skipped_lines = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = "import batches"

    def __str__(self) -> str:
        return f"{self.filename or 'upload'} → {self.league} ({self.get_status_display()})"


class Game(models.Model):
    class Source(models.TextChoices):
        MANUAL = "manual", "Entered by hand"
        IMPORT = "import", "CSV import"
        TOURNAMENT = "tournament", "Tournament"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="games")
    played_on = models.DateField(default=timezone.localdate)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    source = models.CharField(max_length=12, choices=Source.choices, default=Source.MANUAL)
    import_batch = models.ForeignKey(
        ImportBatch, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    notes = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    players = models.ManyToManyField(Player, through="GameResult", related_name="games")

    class Meta:
        # The rating order: by date, then in the order the games were entered.
        ordering = ["played_on", "id"]
        indexes = [models.Index(fields=["league", "played_on", "id"], name="game_league_order")]

    def __str__(self) -> str:
        return f"{self.league} game on {self.played_on:%Y-%m-%d} (#{self.pk})"


class GameResult(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    placement = models.PositiveSmallIntegerField(
        help_text="1 = winner; tied players share a place."
    )
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Turn order, 1 = went first."
    )
    stats = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["placement", "seat", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player"],
                name="result_one_per_player_per_game",
                violation_error_message="A player can appear only once in a game.",
            ),
            models.UniqueConstraint(
                fields=["game", "seat"],
                condition=models.Q(seat__isnull=False),
                name="result_one_player_per_seat",
                violation_error_message="Two players cannot have the same seat.",
            ),
            models.CheckConstraint(
                condition=models.Q(placement__gte=1), name="result_placement_from_one"
            ),
            models.CheckConstraint(
                condition=models.Q(seat__isnull=True) | models.Q(seat__gte=1),
                name="result_seat_from_one",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} #{self.placement}"
