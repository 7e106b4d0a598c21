"""A judge's time extension for one table: set from the console as a total (so a double tap or
two judges at the same ruling give it once), taken away with 0, shown on the card, beside the
round's clock, on the pairings page, on the projector and on the table's players' own pages;
bad input is refused with the reason and changes nothing."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from leagues.models import Role
from tests import scenes
from tests.factories import organizer_of
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Round, Table
from tournaments.services.clock import table_extension_set
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(db):
    return scenes.pods_round_in_play(round_minutes=80).event


def round_1(event) -> Round:
    return Round.objects.get(tournament=event, number=1)


def table(event, number: int) -> Table:
    return Table.objects.get(round__tournament=event, round__number=1, number=number)


def extend(event, number: int, minutes: int) -> Table:
    return table_extension_set(round_=round_1(event), number=number, minutes=minutes)


def test_an_extension_is_set_on_one_table_and_logged(event):
    extend(event, 1, 5)
    assert table(event, 1).extra_minutes == 5
    assert table(event, 2).extra_minutes == 0
    entry = AuditEntry.objects.get(action="table.extension")
    assert entry.summary == "Friday: round 1, pod 1: +5 min (was +0 min)"
    assert (entry.before, entry.after) == ({"extra_minutes": 0}, {"extra_minutes": 5})


def test_the_same_total_twice_gives_it_once(event):
    extend(event, 1, 5)
    with pytest.raises(AlreadyDone, match="Pod 1 already has 5 extra minutes"):
        extend(event, 1, 5)
    assert table(event, 1).extra_minutes == 5
    assert AuditEntry.objects.filter(action="table.extension").count() == 1


def test_a_new_total_replaces_the_old_and_zero_takes_it_away(event):
    extend(event, 1, 5)
    extend(event, 1, 3)
    assert table(event, 1).extra_minutes == 3
    extend(event, 1, 0)
    assert table(event, 1).extra_minutes == 0
    summaries = list(
        AuditEntry.objects.filter(action="table.extension")
        .order_by("id")
        .values_list("summary", flat=True)
    )
    assert summaries[-1] == "Friday: round 1, pod 1: no time extension (was +3 min)"
    with pytest.raises(AlreadyDone, match="Pod 1 already has no time extension"):
        extend(event, 1, 0)


@pytest.mark.parametrize(
    ("number", "minutes", "message"),
    [
        (1, -1, "0 to 30 minutes"),
        (1, 31, "0 to 30 minutes"),
        (99, 5, "There is no pod 99 in this round."),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(event, number, minutes, message):
    with pytest.raises(TournamentError, match=message):
        extend(event, number, minutes)
    assert not Table.objects.filter(extra_minutes__gt=0).exists()
    assert not AuditEntry.objects.filter(action="table.extension").exists()


def test_a_table_with_its_result_needs_no_more_time_but_can_lose_it(event):
    extend(event, 1, 5)
    pod = table(event, 1)
    table_report(table=pod, winner=pod.seats.order_by("position")[0].entry)
    with pytest.raises(TournamentError, match="Pod 1 has its result"):
        extend(event, 1, 7)
    extend(event, 1, 0)
    assert table(event, 1).extra_minutes == 0


def test_a_round_not_being_played_gives_no_extension(event):
    round_ = round_1(event)
    for pod in round_.tables.all():
        table_report(table=pod, winner=pod.seats.order_by("position")[0].entry)
    round_end(round_=round_)
    with pytest.raises(TournamentError, match="not being played"):
        extend(event, 1, 5)


def test_a_match_gets_one_and_a_bye_has_no_clock(client, db):
    event = scenes.round_paired(name="Modern", players=5, swiss_rounds=3).event
    round_ = Round.objects.get(tournament=event, number=1)
    bye = Table.objects.get(round=round_, number=3)
    assert bye.seats.count() == 1
    with pytest.raises(TournamentError, match="Table 3 is a bye"):
        table_extension_set(round_=round_, number=3, minutes=5)
    table_extension_set(round_=round_, number=1, minutes=2)
    page = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert 'Table 1 <span class="extension" title="Time extension">+2 min</span>' in page
    assert "Table 2 <span" not in page


def test_the_console_sets_it_and_every_page_shows_it(client, event):
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    url = reverse("round_extension", args=[event.slug, 1])
    pairings = client.get(reverse("event_detail", args=[event.slug]))
    projector = client.get(reverse("event_projector", args=[event.slug]))
    console = client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert f'action="{url}#round-clock"' in console and "Time extensions" in console
    done = client.post(url, {"table": "2", "minutes": "4"}, follow=True).content.decode()
    assert "Pod 2 now has 4 extra minutes." in done
    ends = timezone.localtime(round_1(event).ends_at + timedelta(minutes=4))
    clock = re.search(r'<div id="round-clock".*?</div>', done, re.S)[0]
    assert "Pod 2 <strong>+4 min</strong> · time is up at" in clock
    assert f">{ends:%H:%M}</time>" in clock
    card = re.search(rf'<article [^>]*id="table-{table(event, 2).pk}".*?</header>', done, re.S)[0]
    assert '<span class="tag extension" title="Time extension">+4 min</span>' in card
    again = client.post(url, {"table": "2", "minutes": "4"}, follow=True).content.decode()
    assert "Pod 2 already has 4 extra minutes. Nothing was changed again." in again
    assert AuditEntry.objects.filter(action="table.extension").count() == 1
    # The public pages' cached copies were dropped: they show it to everyone.
    page = client.get(
        reverse("event_detail", args=[event.slug]), HTTP_IF_NONE_MATCH=pairings.get("ETag", "")
    )
    assert page.status_code == 200
    pod_2 = re.search(r'<li class="pairing pod" id="pod-2">.*?</li>', page.content.decode(), re.S)
    assert '<span class="extension" title="Time extension">+4 min</span>' in pod_2[0]
    wall = client.get(
        reverse("event_projector", args=[event.slug]),
        HTTP_IF_NONE_MATCH=projector.get("ETag", ""),
    )
    assert "Time extensions: pod 2 +4 min" in wall.content.decode()


def test_the_tables_players_see_their_extended_time(client, event):
    from tournaments.selectors.reports import walk_in_token

    def own_page(entry):  # the player's own page, by the link the TO hands over
        return reverse("my_event_link", args=[event.slug, walk_in_token(entry)])

    mine = own_page(table(event, 2).seats.order_by("position")[0].entry)
    theirs = own_page(table(event, 1).seats.order_by("position")[0].entry)
    before = client.get(mine)
    extend(event, 2, 6)
    page = client.get(mine, HTTP_IF_NONE_MATCH=before.get("ETag", "")).content.decode()
    ends = timezone.localtime(round_1(event).ends_at + timedelta(minutes=6))
    assert "Time is up at <strong><time" in page
    assert f'>{ends:%H:%M}</time></strong> <span class="muted">UTC</span>: a judge gave' in page
    assert "a judge gave your pod 6 extra minutes" in page
    other = client.get(theirs).content.decode()
    assert "extra minute" not in other


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"table": "2", "minutes": "five"}, "whole number of minutes"),
        ({"table": "two", "minutes": "5"}, "Give the pod&#x27;s number."),
        ({"table": "2", "minutes": "45"}, "0 to 30 minutes"),
    ],
)
def test_the_console_refuses_bad_input_and_changes_nothing(client, event, data, message):
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    response = client.post(reverse("round_extension", args=[event.slug, 1]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Table.objects.filter(extra_minutes__gt=0).exists()


def test_an_extension_comes_to_another_judges_console_by_its_poll(client, event):
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    from .test_console_live import Console

    console = Console(client, event)
    extend(event, 1, 5)
    text = console.poll().content.decode()
    assert '<span class="tag extension" title="Time extension">+5 min</span>' in text
    assert "Pod 1 <strong>+5 min</strong>" in text
    assert "The rounds changed" not in text
    # Its result in, the table leaves the list beside the clock (its card keeps the tag).
    pod = table(event, 1)
    table_report(table=pod, winner=pod.seats.order_by("position")[0].entry)
    text = console.poll().content.decode()
    clock = re.search(r'<div id="round-clock".*?</div>', text, re.S)[0]
    assert "Time extensions</summary>" in clock
    assert "<strong>+5 min</strong>" not in clock and 'class="extension-list"' not in clock
