"""Swiss tournaments: the event, its entries, rounds, tables (matches, pods or byes) and seats.

A table's result, once reported, becomes a league `Game` (source "tournament"), so ratings
follow by themselves. A bye is a table with one seat and no game. A pod event ("pods") uses
the same rows: a table is a pod of 3-5 players, `Seat.position` the turn order (1 goes first)
and `Seat.place` the finishing place. Invariants kept by the database: one entry per player
per event, one table per number per round, one seat per entry per round, distinct seat
numbers at a table, places, game wins and game draws never negative, drawn games only on a
reported table, match-win and game-win floors between 0 and 1.

A requested ("half-point") bye is asked for ahead (`RequestedBye`: an entry and a round
number, once each); pairing that round seats the player alone at a table marked
`requested_bye`, reported at once with no winner, which scores the event's requested-bye
points (a draw's).
"""

import secrets
from datetime import datetime
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext_lazy, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from leagues.models import Game, League, Player

from .domain import clock, labels
from .domain.byerules import BYE_RULES
from .domain.podcut import CUT_SEATS
from .domain.pods import LAYOUT_LABELS, LAYOUTS
from .domain.standings import TIEBREAKERS
from .domain.texts import note_data, notes_data
from .errors import stored_note_texts
from .formats import FORMATS, Pods, format_for
from .formats import Format as PlayFormat

POD_TOP_CUTS = Pods.top_cuts  # one final pod of 4, or four semi-final pods and a final pod


class Tournament(models.Model):
    counted = ngettext_lazy("%(n)s event", "%(n)s events", "n")

    class Format(models.TextChoices):
        ONE_V_ONE = "1v1", _("1 v 1 matches")
        PODS = "pods", _("Pods of 3-5 (Commander / cEDH)")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        SWISS = "swiss", _("Swiss rounds")
        TOP_CUT = "top_cut", _("Top cut")
        FINISHED = "finished", _("Finished")

    class FirstRound(models.TextChoices):
        RANDOM = "random", _("Random")
        RATING = "rating", _("By rating")

    class ByePairing(models.TextChoices):
        # domain.pairing.BYE_PAIRINGS; the README's "The 1v1 bye" says where each comes from.
        MTR = "mtr", _("MTR: the lowest-ranked player without a bye")
        AVOID_REMATCH = "avoid_rematch", _("Moved up the standings to avoid a rematch")

    class DecklistFormat(models.TextChoices):
        # cards.domain.legality.FORMATS, the ones a store runs.
        # The format's name, not its card's (tournaments.forms' "Commander" field).
        COMMANDER = "commander", pgettext_lazy("the Commander format", "Commander")
        STANDARD = "standard", _("Standard")
        PIONEER = "pioneer", _("Pioneer")
        MODERN = "modern", _("Modern")
        LEGACY = "legacy", _("Legacy")
        VINTAGE = "vintage", _("Vintage")
        PAUPER = "pauper", _("Pauper")

    class DeckVisibility(models.TextChoices):
        # TopDeck.gg and Melee publish decklists once the top cut starts or the event ends.
        AFTER_CUT = "after_cut", _("When the top cut starts (or the event ends)")
        AFTER_EVENT = "after_event", _("When the event ends")
        PUBLIC = "public", _("As soon as they are entered")

    class CheckIn(models.TextChoices):
        NOT_OPEN = "not_open", _("Not open yet")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    date = models.DateField(default=timezone.localdate)
    format = models.CharField(max_length=8, choices=Format.choices, default=Format.ONE_V_ONE)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.REGISTRATION)
    points_win = models.DecimalField(max_digits=4, decimal_places=1, default=3)
    points_draw = models.DecimalField(max_digits=4, decimal_places=1, default=1)
    points_loss = models.DecimalField(max_digits=4, decimal_places=1, default=0)
    points_bye = models.DecimalField(max_digits=4, decimal_places=1, default=3)
    swiss_rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Empty: ⌈log₂ players⌉ when the first round starts.")
    )
    tiebreakers = models.JSONField(
        default=list, blank=True, help_text=_("Tiebreaker names in order; empty: the Magic preset.")
    )
    top_cut = models.PositiveSmallIntegerField(
        default=0, choices=[(0, _("None")), (4, _("Top 4")), (8, _("Top 8")), (16, _("Top 16"))]
    )
    first_round = models.CharField(
        max_length=8, choices=FirstRound.choices, default=FirstRound.RANDOM
    )
    bye_pairing = models.CharField(
        _("1v1 bye"),
        max_length=16,
        choices=ByePairing.choices,
        default=ByePairing.MTR,
        help_text=_("1v1 events with an odd number of players: who gets the bye."),
    )
    cut_seats = models.CharField(
        _("Top-cut seats"),
        max_length=12,
        choices=[(key, gettext_lazy(label)) for key, label in CUT_SEATS.items()],
        default="by_seed",
        help_text=_("Pod top cuts: who sits where at each cut pod (domain.podcut.CUT_SEATS)."),
    )
    pod_layout = models.CharField(
        max_length=8,
        choices=[(layout, gettext_lazy(LAYOUT_LABELS[layout])) for layout in LAYOUTS],
        default="threes",
        help_text=_("Pod events: where the players who do not fill a pod of 4 go."),
    )
    # The MTR floors both percentages at 0.33 (Appendix C), not at 1/3; empty: the format's
    # rule (formats.Format.default_mw_floor / default_gw_floor). The name is kept from when
    # it floored OMW% only: it is the match-win floor, which OMW% reads.
    omw_floor = models.DecimalField(
        # xgettext:no-python-format
        _("MW% floor"),
        max_digits=4,
        decimal_places=3,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(1))],
        # xgettext:no-python-format
        help_text=_(
            "Lowest match-win % a player counts with (OMW% averages them); "
            "empty: 0.33 for 1v1 (MTR), 1/4 for pods."
        ),
    )
    gw_floor = models.DecimalField(
        # xgettext:no-python-format
        _("GW% floor"),
        max_digits=4,
        decimal_places=3,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(1))],
        # xgettext:no-python-format
        help_text=_(
            "Lowest game-win % a player counts with (GW%, OGW%); "
            "empty: 0.33 for 1v1 (MTR), 1/4 for pods."
        ),
    )
    # How a bye counts in the opponent-based tiebreakers (domain.byerules); empty: the
    # default of the event's standings preset (Magic none, chess FIDE 2023, pods MTRA 3.1).
    bye_rule = models.CharField(
        max_length=20,
        blank=True,
        default="",
        choices=[
            ("", _("The preset's rule")),
            *((key, gettext_lazy(label)) for key, label in BYE_RULES.items()),
        ],
        # xgettext:no-python-format
        help_text=_("How a bye counts in OMW% and Buchholz; empty: the rule of the preset."),
    )
    registration_open = models.BooleanField(
        default=False, help_text=_("Players may register and unregister themselves online.")
    )
    registration_cap = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=[MinValueValidator(2), MaxValueValidator(4096)],
        help_text=_(
            "Seats for online registration; later players join the waitlist. Empty: no cap."
        ),
    )
    registration_deadline = models.DateTimeField(
        null=True, blank=True, help_text=_("Online registration closes then. Empty: at round 1.")
    )
    registration_note = models.TextField(
        blank=True, max_length=1000, help_text=_("Shown to players: the fee, the time, the format.")
    )
    deck_deadline = models.DateTimeField(
        null=True, blank=True, help_text=_("Players name their deck until then. Empty: any time.")
    )
    deck_visibility = models.CharField(
        max_length=12, choices=DeckVisibility.choices, default=DeckVisibility.AFTER_CUT
    )
    # Decklists checked against the card data (the cards app) in this format; with
    # `decklist_required`, each entry needs a legal list by the deck deadline.
    decklist_format = models.CharField(
        max_length=12,
        choices=DecklistFormat.choices,
        blank=True,
        help_text=_("Pasted lists are checked in this format when card data is loaded."),
    )
    decklist_required = models.BooleanField(
        default=False, help_text=_("Every player needs a legal list by the deck deadline.")
    )
    check_in = models.CharField(
        max_length=8, choices=CheckIn.choices, default=CheckIn.NOT_OPEN, editable=False
    )
    seed = models.PositiveIntegerField(help_text=_("Makes random pairings reproducible."))
    round_minutes = models.PositiveSmallIntegerField(default=50)
    # Players report their table's result from their phone and the others confirm it
    # (ResultReport); the TO's own entry always decides.
    self_report = models.CharField(
        _("Results reported by players"),
        max_length=8,
        choices=[
            ("off", _("No: only the TO enters results")),
            ("all", _("Yes, confirmed by every other player at the table")),
            ("majority", _("Yes, confirmed by a majority of the table")),
        ],
        default="all",
        help_text=_("A player's report becomes the result once the table confirms it."),
    )
    # What a player looking for a night out needs (tournaments.listing): when it starts (the
    # store's local time, on `date`), where, and what it costs. Empty fee: free.
    start_time = models.TimeField(
        null=True, blank=True, help_text=_("When round 1 is meant to start, the store's time.")
    )
    place = models.CharField(
        max_length=200,
        blank=True,
        help_text=_("Where, when not in the store's usual room: “back room”, another address."),
    )
    entry_fee = models.DecimalField(
        max_digits=7,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal(0))],
        help_text=_("Empty or 0: free."),
    )
    fee_currency = models.CharField(
        max_length=3, blank=True, help_text=_("ISO 4217 code of the fee: USD, EUR, GBP...")
    )
    # The first event of a weekly series this one was copied from (services.series): one
    # event per series per date, so a repeated "copy" tap finds the copy it made.
    series = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="repeats",
        editable=False,
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-date", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "date"],
                name="tournament_one_per_series_per_date",
                violation_error_message=_("This weekly series already has an event on that date."),
            ),
            models.CheckConstraint(
                condition=models.Q(entry_fee__isnull=True) | models.Q(entry_fee__gte=0),
                name="tournament_entry_fee_not_negative",
                violation_error_message=_("An entry fee is not negative."),
            ),
            models.CheckConstraint(
                condition=models.Q(points_win__gte=models.F("points_draw"))
                & models.Q(points_draw__gte=models.F("points_loss")),
                name="tournament_points_win_draw_loss_ordered",
                violation_error_message=_("A win must be worth at least a draw, a draw a loss."),
            ),
            models.CheckConstraint(
                condition=models.Q(omw_floor__isnull=True)
                | models.Q(omw_floor__gte=0, omw_floor__lte=1),
                name="tournament_omw_floor_0_to_1",
                # xgettext:no-python-format
                violation_error_message=_("The MW% floor is between 0 and 1."),
            ),
            models.CheckConstraint(
                condition=models.Q(gw_floor__isnull=True)
                | models.Q(gw_floor__gte=0, gw_floor__lte=1),
                name="tournament_gw_floor_0_to_1",
                # xgettext:no-python-format
                violation_error_message=_("The GW% floor is between 0 and 1."),
            ),
            models.CheckConstraint(
                condition=~models.Q(format="pods") | models.Q(top_cut__in=POD_TOP_CUTS),
                name="tournament_pod_top_cut_4_or_16",
                violation_error_message=_("A pod event cuts to the top 4 or the top 16."),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_pods(self) -> bool:
        return self.format == self.Format.PODS

    @property
    def play(self) -> PlayFormat:
        """The event's format as a strategy (`tournaments.formats`): what pairs its rounds,
        reads its results and names its tables; templates read `event.play.noun`."""
        return format_for(self)

    def clean(self):
        """Tiebreakers must be names the standings know, each once (the admin edits the list);
        a pod event cuts to 0, 4 or 16."""
        # An unknown format is the format field's own error (full_clean), not this one.
        play = FORMATS.get(self.format)
        cuts = play.top_cuts if play is not None else None
        if cuts is not None and self.top_cut not in cuts:
            raise ValidationError(
                {
                    "top_cut": _(
                        "A pod event cuts to the top 4 (one final pod) or top 16 (four pods)."
                    )
                }
            )

        names = self.tiebreakers or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ValidationError({"tiebreakers": _("A list of tiebreaker names, in order.")})
        unknown = [n for n in names if n not in TIEBREAKERS]
        if unknown:
            raise ValidationError(
                {
                    "tiebreakers": _("Unknown: %(unknown)s. Known: %(known)s.")
                    % {"unknown": ", ".join(unknown), "known": ", ".join(TIEBREAKERS)}
                }
            )
        if len(set(names)) != len(names):
            raise ValidationError({"tiebreakers": _("Each tiebreaker once.")})


class Entry(models.Model):
    counted = ngettext_lazy("%(n)s entry", "%(n)s entries", "n")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    joined_round = models.PositiveSmallIntegerField(
        default=1, help_text=_("The first round the player is paired in (late entries: later).")
    )
    dropped_after = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("The last round the player played before dropping.")
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # Entered by the TO before round 1 when no seat under the cap was free for them (a
    # walk-in past the cap, an invited player): a seat added to the cap, not one of its seats,
    # so a seat a registered player frees still goes to the waitlist. It becomes one of the
    # cap's seats when a seat frees that nobody waiting takes (services.registration).
    extra_seat = models.BooleanField(default=False, editable=False)
    # The player's deck: for Commander/cEDH the commander or partner pair (free text, offered
    # from the names the store's past entries used), and optionally the list (a link or the
    # pasted text). Shown publicly as the event's `deck_visibility` says.
    deck_name = models.CharField(max_length=120, blank=True)
    decklist_url = models.URLField(max_length=500, blank=True)
    decklist_text = models.TextField(blank=True, max_length=10_000)
    deck_updated_at = models.DateTimeField(null=True, blank=True, editable=False)
    # From the card data when the deck is saved (services.decks): the commanders' Oracle ids
    # (sorted) and color identity in WUBRG order ("C": colorless), the list as cards with
    # counts ([{"oracle_id", "count", "section"}]) and its problems in the event's decklist
    # format ([{"line", "rule", "message", "card"}]); deck_legal None: not checked.
    deck_commander_ids = models.JSONField(default=list, blank=True, editable=False)
    deck_identity = models.CharField(max_length=5, blank=True, editable=False)
    deck_cards = models.JSONField(default=list, blank=True, editable=False)
    deck_problems = models.JSONField(default=list, blank=True, editable=False)
    deck_legal = models.BooleanField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["player__name"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="entry_one_per_player",
                violation_error_message=_("This player is already registered."),
            ),
            models.CheckConstraint(
                condition=models.Q(joined_round__gte=1), name="entry_joins_from_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


def registration_token() -> str:
    return secrets.token_urlsafe(24)


class Registration(models.Model):
    """A player's own sign-up for an event (issue: players in the loop): a seat, which is an
    `Entry` like any other, or a place on the waitlist, in arrival order (`queued_at`). The
    per-entry link (`token`) lets the player check in from their phone without an account.
    A walk-in the TO registers by name has an entry and no registration, and counts as
    present. Unregistering (or missing the check-in) frees the seat for the waitlist."""

    counted = ngettext_lazy("%(n)s registration", "%(n)s registrations", "n")

    class Status(models.TextChoices):
        SEATED = "seated", _("Registered")
        WAITLISTED = "waitlisted", _("On the waitlist")
        CANCELLED = "cancelled", _("Unregistered")
        NO_SHOW = "no_show", _("Did not check in")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    # A player deleted takes their sign-ups along; one holding a seat is kept by its entry.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="registrations")
    entry = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="registration"
    )
    status = models.CharField(max_length=10, choices=Status.choices)
    queued_at = models.DateTimeField(default=timezone.now, help_text=_("Arrival order."))
    paid = models.BooleanField(default=False)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    token = models.CharField(max_length=40, unique=True, default=registration_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    class Meta:
        ordering = ["queued_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                name="registration_one_per_player",
                violation_error_message=_("This player has already registered."),
            ),
            models.CheckConstraint(
                condition=models.Q(status="seated", entry__isnull=False)
                | (~models.Q(status="seated") & models.Q(entry__isnull=True)),
                name="registration_seated_iff_entry",
                violation_error_message=_("A registered player holds a seat; no one else does."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}: {self.get_status_display()}"


class RequestedBye(models.Model):
    """A round an entry asked to sit out: paired, it is a requested ("half-point") bye."""

    counted = ngettext_lazy("%(n)s requested bye", "%(n)s requested byes", "n")

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="requested_byes")
    round_number = models.PositiveSmallIntegerField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["round_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["entry", "round_number"], name="requested_bye_once_per_round"
            ),
            models.CheckConstraint(
                condition=models.Q(round_number__gte=1), name="requested_bye_round_from_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry} asks for a bye in round {self.round_number}"


class Round(models.Model):
    counted = ngettext_lazy("%(n)s round", "%(n)s rounds", "n")

    class Kind(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        TOP_CUT = "top_cut", _("Top cut")

    class Status(models.TextChoices):
        PAIRING = "pairing", _("Pairing")
        PLAYING = "playing", _("Playing")
        COMPLETE = "complete", _("Complete")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.SWISS)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PAIRING)
    ends_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the round timer runs out.")
    )
    # What the pairing had to allow (rematches), the TO's edits and the like: a list of notes as
    # JSON keeps them (`domain.texts.note_data`), written in the reader's language when read
    # (`notes_shown`); a text of before is `{"text": ...}`, shown as written.
    notes = models.JSONField(
        default=list, blank=True, help_text=_("What the pairing had to allow (rematches).")
    )
    # A top-cut round's stage as the bracket names it, the English of the domain's label
    # ("Final", "Semifinals", "Semi-finals", "Quarterfinals", "Top 16"): a code, translated where
    # it is shown (`label`, `domain.labels.stage_label`). "" for a Swiss round.
    stage = models.CharField(max_length=40, blank=True, default="", editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # The entries paired without the legal list the event requires, as the TO went on with
    # them (round 1, the top cut's first stage): [{"entry": id, "player": name, "why": ...}].
    decklist_problems = models.JSONField(default=list, blank=True, editable=False)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_once"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_from_1"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"

    @property
    def notes_shown(self) -> list[str]:
        """The round's notes in the active language, one text each."""
        return stored_note_texts(self.notes)

    @property
    def notes_text(self) -> str:
        """The round's notes in the active language, one a line."""
        return "\n".join(self.notes_shown)

    def notes_add(self, *notes) -> None:
        """Add `notes` (`domain.texts.Note`s; a plain text is kept as written) after the
        round's notes; the caller saves `notes`."""
        self.notes = [*notes_data(self.notes), *(note_data(n) for n in notes if n)]

    @property
    def label(self) -> str:
        """ "Round 3", or a top-cut round's stage ("Final"): domain.labels.round_label."""
        return labels.round_label(self.number, self.stage, gettext=gettext)

    @property
    def label_in_sentence(self) -> str:
        """ "round 3", or "the final", as the round reads inside a sentence."""
        return labels.round_label(self.number, self.stage, in_sentence=True, gettext=gettext)


class Table(models.Model):
    """A match, a pod, or a bye (one seat). `version` counts result changes (stale forms)."""

    counted = ngettext_lazy("%(n)s table", "%(n)s tables", "n")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    reported = models.BooleanField(default=False)
    is_draw = models.BooleanField(default=False)
    # Drawn games of a 1v1 match (the seats keep the games each won): MTR 2.4 reports an
    # intentional draw as 0-0-3, Appendix C counts a drawn game as 1 game point of 3.
    game_draws = models.PositiveSmallIntegerField(default=0)
    # RESTRICT, not PROTECT: an entry that won a table cannot be removed alone, but deleting
    # the whole event (or its league) takes the entry and its tables together.
    winner = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="tables_won"
    )
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="tournament_table"
    )
    version = models.PositiveIntegerField(default=0)
    # A bye the player asked for (RequestedBye), not the pairer's: it scores a draw's points.
    requested_bye = models.BooleanField(default=False)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    reported_at = models.DateTimeField(null=True, blank=True)
    # A judge's time extension for this table (the minutes a ruling or a deck check took):
    # it plays this many minutes past the round's clock. A total, set and shown, so a repeated
    # form never adds twice.
    extra_minutes = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once_per_round"),
            models.CheckConstraint(
                condition=~(models.Q(is_draw=True) & models.Q(winner__isnull=False)),
                name="table_draw_has_no_winner",
            ),
            models.CheckConstraint(
                condition=models.Q(reported=True)
                | (models.Q(is_draw=False) & models.Q(winner__isnull=True)),
                name="table_result_only_when_reported",
            ),
            models.CheckConstraint(
                condition=models.Q(reported=True) | models.Q(game_draws=0),
                name="table_game_draws_only_when_reported",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round}"

    def time_up(self, round_ends_at: datetime) -> datetime:
        """When this table's play is up: the round's clock plus its time extension."""
        return clock.time_up(round_ends_at, self.extra_minutes)

    @property
    def is_bye(self) -> bool:
        return len(self.seats.all()) == 1

    @property
    def result_label(self) -> str:
        """The match's games as the MTR writes them ("2-1", "0-0-3"): domain.labels."""
        return labels.result_label(
            reported=self.reported,
            is_draw=self.is_draw,
            game_wins=[s.game_wins for s in self.seats.all()],
            game_draws=self.game_draws,
            gettext=gettext,
        )

    @property
    def has_full_order(self) -> bool:
        """A pod's full finishing order rather than winner-then-the-rest (domain.labels)."""
        return labels.full_order([s.place for s in self.seats.all()])


class Seat(models.Model):
    counted = ngettext_lazy("%(n)s seat", "%(n)s seats", "n")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # The round, copied from the table, so the database can keep one seat per entry per round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    # RESTRICT: an entry who sat at a table stays (drop them instead); the event goes whole.
    entry = models.ForeignKey(Entry, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField(help_text=_("Seat / turn order, 1 = goes first."))
    game_wins = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seat_one_per_entry_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once"),
            models.CheckConstraint(
                condition=models.Q(position__gte=1), name="seat_position_from_1"
            ),
            models.CheckConstraint(
                condition=models.Q(place__isnull=True) | models.Q(place__gte=1),
                name="seat_place_from_1",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry.player} at {self.table} seat {self.position}"

    @property
    def place_label(self) -> str:
        """ "1st", "2nd", "3rd", "4th"... ("" before the result)."""
        return labels.place_label(self.place, gettext)


class TournamentJudge(models.Model):
    """A judge / TO for one event only: someone who is not a member of the store runs this
    event's console (registration, pairing, results, drops) and sees its pages, even in a
    private league, and nothing else of the store (see tournaments.permissions)."""

    counted = ngettext_lazy("%(n)s judge or TO", "%(n)s judges and TOs", "n")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="judges")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="judged_tournaments"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("judge / TO for this event")
        verbose_name_plural = _("judges / TOs for this event")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                name="tournament_judge_once_per_event",
                violation_error_message=_("This user already judges this event."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} judges {self.tournament}"


class ResultReport(models.Model):
    """A result as a player at the table sent it (after Tabbycat's `Submission`): who, when,
    through what (their account or their registration link), what (`result`: the
    `domain.result.Result` the event's format read from their form, as JSON), and against
    which version of the table. It becomes the table's result when the table
    confirms it (`ReportConfirmation`, by the event's `self_report` rule) or when the TO
    accepts it. Rows are never deleted or rewritten but for their `status`: a newer report by
    the same player supersedes theirs, the TO's own entry closes the open ones."""

    counted = ngettext_lazy("%(n)s result report", "%(n)s result reports", "n")

    class Status(models.TextChoices):
        SUBMITTED = "submitted", _("Waiting for confirmation")
        CONFIRMED = "confirmed", _("Confirmed by the table")
        ACCEPTED = "accepted", _("Accepted by the TO")
        SUPERSEDED = "superseded", _("Replaced by a later report")
        REJECTED = "rejected", _("Not chosen by the TO")
        OVERRIDDEN = "overridden", _("Closed by the TO's own entry")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="result_reports")
    number = models.PositiveSmallIntegerField(help_text=_("1 for the table's first report, ..."))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_link = models.BooleanField(default=False, help_text=_("Sent through the player's link."))
    result = models.JSONField(
        help_text=_("The result as reported: winner, draw, places, game wins, game draws.")
    )
    summary = models.CharField(max_length=200)
    table_version = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SUBMITTED)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="report_number_once"),
            models.UniqueConstraint(
                fields=["table", "entry"],
                condition=models.Q(status="submitted"),
                name="report_one_open_per_player",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(status__in=["confirmed", "accepted"]),
                name="report_one_decided_per_table",
            ),
        ]
        indexes = [models.Index(fields=["entry", "created_at"], name="report_entry_recent")]

    def __str__(self) -> str:
        return f"{self.table} report {self.number}: {self.summary}"


class ReportConfirmation(models.Model):
    """One player's tap agreeing with another's report. Withdrawn (kept, with the time) when
    the same player later reports or confirms something else."""

    counted = ngettext_lazy("%(n)s report confirmation", "%(n)s report confirmations", "n")

    report = models.ForeignKey(ResultReport, on_delete=models.CASCADE, related_name="confirmations")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_link = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["report", "entry"],
                condition=models.Q(withdrawn_at__isnull=True),
                name="confirmation_once_per_player",
            )
        ]
        indexes = [models.Index(fields=["entry", "created_at"], name="confirmation_entry_recent")]

    def __str__(self) -> str:
        return f"{self.entry} confirms {self.report}"
