"""Fewer taps and less scrolling on the TO's console (issue 31).

Once every table has a result, one tap in the round's header ends the round and pairs the
next (before: End round, then Pair round N+1, at the foot of every card); the header comes
back with each tapped card (htmx) and with the live poll, so the tap appears the moment the
last result is in. Check-in closes from the console. `?tables=open` shows the tables still
waiting (or disputed) and folds away the others, with or without JavaScript.
"""

import re

import pytest
from django.urls import reverse

from tests import scenes
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.models import Round, Tournament
from tournaments.services.registration import (
    check_in,
    check_in_open,
    registration_join,
    registration_settings_set,
)
from tournaments.services.results import table_report

from .test_console_on_demand import HTMX

pytestmark = pytest.mark.django_db


def said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def report(table):
    seats = list(table.seats.order_by("position"))
    table_report(table=table, winner=seats[0].entry)


def round_next(html: str) -> str:
    """The one-tap slot of a console page or fragment."""
    found = re.search(r'<div id="round-next"[^>]*>.*?</div>', html, re.S)
    assert found, html
    return found[0]


@pytest.fixture
def event(league):
    event = TournamentFactory(league=league, swiss_rounds=3, slug="friday")
    return scenes.round_paired(event=event, players="ABCDEFGH").event


# --- (a) one tap: end the round and pair the next ---------------------------------------------


def test_the_one_tap_appears_only_once_every_table_has_a_result(event, organizer_client):
    tables = list(event.rounds.get().tables.order_by("number"))
    for table in tables[:-1]:
        report(table)
    page = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "<form" not in round_next(page)
    report(tables[-1])
    page = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    slot = round_next(page)
    assert f'action="{reverse("round_advance", args=[event.slug, 1])}"' in slot
    assert "Pair round 2 <small>· ends round 1</small>" in slot
    # It sits in the round's header, which stays in view (sticky) while the TO scrolls.
    head = page.split('<div class="round-head"')[1].split('<div id="round-board"')[0]
    assert 'id="round-status"' in head and 'id="round-next"' in head
    assert 'id="round-time"' in head


def test_one_tap_ends_round_one_and_pairs_round_two_and_a_second_tap_changes_nothing(
    event, organizer_client
):
    for table in event.rounds.get().tables.all():
        report(table)
    url = reverse("round_advance", args=[event.slug, 1])
    first = organizer_client.post(url, follow=True)
    assert said(first) == ["Round 1 is complete. Round 2 is paired: 4 tables."]
    assert '<h2>Round 2<span id="round-time"' in first.content.decode()
    again = organizer_client.post(url, follow=True)
    assert said(again) == [
        "Round 1 is already complete and round 2 is paired: nothing was changed again."
    ]
    # The console shows the new round (being played: its clock says so, not "Playing").
    assert '<h2>Round 2<span id="round-time"' in again.content.decode()
    assert list(event.rounds.values_list("number", "status").order_by("number")) == [
        (1, "complete"),
        (2, "playing"),
    ]


def test_a_tap_before_every_result_is_in_is_refused_and_ends_nothing(event, organizer_client):
    answer = organizer_client.post(reverse("round_advance", args=[event.slug, 1]))
    assert answer.status_code == 400
    assert "Tables 1, 2, 3 and 4 still have no result." in answer.content.decode()
    assert event.rounds.get().status == Round.Status.PLAYING


def test_the_last_swiss_round_offers_the_top_cut_and_one_tap_starts_it(league, organizer_client):
    event = TournamentFactory(league=league, swiss_rounds=1, top_cut=4, slug="cut")
    scenes.round_reported(event=event, players="ABCDEFGH")
    page = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "Start the top 4 <small>· ends round 1</small>" in round_next(page)
    answer = organizer_client.post(reverse("round_advance", args=[event.slug, 1]), follow=True)
    assert said(answer) == ["Round 1 is complete. Semifinals is paired: 2 tables."]
    event.refresh_from_db()
    assert event.status == Tournament.Status.TOP_CUT


def test_the_last_round_without_a_cut_offers_the_final_standings(league, organizer_client):
    event = TournamentFactory(league=league, swiss_rounds=1, top_cut=0, slug="short")
    scenes.round_reported(event=event, players="ABCD")
    page = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "Final standings <small>· ends round 1</small>" in round_next(page)
    answer = organizer_client.post(reverse("round_advance", args=[event.slug, 1]), follow=True)
    # The console itself says the event is finished (issue 43: not the flash again).
    assert said(answer) == ["Round 1 is complete."]
    assert "The event is finished: the <a" in answer.content.decode()


def test_the_last_tapped_card_brings_the_one_tap_with_it(event, organizer_client):
    """htmx: the answer to a card's tap carries the header's slot out of band, empty while
    tables wait and with the one tap once the last result is in."""
    tables = list(event.rounds.get().tables.order_by("number"))
    for table in tables[:-1]:
        report(table)
    last = tables[-1]
    url = reverse("table_report", args=[event.slug, last.pk])
    answer = organizer_client.post(url, {"version": "0", "result": "2-0"}, **HTMX)
    assert answer.status_code == 200
    text = answer.content.decode()
    assert "<html" not in text  # a fragment
    slot = round_next(text)
    assert 'hx-swap-oob="true"' in slot and "Pair round 2" in slot
    assert f'id="table-{last.pk}"' in text


def test_the_live_poll_sends_the_one_tap_when_another_phone_sent_the_last_result(
    event, organizer_client
):
    page = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    live = re.search(r'hx-get="([^"]+)"', page.split('id="console-live"')[1])[1]
    for table in event.rounds.get().tables.all():
        report(table)
    answer = organizer_client.get(live.replace("&amp;", "&"), **HTMX)
    assert answer.status_code == 200
    slot = round_next(answer.content.decode())
    assert 'hx-swap-oob="true"' in slot and "Pair round 2" in slot


# --- (b) check-in closes from the console -----------------------------------------------------


def test_check_in_closes_from_the_console(league, organizer_client):
    event = TournamentFactory(league=league, slug="doors")
    registration_settings_set(tournament=event, open=True, cap=8, deadline=None, note="")
    ann, bob = (PlayerFactory(organization=league.organization, name=n) for n in ("Ann", "Bob"))
    for player in (ann, bob):
        registration_join(tournament=event, player=player)
    check_in_open(tournament=event)
    check_in(registration=event.registrations.get(player=ann))
    page = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    form = page.split('<div id="check-in"')[1].split("</div>")[0]
    assert f'action="{reverse("check_in_close", args=[event.slug])}"' in form
    assert 'name="back" value="run"' in form and "1 player who did not check in" in form
    url = reverse("check_in_close", args=[event.slug])
    closed = organizer_client.post(url, {"back": "run"}, follow=True)
    assert closed.redirect_chain == [(reverse("event_run", args=[event.slug]), 302)]
    assert said(closed) == [
        "Check-in closed. Removed (did not check in): Bob. Seated from the waitlist: nobody."
    ]
    event.refresh_from_db()
    assert event.check_in == Tournament.CheckIn.CLOSED
    assert list(event.entries.values_list("player__name", flat=True)) == ["Ann"]
    again = organizer_client.post(url, {"back": "run"}, follow=True)
    assert said(again) == ["Check-in is not open."]
    assert again.redirect_chain[-1][0] == reverse("event_run", args=[event.slug])
    # The next tap pairs round 1 from the same page.
    assert 'name="number" value="1"' in again.content.decode()


# --- (c) the tables still waiting, the others folded away -------------------------------------


def test_the_waiting_filter_folds_away_the_tables_with_a_result(event, organizer_client):
    tables = list(event.rounds.get().tables.order_by("number"))
    report(tables[0])
    report(tables[2])
    url = reverse("event_run", args=[event.slug])
    everything = organizer_client.get(url).content.decode()
    assert 'href="?tables=open"' in everything and "Waiting or disputed · 2" in everything
    assert re.findall(r'data-table-number="(\d+)"', everything) == ["1", "2", "3", "4"]
    assert "done-tables" not in everything
    # Without JavaScript: the query parameter.
    page = organizer_client.get(url, {"tables": "open"}).content.decode()
    shown, folded = page.split('<details class="done-tables">')
    shown = shown.split('<div id="round-board">')[1]
    assert re.findall(r'data-table-number="(\d+)"', shown) == ["2", "4"]
    folded = folded.split("<h2>Players")[0]
    assert "2 tables with a result" in folded
    assert re.findall(r'data-table-number="(\d+)"', folded) == ["1", "3"]
    # With htmx: the board alone, as a fragment.
    fragment = organizer_client.get(url, {"tables": "open"}, **HTMX)
    text = fragment.content.decode()
    assert fragment.status_code == 200 and text.lstrip().startswith('<div id="round-board">')
    assert "<html" not in text and 'class="round-head"' not in text
    waiting = text.split('<details class="done-tables">')[0]
    assert re.findall(r'data-table-number="(\d+)"', waiting) == ["2", "4"]


def round_status(client, event) -> str:
    """The text of the console's round message (`#round-status`), its markup included."""
    html = client.get(reverse("event_run", args=[event.slug])).content.decode()
    return re.search(r'<p id="round-status"[^>]*>(.*?)</p>', html).group(1)


def test_a_long_list_of_waiting_tables_names_five_and_counts_the_rest(league, organizer_client):
    """The round head is sticky on a phone: on a big night it names the first five tables
    waiting and how many more, not all of them (which would fill the screen)."""
    event = TournamentFactory(league=league, swiss_rounds=3, slug="big-friday")
    players = (f"Player {n}" for n in range(1, 19))  # 9 tables
    first = scenes.round_paired(event=event, players=players).round.tables.order_by("number")[0]
    status = round_status(organizer_client, event)
    assert status.startswith("Waiting for 9 tables: 1, 2, 3, 4, 5 and 4 more ")
    report(first)
    status = round_status(organizer_client, event)
    assert status.startswith("Waiting for 8 tables: 2, 3, 4, 5, 6 and 3 more ")


def test_a_short_list_of_waiting_tables_names_them_all(event, organizer_client):
    assert round_status(organizer_client, event).startswith("Waiting for 4 tables: 1, 2, 3, 4 ")
