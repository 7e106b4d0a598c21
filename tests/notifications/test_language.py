"""Issue 45: every mail and channel message in its recipient's language, never in that of the
request that caused it. A mail to an account: the account's choice, else the store's, else
English; a store channel's message: the store's. The worker runs here inside a German
"request" (the TO's own choice), and the messages must not follow it.

The catalogues are not translated yet, so the language is proven by what Django itself
translates or reports while the message is written: the mail's `<html lang>` (the
`{% get_current_language %}` tag in its template), the day and month names of a date
(Django's own pl/fr names), and the language active while the channel's text is written.
"""

from datetime import date

import pytest
from django.core import mail
from django.utils import translation

from core.models import AccountLanguage
from notifications import services as notify
from notifications.domain import messages
from notifications.tasks import deliver_due
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.services.registration import (
    registration_join,
    registration_leave,
    registration_settings_set,
)
from tournaments.services.rounds import round_pair

from .conftest import enter, player_with_account, webhook_to
from .receiver import FakeReceiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def french_store(league):
    org = league.organization
    org.language = "fr"
    org.save(update_fields=["language"])
    return org


def polish(player):
    AccountLanguage.objects.create(user=player.user, language="pl")
    return player


def languages_while_writing(monkeypatch, name):
    """Record the language active each time `messages.<name>` writes a message."""
    seen = []
    original = getattr(messages, name)

    def spy(**kwargs):
        seen.append(translation.get_language())
        return original(**kwargs)

    monkeypatch.setattr(messages, name, spy)
    return seen


def test_the_paired_mail_is_polish_and_the_channels_message_french(
    league, french_store, monkeypatch
):
    event = TournamentFactory(league=league, slug="vendredi")
    ann = polish(player_with_account(french_store, "Ann", paired=True))
    bob = player_with_account(french_store, "Bob", paired=True)  # chose none: the store's
    enter(event, ann, bob)
    mails = languages_while_writing(monkeypatch, "paired_email")
    channel = languages_while_writing(monkeypatch, "pairings_text")
    with FakeReceiver() as receiver, translation.override("de"):  # the TO's request
        webhook_to(french_store, receiver.url)
        round_pair(tournament=event, number=1)
        assert deliver_due.call() == {"sent": 3}
        assert translation.get_language() == "de"  # the worker left the request's alone
        assert len(receiver.requests) == 1
    assert channel == ["fr"]
    assert sorted(mails) == ["fr", "pl"]
    by_address = {m.to[0]: m for m in mail.outbox}
    html = {address: m.alternatives[0][0] for address, m in by_address.items()}
    assert '<html lang="pl">' in html[ann.user.email]
    assert '<html lang="fr">' in html[bob.user.email]


def test_an_account_without_a_choice_at_an_english_store_reads_english(league, monkeypatch):
    event = TournamentFactory(league=league, slug="friday")
    ann = player_with_account(league.organization, "Ann", paired=True)
    enter(event, ann, PlayerFactory(organization=league.organization, name="Bob"))
    with translation.override("pl"):
        round_pair(tournament=event, number=1)
        deliver_due.call()
    (sent,) = mail.outbox
    assert '<html lang="en">' in sent.alternatives[0][0]
    assert "you play at table 1" in sent.body


def test_the_waitlist_mail_gives_the_date_in_the_players_language(league, french_store):
    event = TournamentFactory(league=league, slug="samedi", date=date(2026, 12, 5))
    event = registration_settings_set(tournament=event, open=True, cap=2, deadline=None, note="")
    registration_join(tournament=event, player=PlayerFactory(organization=french_store))
    first = registration_join(tournament=event, player=player_with_account(french_store, "Ann"))
    waiting = polish(player_with_account(french_store, "Bob", promoted=True))
    registration_join(tournament=event, player=waiting)
    with translation.override("de"):
        registration_leave(registration=first)
        deliver_due.call()
    (sent,) = mail.outbox
    assert "(So 5 Gru 2026)" in sent.body  # Django's Polish day and month
    assert '<html lang="pl">' in sent.alternatives[0][0]


def test_the_test_message_is_in_the_stores_language_not_the_pressers(french_store, monkeypatch):
    seen = languages_while_writing(monkeypatch, "test_text")
    webhook_to(french_store, "https://discord.com/api/webhooks/1/secret")
    with translation.override("pl"):
        notify.webhook_test_send(organization=french_store)
    assert seen == ["fr"]
