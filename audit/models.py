"""One row per change to league or event history: who, when, what it was before and after.

The table is the one the entries had when they lived in `leagues` (`leagues_auditentry`), so
nothing was copied when the model moved here. An entry names its event by id and keeps the
event's name: there is no foreign key to tournaments (an app above this one), so an entry
outlives the event it describes. Actions are strings the apps register (`audit.registry`).
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from .registry import action_label, is_undoable
from .summary import N_, Summary

# Translators: an event's History entry: the event's name, then what happened at it.
IN_EVENT = N_("%(event)s: %(summary)s")


class AuditEntry(models.Model):
    """One change to league or event history: who, when, what it was before and after.

    Written by the services in the same transaction as the change. `before` and `after` are
    plain snapshots (dates as ISO text, players by id and name), so an entry outlives the
    game, league or event it describes. An undo is an entry of its own that `reverts` the
    one it undid; the one-to-one link lets the database refuse a second undo.
    """

    counted = ngettext_lazy("%(n)s audit entry", "%(n)s audit entries", "n")

    organization = models.ForeignKey(
        "leagues.Organization", on_delete=models.CASCADE, related_name="audit_entries"
    )
    league = models.ForeignKey(
        "leagues.League",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="audit_entries",
    )
    # The event, by id and by name: no foreign key, so the entry outlives it.
    tournament_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    tournament_name = models.CharField(max_length=200, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    actor_label = models.CharField(
        max_length=200, help_text=_("Who, as text: a username, an API token, an import.")
    )
    action = models.CharField(max_length=32)
    object_type = models.CharField(max_length=16)
    object_id = models.PositiveBigIntegerField(null=True, blank=True)
    # What happened, in English: what old rows have, what searches and exports read.
    summary = models.CharField(max_length=255, blank=True)
    # The same sentence before translation (audit.summary.Summary): its msgid, plural msgid
    # and values, written in the reader's language on read (`summary_text`). Empty on rows
    # written before they existed, which show `summary` as it is.
    summary_template = models.TextField(blank=True, db_default="")
    summary_plural = models.TextField(blank=True, db_default="")
    summary_params = models.JSONField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reverts = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="reverted_by"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        db_table = "leagues_auditentry"
        ordering = ["-created_at", "-id"]
        verbose_name_plural = _("audit entries")
        indexes = [
            models.Index(fields=["organization", "-created_at", "-id"], name="audit_org_newest"),
            models.Index(fields=["object_type", "object_id"], name="audit_object"),
        ]

    def __str__(self) -> str:
        when = f"{self.created_at:%Y-%m-%d %H:%M}"
        return f"{self.get_action_display()} by {self.actor_label} at {when}"

    def get_action_display(self) -> str:
        return action_label(self.action)

    def summary_set(self, summary: Summary | str) -> None:
        """Keep `summary` (a Summary, or English text as older code wrote it) on this entry,
        with its English in `summary`: after the event's name for an event's entry."""
        if isinstance(summary, Summary):
            if summary.context:
                raise ValueError("An entry's summary is a sentence, not a word in context.")
            data = summary.to_json()
            self.summary_template = summary.template
            self.summary_plural = summary.plural or ""
            self.summary_params = data.get("v")
            summary = summary.english()
        if self.tournament_name:
            summary = f"{self.tournament_name}: {summary}"
        self.summary = summary[:255]

    @property
    def summary_value(self) -> Summary | None:
        """The sentence as written (without the event's name); None on an old row."""
        if not self.summary_template:
            return None
        data = {"t": self.summary_template, "pl": self.summary_plural or None}
        return Summary.from_json({**data, "v": self.summary_params})

    @property
    def summary_text(self) -> str:
        """What happened, in the active language (the History, the undo's message), after
        the event's name for an event's entry; an old row's English `summary` as it is."""
        summary = self.summary_value
        if summary is None:
            return self.summary
        try:
            if self.tournament_name:
                return Summary(IN_EVENT, event=self.tournament_name, summary=summary).render()
            return summary.render()
        except (KeyError, TypeError, ValueError):  # a catalogue's placeholders gone wrong
            return self.summary

    @property
    def is_undoable(self) -> bool:
        return is_undoable(self.action)
