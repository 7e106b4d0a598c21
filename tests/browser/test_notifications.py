"""Notifications as people use them, at phone and desktop width, under the CSP: the organizer
sets the store's webhook (a bad address first), sends a test message that a local receiver
gets, and sees it listed as sent; a message that failed is sent again once the channel works;
a player turns on the pairing mail from My Guildhall."""

import pytest

from notifications import services as notification_services
from notifications.models import NotificationSettings, StoreWebhook
from notifications.tasks import deliver_due
from tests.factories import UserFactory
from tests.notifications.receiver import Answer, FakeReceiver

from .conftest import friday_league
from .test_csp import CSPWatch

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_organizer_sets_the_webhook_and_tests_it(request, device, settings):
    settings.GUILDHALL_WEBHOOK_LOCAL = True  # http:// to a local receiver: development only
    visit = request.getfixturevalue(device)
    store = friday_league()["league"].organization
    watch = CSPWatch(visit)
    page = visit.page
    visit.login("olive")
    with FakeReceiver() as receiver:
        watch.go("/leagues/friday/")
        visit.open_menu(".league-nav")
        page.get_by_role("link", name="Notifications").click()
        page.wait_for_url("**/organizations/*/notifications/")
        page.fill("#id_url", "http://discord.com/api/webhooks/1/token")
        page.get_by_role("button", name="Save").click()
        page.wait_for_load_state("networkidle")
        assert "must start with https://" in page.locator(".errorlist").inner_text()
        visit.shot(f"notifications-store-refused-{device}")
        page.fill("#id_url", receiver.url)
        page.get_by_role("button", name="Save").click()
        page.wait_for_load_state("networkidle")
        assert "Webhook saved" in page.locator(".messages").inner_text()
        page.get_by_role("button", name="Send a test message").click()
        page.wait_for_load_state("networkidle")
        assert "on its way" in page.locator(".messages").inner_text()
        deliver_due.call()  # what the worker does
        assert receiver.contents() == [
            f"Test message from Guildhall: {store.name}'s notifications reach this channel."
        ]
        watch.go(page.url.split(visit.base, 1)[1])
        row = page.locator("table.deliveries tbody tr").first
        assert "Test message" in row.inner_text() and "Sent" in row.inner_text()
        assert "secret-token" not in page.content()
        visit.shot(f"notifications-store-{device}")
    watch.assert_clean()


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_failed_message_is_sent_again(request, device, settings):
    settings.GUILDHALL_WEBHOOK_LOCAL = True
    visit = request.getfixturevalue(device)
    store = friday_league()["league"].organization
    watch = CSPWatch(visit)
    page = visit.page
    deleted = Answer(404, {"message": "Unknown Webhook", "code": 10015})
    with FakeReceiver(deleted, Answer(204)) as receiver:
        StoreWebhook.objects.create(organization=store, url=receiver.url)
        notification_services.webhook_test_send(organization=store)
        deliver_due.call()
        visit.login("olive")
        watch.go(f"/organizations/{store.slug}/notifications/")
        row = page.locator("table.deliveries tbody tr").first
        assert "Failed" in row.inner_text() and "Unknown Webhook" in row.inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
        visit.shot(f"notifications-failed-{device}")
        row.get_by_role("button", name="Send again").click()
        page.wait_for_load_state("networkidle")
        assert "on its way again" in page.locator(".messages").inner_text()
        deliver_due.call()
        watch.go(f"/organizations/{store.slug}/notifications/")
        row = page.locator("table.deliveries tbody tr").first
        assert "Sent" in row.inner_text()
        assert row.get_by_role("button", name="Send again").count() == 0
        assert len(receiver.requests) == 2
    watch.assert_clean()


def test_a_player_turns_on_the_pairing_mail(phone):
    UserFactory(username="ann")
    watch = CSPWatch(phone)
    page = phone.page
    phone.login("ann")
    watch.go("/me/")
    page.get_by_role("link", name="Notifications").first.click()
    page.wait_for_url("**/me/notifications/")
    page.get_by_label("E-mail me my table and seat when a round of my event is paired").check()
    phone.shot("notifications-mine-phone")
    page.get_by_role("button", name="Save").click()
    page.wait_for_load_state("networkidle")
    assert "Saved." in page.locator(".messages").inner_text()
    choice = NotificationSettings.objects.get(user__username="ann")
    assert choice.email_round_paired and not choice.email_waitlist_promoted
    watch.assert_clean()
