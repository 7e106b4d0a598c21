"""Issue 45: mails and channel messages hold no text that escaped translation.

The pages are read in the pseudo-locale by the permission matrix (tests/pseudolocale.py);
these are the texts that leave the site: each mail (subject, plain body, HTML part) and each
channel message, written by the worker for a recipient whose language is the pseudo-locale,
read for visible text outside the ⟦ ⟧ markers. What people typed (the store's, event's and
players' names) and the links are not counted.
"""

import re
from datetime import date

import pytest
from django.core import mail
from django.utils import translation

from core.models import AccountLanguage
from leagues.services.store import staff_invite
from notifications import services as notify
from notifications.domain import messages
from notifications.tasks import deliver_due
from tests import pseudolocale
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

LINK = re.compile(r"https?://[^\s⟧]+")


@pytest.fixture
def pseudo(settings, tmp_path_factory):
    return pseudolocale.use(settings, tmp_path_factory)


@pytest.fixture
def pseudo_store(league, pseudo):
    org = league.organization
    org.language = pseudo
    org.save(update_fields=["language"])
    return org


def escaped(text: str, typed) -> list[str]:
    return pseudolocale.untranslated(LINK.sub(" ", text), typed)


def sent_mails() -> dict[str, str]:
    """Each mail of the outbox as its three texts a person reads."""
    out = {}
    for n, message in enumerate(mail.outbox):
        out[f"mail {n} subject"] = message.subject
        out[f"mail {n} body"] = message.body
        for html, _kind in getattr(message, "alternatives", []):
            out[f"mail {n} html"] = html
    return out


def test_the_check_finds_an_english_sentence_in_a_mail():
    assert escaped("⟦Hello Ann,⟧\nSee you on Friday: https://x.example/e/1/", {"Ann"}) == [
        "See you on Friday:"
    ]


def test_the_paired_mails_and_the_channels_message_are_all_translated(pseudo_store, league):
    event = TournamentFactory(league=league, name="Friday Commander", slug="friday-commander")
    ann = player_with_account(pseudo_store, "Ann Lee", paired=True)
    bob = player_with_account(pseudo_store, "Bob Ray", paired=True)
    cy = player_with_account(pseudo_store, "Cy Dunn", paired=True)  # a bye among three
    AccountLanguage.objects.create(user=ann.user, language=pseudolocale.PSEUDO)
    enter(event, ann, bob, cy)
    typed = pseudolocale.database_text()
    with FakeReceiver() as receiver:
        webhook_to(pseudo_store, receiver.url)
        round_pair(tournament=event, number=1)
        assert deliver_due.call() == {"sent": 4}
        texts = {**sent_mails(), **{f"channel {n}": c for n, c in enumerate(receiver.contents())}}
    assert len(texts) == 10  # three mails of three parts, one channel message
    assert {name: escaped(text, typed) for name, text in texts.items()} == {
        name: [] for name in texts
    }


def test_the_waitlist_and_invitation_mails_and_the_test_message_are_translated(
    pseudo_store, league, django_capture_on_commit_callbacks
):
    event = TournamentFactory(
        league=league, name="Saturday Draft", slug="sat", date=date(2026, 12, 5)
    )
    event = registration_settings_set(tournament=event, open=True, cap=2, deadline=None, note="")
    registration_join(tournament=event, player=PlayerFactory(organization=pseudo_store))
    first = registration_join(tournament=event, player=PlayerFactory(organization=pseudo_store))
    waiting = player_with_account(pseudo_store, "Dee Ito", promoted=True)
    registration_join(tournament=event, player=waiting)
    typed = pseudolocale.database_text() | {"judge@example.com"}
    with FakeReceiver() as receiver, translation.override("de"):  # the presser's language
        webhook_to(pseudo_store, receiver.url)
        registration_leave(registration=first)
        notify.webhook_test_send(organization=pseudo_store)
        with django_capture_on_commit_callbacks(execute=True):
            staff_invite(
                organization=pseudo_store,
                email="judge@example.com",
                role="judge",
                site_url="https://guildhall.example",
            )
        deliver_due.call()
        texts = {**sent_mails(), **{f"channel {n}": c for n, c in enumerate(receiver.contents())}}
    assert len(texts) == 6  # the promotion's three parts, the invitation's two, the test
    assert {name: escaped(text, typed) for name, text in texts.items()} == {
        name: [] for name in texts
    }


def test_the_qualified_mail_and_the_final_standings_are_translated(pseudo):
    rows = [
        messages.StandingRow(rank=1, tied=False, name="Ann Lee", points=9, record="3-0-0"),
        messages.StandingRow(rank=2, tied=True, name="Bob Ray", points=6, record="2-1-0"),
    ]
    typed = {"Ann Lee", "Bob Ray", "Winter Cup", "Winter Season", "Sat 5 Dec"}
    with translation.override(pseudo):
        invited = messages.qualified_email(
            event="Winter Cup",
            when="Sat 5 Dec",
            link="https://x.example/e/1/",
            player="Ann Lee",
            season="Winter Season",
            rank=3,
            top=8,
        )
        standings = messages.standings_text(
            event="Winter Cup", rows=rows, link="https://x.example/e/1/", champion="Ann Lee"
        )
    texts = {"subject": invited.subject, "body": invited.body, "standings": standings}
    assert {name: escaped(text, typed) for name, text in texts.items()} == {
        name: [] for name in texts
    }
