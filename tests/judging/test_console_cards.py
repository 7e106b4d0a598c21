"""An open judge call on the TO console's table card: "judge called · N min" while it waits,
"judge on the way: NAME" once taken, gone when done; the console's live part answers when a
call comes, is taken or closed (the desk's scope is one of its scopes), and the card's
fingerprint changes so the page swaps it."""

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from judging.models import JudgeCall
from judging.selectors import call_notes
from judging.services.calls import call_create, call_done, call_take
from leagues.models import Role
from tests import scenes
from tests.factories import UserFactory, organizer_of
from tests.judging.helpers import seated, table
from tournaments.selectors.console import card_notes

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
LIVE = re.compile(r'<div id="console-live" hx-get="([^"]+)"[^>]*data-etag="(\w+)"')


@pytest.fixture
def event():
    return scenes.round_paired(swiss_rounds=3).event


def test_a_cards_notes_follow_the_call(event):
    t1, t2 = table(event, 1), table(event, 2)
    call = call_create(table=t1, entry=seated(t1)[0], reason="ruling")
    JudgeCall.objects.filter(pk=call.pk).update(called_at=timezone.now() - timedelta(minutes=2))
    notes = call_notes([t1, t2])
    assert list(notes) == [t1.pk]
    (note,) = notes[t1.pk]
    assert (note.kind, note.text) == ("judge-call warning", "judge called")
    assert timezone.now() - note.since >= timedelta(minutes=2)
    call.refresh_from_db()
    call_take(call=call, by=UserFactory(username="judy"))
    (note,) = call_notes([t1, t2])[t1.pk]
    assert (note.kind, note.text, note.since) == ("judge-call info", "judge on the way: judy", None)
    call_done(call=JudgeCall.objects.get(pk=call.pk), by=UserFactory())
    assert call_notes([t1, t2]) == {}
    # The console's reader (registered by the judging app) gives every card its notes.
    card_notes([t1, t2])
    assert (t1.notes, t2.notes) == ([], [])


def test_the_console_card_shows_the_call_and_its_live_part_follows_it(event):
    client = Client()
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE, username="judy"))
    t1 = table(event, 1)
    page = client.get(reverse("event_run", args=[event.slug])).text
    assert "judge called" not in page
    state = re.search(rf'id="table-{t1.pk}"[^>]*data-state="(\w+)"', page)[1]
    url, etag = LIVE.search(page).groups()
    url = url.replace("&amp;", "&")
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"{etag}"', **HTMX).status_code == 304

    call = call_create(table=t1, entry=seated(t1)[0], reason="dispute")
    live = client.get(url, HTTP_IF_NONE_MATCH=f'"{etag}"', **HTMX)
    assert live.status_code == 200
    card = re.search(rf'<article [^>]*id="table-{t1.pk}".*?</article>', live.text, re.S)[0]
    assert 'class="tag judge-call warning">judge called · <time class="since"' in card
    assert ">0 min</time>" in card
    assert f'data-state="{state}"' not in card  # the page's script swaps the card in
    url, etag = LIVE.search(live.text).groups()
    url = url.replace("&amp;", "&")

    call_take(call=call, by=UserFactory(username="tess"))
    live = client.get(url, HTTP_IF_NONE_MATCH=f'"{etag}"', **HTMX)
    card = re.search(rf'<article [^>]*id="table-{t1.pk}".*?</article>', live.text, re.S)[0]
    assert "judge on the way: tess" in card and "judge called" not in card
    assert "judge on the way" in client.get(reverse("event_run", args=[event.slug])).text
