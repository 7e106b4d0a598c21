"""The round's clock from the console: started again when the players are seated, given or
taken five minutes; a double tap moves it once; the pages that show it follow; a bad value or
a round not being played is refused with the reason and changes nothing."""

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
from tournaments.models import Round
from tournaments.services.clock import round_clock_set
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(db):
    return scenes.pods_round_in_play(round_minutes=80).event


def round_1(event) -> Round:
    return Round.objects.get(tournament=event, number=1)


def stamp(round_: Round) -> int:
    return int(round_.ends_at.timestamp())


def test_start_again_gives_the_round_its_length_from_now(event):
    paired = round_1(event)
    paired.ends_at = timezone.now() - timedelta(minutes=7)  # paired a while ago
    paired.save()
    before = timezone.now()
    started = round_clock_set(round_=paired, start=True, expected=stamp(paired))
    assert (
        before + timedelta(minutes=79) < started.ends_at <= timezone.now() + timedelta(minutes=80)
    )
    entry = AuditEntry.objects.get(action="round.clock")
    assert "round 1: clock started again, time is up at" in entry.summary


@pytest.mark.parametrize("minutes", [5, -5, 60, -60])
def test_minutes_given_or_taken_move_the_time_it_runs_out(event, minutes):
    round_ = round_1(event)
    was = round_.ends_at.replace(microsecond=0)
    moved = round_clock_set(round_=round_, minutes=minutes, expected=stamp(round_))
    assert moved.ends_at.replace(microsecond=0) == was + timedelta(minutes=minutes)


def test_a_double_tap_moves_the_clock_once(event):
    round_ = round_1(event)
    shown = stamp(round_)
    first = round_clock_set(round_=round_, minutes=5, expected=shown)
    with pytest.raises(AlreadyDone, match="tapped twice"):
        round_clock_set(round_=round_, minutes=5, expected=shown)
    assert round_1(event).ends_at == first.ends_at
    assert AuditEntry.objects.filter(action="round.clock").count() == 1


@pytest.mark.parametrize(
    ("minutes", "message"),
    [(0, "between 1 and 60"), (61, "between 1 and 60"), (-90, "between 1 and 60")],
)
def test_a_bad_number_of_minutes_is_refused(event, minutes, message):
    round_ = round_1(event)
    with pytest.raises(TournamentError, match=message):
        round_clock_set(round_=round_, minutes=minutes, expected=stamp(round_))
    assert round_1(event).ends_at == round_.ends_at


def test_the_clock_never_runs_out_more_than_four_hours_ahead(event):
    round_ = round_1(event)
    for _ in range(3):  # 80 min, then +60 three times = 4 h 20
        try:
            round_ = round_clock_set(round_=round_, minutes=60, expected=stamp(round_))
        except TournamentError as error:
            assert "at most 4 hours from now" in str(error)
            break
    else:
        pytest.fail("the clock went past four hours ahead")


def test_time_taken_never_puts_the_clock_before_now(event):
    """A red-team find: "-5 min" fifteen times put time up 15 minutes before the round began,
    and the players' pages said so. Time may be called early, down to now, not in the past."""
    round_ = round_1(event)
    round_.ends_at = timezone.now() + timedelta(minutes=7)
    round_.save()
    round_ = round_clock_set(round_=round_, minutes=-5, expected=stamp(round_))  # 2 min left
    with pytest.raises(
        TournamentError, match=r"^Taking 5 minutes would have time up at .*before now"
    ):
        round_clock_set(round_=round_, minutes=-5, expected=stamp(round_))
    assert round_1(event).ends_at == round_.ends_at
    assert AuditEntry.objects.filter(action="round.clock").count() == 1
    # Time already up: more time is still given.
    round_.ends_at = timezone.now() - timedelta(minutes=3)
    round_.save()
    moved = round_clock_set(round_=round_, minutes=5, expected=stamp(round_))
    assert moved.ends_at > timezone.now()


def test_a_round_not_being_played_has_no_clock(event):
    round_ = round_1(event)
    for table in round_.tables.all():
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    round_end(round_=round_)
    with pytest.raises(TournamentError, match="not being played"):
        round_clock_set(round_=round_, minutes=5)


def test_the_console_moves_the_clock_and_the_pages_show_it(client, event):
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    console = client.get(reverse("event_run", args=[event.slug])).content.decode()
    clock = re.search(r'<div id="round-clock".*?</div>', console, re.S)[0]
    shown = stamp(round_1(event))
    assert f'name="expected" value="{shown}"' in clock
    assert "Start the clock now (80 min)" in clock and "+5 min" in clock
    url = reverse("round_clock", args=[event.slug, 1])
    pairings = client.get(reverse("event_detail", args=[event.slug]))
    data = {"minutes": "5", "expected": str(shown)}
    done = client.post(url, data, follow=True).content.decode()
    later = timezone.localtime(round_1(event).ends_at)
    assert f"Time is up at {later:%H:%M}." in done
    again = client.post(url, data, follow=True).content.decode()  # the double tap
    assert "tapped twice" in again
    assert round_1(event).ends_at.replace(microsecond=0) == later.replace(microsecond=0)
    # The public pairings page shows the new time (its cached copy was dropped).
    page = client.get(
        reverse("event_detail", args=[event.slug]),
        HTTP_IF_NONE_MATCH=pairings.get("ETag", ""),
    )
    assert page.status_code == 200 and f"ends {later:%H:%M}" in page.content.decode()


def test_the_console_refuses_a_bad_value_and_changes_nothing(client, event):
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    url = reverse("round_clock", args=[event.slug, 1])
    was = round_1(event).ends_at
    response = client.post(url, {"minutes": "five", "expected": "0"})
    assert response.status_code == 400
    assert "Give or take a whole number of minutes." in response.content.decode()
    assert round_1(event).ends_at == was


def test_the_clock_comes_to_another_judges_console_by_its_poll(client, event):
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    from .test_console_live import Console

    console = Console(client, event)
    round_ = round_1(event)
    moved = round_clock_set(round_=round_, minutes=-5, expected=stamp(round_))
    text = console.poll().content.decode()
    assert '<div id="round-clock" class="round-clock" hx-swap-oob="true">' in text
    assert f'name="expected" value="{stamp(moved)}"' in text
    assert "The rounds changed" not in text
