"""The pages: a player's own choices, and a store's webhook with its test button and its
recent deliveries. Bad input is refused on its field and changes nothing; buttons are safe
to press twice."""

import pytest
from django.core import mail

from notifications.models import Delivery, NotificationSettings, StoreWebhook
from notifications.tasks import deliver_due
from tests.factories import OrganizationFactory, UserFactory
from tests.forms import error_summary

from .conftest import webhook_to
from .receiver import Answer, FakeReceiver

pytestmark = pytest.mark.django_db

DISCORD = "https://discord.com/api/webhooks/1234567890/SecretTokenValue"


def page(organization) -> str:
    return f"/organizations/{organization.slug}/notifications/"


def test_a_player_turns_the_mails_on_and_off(client):
    user = UserFactory(username="ann")
    client.force_login(user)
    response = client.get("/me/notifications/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "ann@example.com" in body and 'type="checkbox"' in body
    assert "checked" not in body  # off until turned on
    response = client.post("/me/notifications/", {"email_round_paired": "on"})
    assert response.status_code == 302
    choice = NotificationSettings.objects.get(user=user)
    assert (choice.email_round_paired, choice.email_waitlist_promoted) == (True, False)
    client.post("/me/notifications/", {"email_round_paired": "on"})  # twice: the same
    assert NotificationSettings.objects.count() == 1
    client.post("/me/notifications/", {})
    choice.refresh_from_db()
    assert not choice.email_round_paired


def test_without_mail_the_choices_are_hidden_with_the_reason(client, settings):
    settings.GUILDHALL_MAIL_DELIVERS = False
    user = UserFactory(username="ann")
    client.force_login(user)
    body = client.get("/me/notifications/").content.decode()
    assert "E-mail notifications are off on this site" in body
    assert 'type="checkbox"' not in body
    response = client.post("/me/notifications/", {"email_round_paired": "on"}, follow=True)
    assert "sends no e-mail" in response.content.decode()
    assert not NotificationSettings.objects.exists()


def test_my_guildhall_links_to_the_choices(client):
    client.force_login(UserFactory())
    assert 'href="/me/notifications/"' in client.get("/me/").content.decode()


def test_the_organizer_sets_the_webhook_and_its_secret_is_not_shown_again(
    organizer_client, organization
):
    response = organizer_client.post(page(organization), {"url": f"  {DISCORD}  "})
    assert response.status_code == 302
    assert StoreWebhook.objects.get(organization=organization).url == DISCORD
    body = organizer_client.get(page(organization)).content.decode()
    assert "https://discord.com/api/webhooks/1234567890/Secr…" in body
    assert "SecretTokenValue" not in body
    organizer_client.post(page(organization), {"url": "", "remove": "1"})
    assert not StoreWebhook.objects.exists()


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://discord.com/api/webhooks/1/x", "must start with https://"),
        ("https://192.168.0.10/hook", "private network"),
        ("discord webhook", "has a space"),
    ],
)
def test_a_bad_webhook_address_is_refused_on_its_field_and_nothing_changes(
    organizer_client, organization, url, message
):
    webhook_to(organization, DISCORD)
    response = organizer_client.post(page(organization), {"url": url})
    assert response.status_code == 400
    body = response.content.decode()
    assert message in body and 'class="field has-error"' in body
    assert 'href="#id_url"' in error_summary(body)
    assert StoreWebhook.objects.get().url == DISCORD


def test_the_test_button_pressed_twice_sends_one_message_and_the_page_shows_its_fate(
    organizer_client, organization
):
    with FakeReceiver(Answer(404, {"message": "Unknown Webhook", "code": 10015})) as receiver:
        webhook_to(organization, receiver.url)
        for _ in range(2):
            response = organizer_client.post(page(organization) + "test/", follow=True)
        assert "on its way already" in response.content.decode()
        assert Delivery.objects.count() == 1
        deliver_due.call()
        assert len(receiver.requests) == 1
    body = organizer_client.get(page(organization)).content.decode()
    assert "Test message" in body and "Failed" in body and "Unknown Webhook" in body
    assert 'class="bad"' in body


def test_the_test_button_without_a_webhook_says_what_to_do(organizer_client, organization):
    response = organizer_client.post(page(organization) + "test/", follow=True)
    assert "Set the webhook address first." in response.content.decode()
    assert not Delivery.objects.exists()


def test_the_store_page_lists_webhook_messages_not_the_players_mails(
    organizer_client, organization
):
    Delivery.objects.create(
        key="a", kind="paired", channel="email", organization=organization, target="p@x.example"
    )
    body = organizer_client.get(page(organization)).content.decode()
    assert "p@x.example" not in body and "No message yet" in body
    assert mail.outbox == []


def test_the_league_menu_links_the_store_page_for_its_managers(organizer_client, league):
    body = organizer_client.get(f"/leagues/{league.slug}/").content.decode()
    assert f'href="/organizations/{league.organization.slug}/notifications/"' in body


def test_a_failed_message_is_sent_again_once_the_channel_works_and_a_double_tap_sends_once(
    organizer_client, organization
):
    """The store's webhook was deleted in Discord, so round 3's message failed; the organizer
    pastes a new address and presses Send again (twice, on a slow phone): it goes out once,
    with the words it had."""
    with FakeReceiver(Answer(404, {"message": "Unknown Webhook", "code": 10015})) as dead:
        webhook_to(organization, dead.url)
        organizer_client.post(page(organization) + "test/")
        deliver_due.call()
    failed = Delivery.objects.get()
    assert failed.status == "failed" and failed.attempts == 1
    words = failed.payload
    body = organizer_client.get(page(organization)).content.decode()
    retry = page(organization) + f"{failed.pk}/retry/"
    assert f'action="{retry}"' in body and "Send again" in body
    with FakeReceiver(Answer(204)) as alive:
        StoreWebhook.objects.filter(organization=organization).update(url=alive.url)
        first = organizer_client.post(retry, follow=True).content.decode()
        second = organizer_client.post(retry, follow=True).content.decode()
        assert "Test message: on its way again" in first
        assert "Test message: already on its way, nothing to do." in second
        deliver_due.call()
        assert len(alive.requests) == 1
        assert alive.requests[0]["json"]["content"] == words["content"]
    failed.refresh_from_db()
    assert (failed.status, failed.attempts, failed.last_error) == ("sent", 1, "")
    again = organizer_client.post(retry, follow=True).content.decode()
    assert "already sent, nothing to do." in again
    assert Delivery.objects.count() == 1


def test_send_again_refuses_another_stores_message_and_one_without_a_webhook(
    organizer_client, organization
):
    other = OrganizationFactory()
    theirs = Delivery.objects.create(
        key="theirs", kind="test", channel="webhook", organization=other, status="failed"
    )
    response = organizer_client.post(page(organization) + f"{theirs.pk}/retry/", follow=True)
    assert "no longer kept" in response.content.decode()
    mine = Delivery.objects.create(
        key="mine", kind="test", channel="webhook", organization=organization, status="failed"
    )
    response = organizer_client.post(page(organization) + f"{mine.pk}/retry/", follow=True)
    assert "Set the webhook address first." in response.content.decode()
    assert set(Delivery.objects.values_list("status", flat=True)) == {"failed"}
