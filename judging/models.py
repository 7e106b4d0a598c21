"""The judges' rows of an event: a call from a table (`JudgeCall`), a penalty given to a
player (`Penalty`) and a deck check of a table (`DeckCheck`).

Invariants the database keeps: at most one call open (waiting or taken) per table, a call's
times in order of its status, a penalty different from the one the IPG expects carries the
judge's reason, one deck check per table.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from tournaments.errors import note_text
from tournaments.models import Entry, Round, Table, Tournament

from .labels import INFRACTIONS, PENALTIES


class JudgeCall(models.Model):
    counted = ngettext_lazy("%(n)s judge call", "%(n)s judge calls", "n")

    class Reason(models.TextChoices):
        NONE = "", _("No reason given")
        RULING = "ruling", _("A ruling")
        DISPUTE = "dispute", _("A dispute")
        TIME = "time", pgettext_lazy("why a judge is called", "Time")

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for a judge")
        TAKEN = "taken", _("A judge is coming")
        DONE = "done", pgettext_lazy("a judge call's state", "Done")
        CANCELLED = "cancelled", pgettext_lazy("a judge call's state", "Cancelled")

    OPEN = (Status.WAITING, Status.TAKEN)

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="judge_calls")
    # The player who called (none: the TO called from the console).
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="judge_calls"
    )
    reason = models.CharField(max_length=10, choices=Reason.choices, blank=True, default="")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    called_at = models.DateTimeField(default=timezone.now)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    via_link = models.BooleanField(default=False)
    taken_at = models.DateTimeField(null=True, blank=True)
    taken_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.TextField(blank=True, max_length=1000, help_text=_("Judges only."))
    extension_minutes = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["called_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=["waiting", "taken"]),
                name="judge_call_one_open_per_table",
                violation_error_message=_("A judge is already called to this table."),
            ),
            models.CheckConstraint(
                condition=Q(status="waiting", taken_at__isnull=True, closed_at__isnull=True)
                | Q(status="taken", taken_at__isnull=False, closed_at__isnull=True)
                | Q(status__in=["done", "cancelled"], closed_at__isnull=False),
                name="judge_call_times_follow_status",
            ),
        ]
        indexes = [models.Index(fields=["entry", "called_at"], name="judge_call_entry_recent")]

    def __str__(self) -> str:
        return f"judge call at {self.table}: {self.get_status_display()}"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN


class Penalty(models.Model):
    counted = ngettext_lazy("%(n)s penalty", "%(n)s penalties", "n")

    class Rel(models.TextChoices):
        # Translators: a Rules Enforcement Level of Magic tournaments (Competitive REL).
        COMPETITIVE = "competitive", pgettext_lazy("rules enforcement level", "Competitive")
        # Translators: a Rules Enforcement Level of Magic tournaments (Regular REL).
        REGULAR = "regular", pgettext_lazy("rules enforcement level", "Regular")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="penalties")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    infraction = models.CharField(max_length=12, choices=list(INFRACTIONS.items()))
    rel = models.CharField(max_length=12, choices=Rel.choices, default=Rel.COMPETITIVE)
    penalty = models.CharField(max_length=16, choices=list(PENALTIES.items()))
    # What the IPG gives (its default, or its upgrade for a repeat), and why it was upgraded:
    # a note as JSON keeps it (`Note.data()`, read in the reader's language: `upgrade_text`;
    # {} for none; a text of before, `{"text": ...}`, as written).
    expected = models.CharField(max_length=16, choices=list(PENALTIES.items()))
    upgrade_reason = models.JSONField(default=dict, blank=True)
    deviation_reason = models.CharField(max_length=300, blank=True)
    note = models.TextField(blank=True, max_length=1000)
    # The table's result the penalty entered (a Game Loss that ends the match, a Match Loss,
    # a Disqualification), as its summary: a note as `upgrade_reason` (`result_text`).
    result_entered = models.JSONField(default=dict, blank=True)
    # The penalty is the player's loss of their pod's game this round (a Game Loss, a Match
    # Loss or a Disqualification given while the pod played without a result): the pod's
    # result places them last, whoever enters it (tournaments.hooks.lost_by_penalty).
    loses_game = models.BooleanField(default=False)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = _("penalties")
        constraints = [
            models.CheckConstraint(
                condition=Q(penalty=models.F("expected")) | ~Q(deviation_reason=""),
                name="penalty_deviation_has_reason",
                violation_error_message=_("A penalty other than the IPG's needs a reason."),
            )
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.get_penalty_display()} for {self.infraction}"

    @property
    def deviates(self) -> bool:
        return self.penalty != self.expected

    @property
    def upgrade_text(self) -> str:
        """Why the IPG's penalty is upgraded, in the active language ("" if it is not)."""
        return note_text(self.upgrade_reason) if self.upgrade_reason else ""

    @property
    def result_text(self) -> str:
        """The result the penalty entered, in the active language ("" if none)."""
        return note_text(self.result_entered) if self.result_entered else ""


class DeckCheck(models.Model):
    counted = ngettext_lazy("%(n)s deck check", "%(n)s deck checks", "n")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deck_checks")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="deck_checks")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deck_checks")
    started_at = models.DateTimeField(default=timezone.now)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    done_at = models.DateTimeField(null=True, blank=True)
    done_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    note = models.TextField(blank=True, max_length=1000)

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table"], name="deck_check_once_per_table"),
            models.CheckConstraint(
                condition=Q(done_at__isnull=True, minutes__isnull=True)
                | Q(done_at__isnull=False, minutes__isnull=False),
                name="deck_check_minutes_when_done",
            ),
        ]

    def __str__(self) -> str:
        return f"deck check of {self.table}"
