"""Reads for the notifications pages: a store's webhook and its recent deliveries, an
account's choices. The store's page reads its webhook, its last deliveries and whether e-mail
goes out in two queries."""

from .models import Delivery, NotificationSettings, StoreWebhook

RECENT = 20


def store_webhook(organization) -> StoreWebhook | None:
    return StoreWebhook.objects.filter(organization=organization).first()


def recent_deliveries(organization, *, limit: int = RECENT) -> list[Delivery]:
    """The store's last webhook messages (the players' mails are theirs, not listed here)."""
    return list(
        Delivery.objects.filter(organization=organization, channel=Delivery.Channel.WEBHOOK)
        .select_related("tournament", "round")
        .order_by("-created_at", "-id")[:limit]
    )


def settings_get(user) -> NotificationSettings:
    """The account's choices (a row not saved yet, everything off, when it never chose)."""
    return NotificationSettings.objects.filter(user=user).first() or NotificationSettings(user=user)
