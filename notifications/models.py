"""Notifications: a player's choices, a store's webhook, and one row per message to send.

A `Delivery` is written in the same transaction as the change it tells about (a round paired,
a seat from the waitlist, an event's end), so a message exists exactly when the change
committed, even if the worker or the receiver is down then. Its `key` is unique per message
and recipient (`paired:<round>:user:<user>`), so a change announced twice sends once. The
worker (`notifications.tasks.deliver_due`) renders the message at the first attempt, keeps
the text in `payload` (a retry sends the same words) and records each attempt.
"""

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy


class NotificationSettings(models.Model):
    """What an account asked to be e-mailed about (everything off until they turn it on)."""

    counted = ngettext_lazy("%(n)s notification setting", "%(n)s notification settings", "n")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    email_round_paired = models.BooleanField(
        _("E-mail me my table and seat when a round of my event is paired"), default=False
    )
    email_waitlist_promoted = models.BooleanField(
        _("E-mail me when I move up from an event's waitlist to a seat"), default=False
    )
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"notifications of {self.user_id}"


class StoreWebhook(models.Model):
    """A store's chat channel (a Discord channel webhook, usually): pairings and standings."""

    counted = ngettext_lazy("%(n)s store webhook", "%(n)s store webhooks", "n")

    organization = models.OneToOneField(
        "leagues.Organization", on_delete=models.CASCADE, related_name="webhook"
    )
    url = models.CharField(max_length=500)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )

    def __str__(self) -> str:
        return f"webhook of {self.organization_id}"


class Delivery(models.Model):
    counted = ngettext_lazy("%(n)s notification", "%(n)s notifications", "n")

    class Kind(models.TextChoices):
        ROUND_PAIRED = "paired", _("Round paired")
        PROMOTED = "promoted", _("Moved up from the waitlist")
        QUALIFIED = "qualified", _("Invited to a final")
        STANDINGS = "standings", _("Final standings")
        TEST = "test", _("Test message")

    class Channel(models.TextChoices):
        EMAIL = "email", _("E-mail")
        WEBHOOK = "webhook", _("Webhook")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    key = models.CharField(max_length=120, unique=True)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    channel = models.CharField(max_length=10, choices=Channel.choices)
    organization = models.ForeignKey(
        "leagues.Organization", on_delete=models.CASCADE, related_name="deliveries"
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament", null=True, blank=True, on_delete=models.CASCADE
    )
    round = models.ForeignKey("tournaments.Round", null=True, blank=True, on_delete=models.CASCADE)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    # The e-mail address, or the webhook address the last attempt went to.
    target = models.CharField(max_length=500)
    # The message as sent: {"subject", "body"} for a mail, {"content"} for a webhook. Empty
    # until the first attempt renders it.
    payload = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)  # when a worker took it to send
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        # As an event's delete confirmation counts them: "4 notifications".
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="delivery_due"),
            models.Index(fields=["organization", "-created_at"], name="delivery_store_recent"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(channel="webhook") | ~models.Q(target=""),
                name="delivery_email_has_address",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} → {self.channel} ({self.status})"

    @property
    def idempotency_key(self) -> str:
        """The same for every attempt at this message (a retry, a resend after a worker died,
        "Send again"), different for every other: a receiver that keeps the keys it saw can
        drop a second copy (messages are delivered at least once: README, Deployment)."""
        return str(uuid.uuid5(uuid.NAMESPACE_URL, f"guildhall:delivery:{self.pk}:{self.key}"))
