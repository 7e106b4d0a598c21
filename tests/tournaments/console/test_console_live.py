"""The TO console follows the round by itself (views.event_run_live): a poll every 2 s answers
304 while nothing changed; after a result, a player's report, a drop, it sends the round's
status line, the reports line and every card out of band, each card with a fingerprint of what
it shows (`data-state`) so the page's script replaces only the cards that changed; once the
page's round is no longer the one to run (the round ended, the next paired, the pairings
changed), it says so instead of sending cards. The player list and the check-in line come
again only when the players changed (a registration, a check-in, a drop)."""

import re

import pytest
from django.urls import reverse

from leagues.models import Role
from tests import scenes
from tests.factories import LeagueFactory, PlayerFactory, organizer_of
from tests.tournaments.play import register
from tournaments.domain.result import Result
from tournaments.models import Entry, Registration, Round, Table
from tournaments.services.entries import entry_drop, requested_bye_add
from tournaments.services.registration import (
    check_in,
    check_in_open,
    registration_join,
)
from tournaments.services.reports import report_submit
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair, round_swap

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
CARD = re.compile(r'<article [^>]*id="table-(\d+)"[^>]*data-state="(\w+)"([^>]*)>')


@pytest.fixture
def pod(db, client):
    """A pod event of 8 (two pods), round 1 paired, a judge at the console."""
    event = scenes.pods_round_in_play().event
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    return {"event": event}


class Console:
    """The console page as a judge's phone holds it: its cards' fingerprints and its poll."""

    def __init__(self, client, event):
        self.client = client
        page = client.get(reverse("event_run", args=[event.slug]))
        assert page.status_code == 200
        text = page.content.decode()
        live = re.search(r'<div id="console-live" hx-get="([^"]+)"[^>]*data-etag="(\w+)"', text)
        self.url, self.etag = live[1].replace("&amp;", "&"), live[2]
        self.cards = {int(pk): state for pk, state, _ in CARD.findall(text)}

    def poll(self):
        response = self.client.get(self.url, HTTP_IF_NONE_MATCH=f'"{self.etag}"', **HTMX)
        if response.status_code == 200:  # the page swaps in the new poller, as htmx does
            text = response.content.decode()
            live = re.search(r'<div id="console-live" hx-get="([^"]+)"[^>]*data-etag="(\w+)"', text)
            self.url, self.etag = live[1].replace("&amp;", "&"), live[2]
        return response


def tables(event) -> list[Table]:
    return list(Table.objects.filter(round__tournament=event).order_by("number"))


def test_nothing_changed_answers_304_and_the_page_and_poll_share_the_tag(client, pod):
    console = Console(client, pod["event"])
    assert len(console.cards) == 2
    response = console.poll()
    assert response.status_code == 304
    assert response["ETag"] == f'"{console.etag}"'


def test_a_result_entered_elsewhere_comes_back_as_that_card_changed_and_the_others_not(client, pod):
    event = pod["event"]
    console = Console(client, event)
    first, second = tables(event)
    winner = first.seats.order_by("position").first().entry
    table_report(table=first, winner=winner)  # another judge's phone
    response = console.poll()
    assert response.status_code == 200
    text = response.content.decode()
    sent = {int(pk): (state, rest) for pk, state, rest in CARD.findall(text)}
    assert set(sent) == {first.pk, second.pk}
    assert all('hx-swap-oob="true"' in rest for _, rest in sent.values())
    assert sent[first.pk][0] != console.cards[first.pk]  # the script swaps this one in
    assert sent[second.pk][0] == console.cards[second.pk]  # and keeps this one
    assert f'id="table-{first.pk}" data-table-id="{first.pk}"' in text
    assert 'id="round-status" hx-swap-oob="true"' in text
    assert "Waiting for 1 pod: 2" in text
    assert '<div id="report-counts" hx-swap-oob="true">' in text
    assert "The rounds changed" not in text
    assert 'id="entries"' not in text  # the players did not change: their list is not sent
    # The new tag rides in the new poller: the next poll is a 304 again.
    assert console.poll().status_code == 304


def test_a_players_report_changes_the_card_it_is_on(client, pod):
    event = pod["event"]
    console = Console(client, event)
    first, second = tables(event)
    seats = list(first.seats.select_related("entry").order_by("position"))
    report_submit(table=first, entry=seats[0].entry, result=Result(winner=seats[0].entry_id))
    response = console.poll()
    assert response.status_code == 200
    text = response.content.decode()
    sent = {int(pk): state for pk, state, _ in CARD.findall(text)}
    assert sent[first.pk] != console.cards[first.pk]
    assert sent[second.pk] == console.cards[second.pk]
    assert "1 waiting for confirmation" in text


def test_the_round_ended_or_the_next_paired_says_so_and_sends_no_cards(client, pod):
    event = pod["event"]
    console = Console(client, event)
    for table in tables(event):
        table_report(table=table, draw=True)
    assert console.poll().status_code == 200  # the results: cards
    round_end(round_=Round.objects.get(tournament=event, number=1))
    text = console.poll().content.decode()
    assert "The rounds changed on another screen" in text
    assert 'data-changed="1"' in text  # what a script (bench/turnaround.py) reads
    assert "round 1 is complete" in text
    assert not CARD.findall(text)
    round_pair(tournament=event)
    text = console.poll().content.decode()
    assert "round 2 is playing" in text
    assert not CARD.findall(text)
    # Reloaded, the console shows round 2 and polls for it: a 304.
    assert Console(client, event).poll().status_code == 304


def test_pairings_changed_in_the_same_round_say_so(client, pod):
    event = pod["event"]
    console = Console(client, event)
    first, second = tables(event)
    a = first.seats.order_by("position").first().entry
    b = second.seats.order_by("position").first().entry
    round_swap(round_=Round.objects.get(tournament=event, number=1), a=a, b=b)
    text = console.poll().content.decode()
    assert "The rounds changed on another screen" in text
    assert not CARD.findall(text)


def test_the_live_address_opened_as_a_page_goes_to_the_console(client, pod):
    console = Console(client, pod["event"])
    response = client.get(console.url)
    assert response.status_code == 302
    assert response.url == reverse("event_run", args=[pod["event"].slug])


def test_only_those_who_run_the_event_may_poll(client, pod):
    console = Console(client, pod["event"])
    client.logout()
    response = client.get(console.url, **HTMX)
    assert response.status_code == 302  # to the log-in
    client.force_login(organizer_of(LeagueFactory().organization, role=Role.JUDGE))
    assert client.get(console.url, **HTMX).status_code in (403, 404)


def entry_list(text: str) -> str:
    sent = r'<ul class="entries" id="entries" hx-swap-oob="true">(.*?)</ul>'
    listed = re.search(sent, text, re.S)
    assert listed, "the player list was not sent"
    return listed[1]


def entry_names(text: str) -> list[str]:
    return re.findall(r'<span class="entry-name">([^<]+)', entry_list(text))


def test_check_ins_and_sign_ups_come_to_the_console_before_round_1(client, db):
    """The TO waits at the console for the last check-ins before pairing round 1: each one
    (from a player's phone) comes as the check-in line, the count and the list."""
    event = scenes.event_open(format="pods", swiss_rounds=3, players=0, registration={}).event
    league = event.league
    ann, bob = (
        registration_join(
            tournament=event, player=PlayerFactory(organization=league.organization, name=name)
        )
        for name in ("Ann", "Bob")
    )
    check_in_open(tournament=event)
    client.force_login(organizer_of(league.organization, role=Role.JUDGE))
    console = Console(client, event)
    assert console.poll().status_code == 304

    check_in(registration=ann)  # Ann's phone
    text = console.poll().content.decode()
    line = re.search(r'<div id="check-in" hx-swap-oob="true">(.*?)</div>', text, re.S)[1]
    assert "1 not checked in (Bob)" in line
    assert '<span class="muted" id="player-count" hx-swap-oob="true">· 2</span>' in text
    assert entry_names(text) == ["Ann", "Bob"]
    assert console.poll().status_code == 304

    registration_join(  # a walk-in signs up on the door's QR code
        tournament=event, player=PlayerFactory(organization=league.organization, name="Cy")
    )
    text = console.poll().content.decode()
    assert "2 not checked in (Bob, Cy)" in text
    assert "<strong>3 players:</strong>" in text  # the rounds suggested for the field
    assert entry_names(text) == ["Ann", "Bob", "Cy"]

    check_in(registration=bob)
    check_in(registration=Registration.objects.get(tournament=event, player__name="Cy"))
    text = console.poll().content.decode()
    assert "every registered player is here" in text


def test_a_drop_elsewhere_sends_the_list_and_a_result_does_not(client, pod):
    event = pod["event"]
    console = Console(client, event)
    gus = Entry.objects.get(tournament=event, player__name="Gus")
    entry_drop(entry=gus)  # from Gus's own phone, or another judge
    text = console.poll().content.decode()
    assert '<span class="entry-name">Gus <span class="tag">dropped</span>' in entry_list(text)
    first = tables(event)[0]
    table_report(table=first, winner=first.seats.order_by("position").first().entry)
    text = console.poll().content.decode()
    assert 'id="entries"' not in text and f'id="table-{first.pk}"' in text


def test_the_list_is_read_once_per_change_and_follows_every_write(client, pod, settings):
    """With the shared cache on, a console load reads the player list only after the players
    changed (a drop, a registration, a half-point bye, a rename): each write shows at the next
    load, and a load after a result alone reads no list."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from leagues.models import Player

    settings.GUILDHALL_PAGE_CACHE = True
    event = pod["event"]
    url = reverse("event_run", args=[event.slug])

    def load() -> tuple[str, bool]:
        with CaptureQueriesContext(connection) as done:
            text = client.get(url).content.decode()
        listed = re.search(r'<ul class="entries" id="entries">(.*?)</ul>', text, re.S)[1]
        return listed, any("tournaments_requestedbye" in q["sql"] for q in done.captured_queries)

    first, read = load()
    assert read and '<span class="entry-name">Gus</span>' in first
    again, read = load()
    assert again == first and not read
    table = tables(event)[0]
    table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    assert load() == (first, False)  # a result: the same list, not read again

    entry_drop(entry=Entry.objects.get(tournament=event, player__name="Gus"))
    listed, read = load()
    assert read and '<span class="entry-name">Gus <span class="tag">dropped</span>' in listed
    register(event, "Ivy")
    assert '<span class="entry-name">Ivy <span class="tag">from round 2</span>' in load()[0]
    requested_bye_add(entry=Entry.objects.get(tournament=event, player__name="Ivy"), round_number=3)
    assert "½ bye in round 3" in load()[0]
    hal = Player.objects.get(organization=event.league.organization, name="Hal")
    hal.name = "Hal Renamed"
    hal.save()
    assert '<span class="entry-name">Hal Renamed</span>' in load()[0]
