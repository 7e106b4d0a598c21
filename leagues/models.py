"""League data: organizations and their members, players, leagues, games and results.

Invariants live in the database: one result per player per game, places from 1, seats
distinct, player names unique per organization ignoring case, league slugs unique. The rule
that spans rows — a game has at least two players whose places form a competition ranking —
is a deferred constraint trigger on PostgreSQL (migration 0002), checked at commit.
"""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from audit.actors import acting_user

from .domain.csvformat import NAME_MAX_LENGTH, REPEATS_GUILDMASTER, REPEATS_REFUSE


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    ORGANIZER = "organizer", _("Organizer")
    JUDGE = "judge", _("Judge / TO")


# Roles that may change league data (players, games, imports) on the site and in the admin.
MANAGER_ROLES = (Role.OWNER, Role.ORGANIZER)


class Organization(models.Model):
    counted = ngettext_lazy("%(n)s store", "%(n)s stores", "n")
    name = models.CharField(max_length=120)
    # What a phone's header says instead of a long name ("Dragon's Den"), '' for the name
    # itself, wrapped on two lines (issue 43). At most SHORT_NAME_MAX characters.
    short_name = models.CharField(max_length=20, blank=True, default="", db_default="")
    slug = models.SlugField(max_length=60, unique=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="Membership", related_name="organizations"
    )
    # The store's profile, edited by its owner (leagues.services.store). The logo is kept in
    # the database, checked on upload (leagues.domain.images): the site has no media storage
    # to configure or back up, and a logo is a few dozen kilobytes served with a long cache.
    address = models.TextField(max_length=300, blank=True, db_default="")
    time_zone = models.CharField(
        max_length=64,
        blank=True,
        db_default="",
        help_text=_("Empty: the site's time zone (settings.TIME_ZONE)."),
    )
    # The language of the store's pages for visitors who chose none, and of its mails to
    # accounts that chose none ('' for English): core.languages.
    language = models.CharField(
        max_length=10, blank=True, default="", db_default="", choices=settings.LANGUAGES
    )
    logo = models.BinaryField(null=True, blank=True, editable=False)
    logo_type = models.CharField(max_length=20, blank=True, editable=False, db_default="")
    logo_version = models.PositiveIntegerField(default=0, db_default=0, editable=False)
    # The store's accent colour ('#1f5f7a', '' for Guildhall's): its header, buttons, links and
    # current tab on its pages, its events' and the projector, each tone drawn from it for
    # contrast in the light and the dark scheme (leagues.domain.colour.store_palette, served
    # by leagues.views.store.store_theme).
    accent = models.CharField(max_length=7, blank=True, default="", db_default="")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def zone_name(self) -> str:
        """The store's time zone, or the site's when the store chose none."""
        return self.time_zone or settings.TIME_ZONE


class Membership(models.Model):
    counted = ngettext_lazy("%(n)s membership", "%(n)s memberships", "n")
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


class StaffInvitation(models.Model):
    """An e-mail inviting someone to a store's staff with a role, accepted once by a link.

    Only the SHA-256 of the link's secret is stored (as for API tokens): the link is shown to
    the owner once and mailed, and a copy of the database does not let anyone join. One
    invitation waits per address and store (a second press of "Invite" finds it); it is
    accepted by the logged-in account that opens the link, within `VALID_FOR`.
    """

    counted = ngettext_lazy("%(n)s staff invitation", "%(n)s staff invitations", "n")

    VALID_FOR_DAYS = 7

    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="invitations"
    )
    email = models.EmailField()
    role = models.CharField(max_length=16, choices=Role.choices)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                "organization",
                Lower("email"),
                condition=models.Q(accepted_at__isnull=True, cancelled_at__isnull=True),
                name="invitation_one_open_per_address",
                violation_error_message="This address already has an invitation waiting.",
            )
        ]

    def __str__(self) -> str:
        return f"{self.email} invited as {self.get_role_display()} of {self.organization}"

    @staticmethod
    def hash_key(plaintext: str) -> str:
        return hashlib.sha256(plaintext.encode("utf-8")).hexdigest()

    @property
    def is_open(self) -> bool:
        return self.accepted_at is None and self.cancelled_at is None

    @property
    def is_expired(self) -> bool:
        return self.expires_at <= timezone.now()


class Player(models.Model):
    counted = ngettext_lazy("%(n)s player", "%(n)s players", "n")
    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
        help_text=_("The player's own account, if they have one."),
    )
    # Whether the store vouches for the account linked to this player, which opens the
    # store's private leagues to it (leagues.permissions). Every link the store makes (a claim
    # it approves, a claim code it hands out, the admin) vouches; an account that made its
    # own player on an event's join form is not vouched for until the store ticks this.
    sees_private_leagues = models.BooleanField(
        "may see private leagues",
        default=True,
        db_default=True,
        help_text=_(
            "The player's account may see the store's private leagues. Off for a "
            "player who joined online, until the store knows who they are."
        ),
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
            # An account is one player per store (and may be players in several stores).
            models.UniqueConstraint(
                "organization",
                "user",
                condition=models.Q(user__isnull=False),
                name="player_one_per_account_per_org",
                violation_error_message="This account is already a player of this store.",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class PlayerClaim(models.Model):
    """An account asking to be a store's player ("this is me"), waiting for the store's answer.

    The store's organizer approves it (the player is linked to the account) or refuses it. A
    one-time claim code (`ClaimCode`) links without a request. Decided claims are kept.
    """

    counted = ngettext_lazy("%(n)s player claim", "%(n)s player claims", "n")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the store")
        APPROVED = "approved", _("Approved")
        REFUSED = "refused", _("Refused")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_claims"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                "player",
                "user",
                condition=models.Q(status="pending"),
                name="claim_one_pending_per_player_and_account",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player} ({self.get_status_display()})"


class ClaimCode(models.Model):
    """A one-time code the store hands a player: entered by a logged-in account, it links
    that account to the player. Issuing a new code replaces the player's unused one."""

    counted = ngettext_lazy("%(n)s claim code", "%(n)s claim codes", "n")

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claim_codes")
    code = models.CharField(max_length=16, unique=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                "player", condition=models.Q(used_at__isnull=True), name="claim_code_one_open"
            )
        ]

    def __str__(self) -> str:
        return f"claim code for {self.player}"


class League(models.Model):
    counted = ngettext_lazy("%(n)s league", "%(n)s leagues", "n")
    organization = models.ForeignKey(Organization, on_delete=models.PROTECT, related_name="leagues")
    name = models.CharField(max_length=120)
    slug = models.SlugField(
        max_length=60, unique=True, help_text=_("Used in web addresses and on the command line.")
    )
    game_label = models.CharField(
        _("game / format"), max_length=80, blank=True, help_text=_("e.g. Commander, cEDH, Modern")
    )
    is_public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_("Anyone can see a public league's standings and games."),
    )
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The "new league" form's one-time token: a second POST of the same form finds this league.
    entry_key = models.CharField(max_length=64, null=True, blank=True, editable=False)

    class Meta:
        ordering = ["organization__name", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["organization", "entry_key"],
                condition=models.Q(entry_key__isnull=False),
                name="league_entry_key_once_per_org",
            ),
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(starts_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="league_ends_after_it_starts",
                violation_error_message="A league cannot end before it starts.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league_detail", kwargs={"slug": self.slug})


class ImportBatch(models.Model):
    """One uploaded CSV: kept while the organizer previews it, then as the record of the import."""

    counted = ngettext_lazy("%(n)s import batch", "%(n)s import batches", "n")

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for confirmation")
        IMPORTED = "imported", _("Imported")
        CANCELLED = "cancelled", _("Cancelled")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="imports")
    filename = models.CharField(max_length=255, blank=True)
    sha256 = models.CharField(max_length=64, db_index=True)
    content = models.TextField(help_text=_("The file as uploaded, decoded to text."))
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now)
    imported_at = models.DateTimeField(null=True, blank=True)
    games_imported = models.PositiveIntegerField(default=0)
    skipped_lines = models.JSONField(default=list, blank=True)
    # The preview, computed once (services.import_batch_preview): what the file would import
    # as the league was then. Confirming checks everything again under the league lock.
    preview = models.JSONField(null=True, blank=True, editable=False)
    line_count = models.PositiveIntegerField(default=0, editable=False)
    # What a row naming one player twice is: refused, or rated as Guildmaster rates it
    # (leagues.domain.csvformat's module docstring). Chosen on upload, kept for the confirm.
    repeated_names = models.CharField(
        max_length=12,
        choices=[
            (REPEATS_REFUSE, "Refuse the row"),
            (REPEATS_GUILDMASTER, "Rate it as Guildmaster does"),
        ],
        default=REPEATS_REFUSE,
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name_plural = _("import batches")

    def __str__(self) -> str:
        return f"{self.filename or 'upload'} → {self.league} ({self.get_status_display()})"


class Game(models.Model):
    counted = ngettext_lazy("%(n)s game", "%(n)s games", "n")

    class Source(models.TextChoices):
        MANUAL = "manual", _("Entered by hand")
        IMPORT = "import", _("CSV import")
        TOURNAMENT = "tournament", _("Tournament")

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
    # Counts corrections: a form carries the version it showed, so a stale form is caught.
    version = models.PositiveIntegerField(default=0, editable=False)
    # The entry form's one-time token: a second POST of the same form finds this game.
    entry_key = models.CharField(max_length=64, null=True, blank=True, editable=False)

    class Meta:
        # The rating order: by date, then in the order the games were entered.
        ordering = ["played_on", "id"]
        indexes = [models.Index(fields=["league", "played_on", "id"], name="game_league_order")]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "entry_key"],
                condition=models.Q(entry_key__isnull=False),
                name="game_entry_key_once_per_league",
            )
        ]

    def __str__(self) -> str:
        return f"{self.league} game on {self.played_on:%Y-%m-%d} (#{self.pk})"


class GameResult(models.Model):
    counted = ngettext_lazy("%(n)s game result", "%(n)s game results", "n")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="results")
    placement = models.PositiveSmallIntegerField(
        help_text=_("1 = winner; tied players share a place.")
    )
    seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Turn order, 1 = went first.")
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


class ApiToken(models.Model):
    """A secret that lets a program post games to one organization's leagues.

    Only the SHA-256 of the token is stored (the token is 256 random bits, so a plain hash
    is enough: there is nothing to brute-force), plus its first characters to recognise it
    in lists. A token works while it is not revoked and while whoever created it is still an
    active owner or organizer of the organization (or a superuser); a token created without
    a user (by the `api_token` command) has only the organization's authority. Deleting the
    creator deletes their tokens, so a token never silently becomes user-less.
    """

    counted = ngettext_lazy("%(n)s API token", "%(n)s API tokens", "n")

    PREFIX = "gh_"
    PREFIX_LENGTH = 8

    organization = models.ForeignKey(
        Organization, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text=_("What the token is for, e.g. 'scorebot'."))
    prefix = models.CharField(
        max_length=PREFIX_LENGTH, help_text=_("The token's first characters.")
    )
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("API token")

    def __str__(self) -> str:
        state = " (revoked)" if self.revoked_at else ""
        return f"{self.prefix}… {self.name} for {self.organization}{state}"

    @staticmethod
    def hash_key(plaintext: str) -> str:
        return hashlib.sha256(plaintext.encode("utf-8")).hexdigest()

    @classmethod
    def issue(cls, *, organization: Organization, name: str, by=None) -> tuple["ApiToken", str]:
        """A new token for `organization`; the plaintext is returned here and never again."""
        plaintext = cls.PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            organization=organization,
            name=name,
            prefix=plaintext[: cls.PREFIX_LENGTH],
            key_hash=cls.hash_key(plaintext),
            created_by=acting_user(by),
        )
        return token, plaintext

    @classmethod
    def authenticate(cls, plaintext) -> "ApiToken | None":
        """The usable token for `plaintext`, or None (unknown, revoked, or creator lost rights)."""
        if not isinstance(plaintext, str) or not plaintext.startswith(cls.PREFIX):
            return None
        if len(plaintext) > 200:
            return None
        token = (
            cls.objects.select_related("organization", "created_by")
            .filter(key_hash=cls.hash_key(plaintext), revoked_at__isnull=True)
            .first()
        )
        if token is None or not token.creator_may_act():
            return None
        return token

    def creator_may_act(self) -> bool:
        """Whether the token's creator (if any) still may change the organization's leagues."""
        user = self.created_by
        if user is None:
            return True
        if not user.is_active:
            return False
        if user.is_superuser:
            return True
        return Membership.objects.filter(
            user=user, organization_id=self.organization_id, role__in=MANAGER_ROLES
        ).exists()

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def revoke(self) -> bool:
        """Revoke the token; False when it was already revoked."""
        revoked = ApiToken.objects.filter(pk=self.pk, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        if revoked:
            self.refresh_from_db(fields=["revoked_at"])
        return bool(revoked)
