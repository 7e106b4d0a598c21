"""Shared pieces of the notification tests: players with accounts and choices, an event."""

import pytest

from notifications.models import NotificationSettings, StoreWebhook
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments.services.entries import entry_register

BASE = "https://guildhall.example"


@pytest.fixture(autouse=True)
def site_address(settings):
    settings.GUILDHALL_BASE_URL = BASE
    settings.GUILDHALL_MAIL_DELIVERS = True
    # The fake receiver listens on 127.0.0.1, as a developer's local receiver would.
    settings.GUILDHALL_WEBHOOK_LOCAL = True


def player_with_account(organization, name, *, paired=False, promoted=False, email=None):
    user = UserFactory(username=name.lower().replace(" ", "-"))
    if email is not None:
        user.email = email
        user.save(update_fields=["email"])
    NotificationSettings.objects.create(
        user=user, email_round_paired=paired, email_waitlist_promoted=promoted
    )
    return PlayerFactory(organization=organization, name=name, user=user)


def webhook_to(organization, url):
    """The store's webhook, set directly (tests/notifications/test_views.py checks the form)."""
    return StoreWebhook.objects.create(organization=organization, url=url)


@pytest.fixture
def event(league):
    return TournamentFactory(league=league, name="Friday Modern", slug="friday-modern")


def enter(event, *players):
    for player in players:
        entry_register(tournament=event, name=player.name)
