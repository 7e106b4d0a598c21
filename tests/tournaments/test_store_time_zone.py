"""Every time of a store's event is the store's (issue 43): a store in New York, Tokyo or
Auckland sees its round's time up, its judge calls and its paper pack in its own zone, in
24-hour HH:MM, labelled with the zone where a reader elsewhere could misread it; the pages
whose clocks a script draws carry the zone for it. The site's zone here is UTC, so a page
that forgot the store's zone shows 22:15."""

import datetime
import re
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from judging.models import JudgeCall
from judging.services.calls import call_create
from leagues.models import Role
from tests import scenes
from tests.factories import organizer_of
from tournaments.errors import AlreadyDone
from tournaments.models import Round, Table
from tournaments.selectors.reports import walk_in_token
from tournaments.services.clock import round_clock_set

pytestmark = pytest.mark.django_db

# 22:15 UTC on a December night: 17:15 in New York (UTC-5), 07:15 the next morning in Tokyo
# (UTC+9), 11:15 the next morning in Auckland (summer time, UTC+13).
ENDS = datetime.datetime(2026, 12, 1, 22, 15, tzinfo=datetime.UTC)
ZONES = [
    ("America/New_York", "17:15", "New York time"),
    ("Asia/Tokyo", "07:15", "Tokyo time"),
    ("Pacific/Auckland", "11:15", "Auckland time"),
]


@pytest.fixture(params=ZONES, ids=[z for z, _, _ in ZONES])
def night(request, settings):
    settings.TIME_ZONE = "UTC"
    zone, shown, label = request.param
    league = scenes.store(time_zone=zone, organizer=None).league
    event = scenes.pods_round_in_play(league=league, round_minutes=80).event
    Round.objects.filter(tournament=event).update(ends_at=ENDS)
    return event, shown, label


def judge(client, event):
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))


def test_the_console_shows_time_up_in_the_stores_zone(client, night):
    event, shown, _ = night
    judge(client, event)
    page = client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert re.search(rf"time is up at <strong><time datetime=\"[^\"]+\">{shown}</time>", page)
    assert re.search(rf"Time is up at <strong><time datetime=\"[^\"]+\">{shown}</time>", page)
    assert "22:15" not in page


def test_a_players_seat_shows_time_up_in_the_stores_zone_with_its_name(client, night):
    event, shown, label = night
    entry = Table.objects.get(round__tournament=event, number=1).seats.first().entry
    page = client.get(reverse("my_event_link", args=[event.slug, walk_in_token(entry)]))
    text = page.content.decode()
    assert re.search(rf"Time is up at <strong><time datetime=\"[^\"]+\">{shown}</time>", text)
    assert label in text
    assert "22:15" not in text


def test_the_pairings_page_shows_the_rounds_end_in_the_stores_zone(client, night):
    event, shown, label = night
    page = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert f"ends {shown} {label}" in " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "22:15" not in page


def test_the_paper_pack_prints_the_stores_times_with_its_zone(client, night):
    event, shown, label = night
    judge(client, event)
    page = client.get(reverse("paper_pack", args=[event.slug])).content.decode()
    words = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert f"time is up at {shown} ({label})" in words
    assert f"Time is up at {shown}" in words  # each slip
    assert "22:15" not in page


def test_the_judge_desk_shows_when_a_call_came_in_the_stores_zone(client, night):
    event, shown, _ = night
    table = Table.objects.get(round__tournament=event, number=1)
    call_create(table=table, entry=table.seats.first().entry, reason="dispute")
    JudgeCall.objects.update(called_at=ENDS)
    judge(client, event)
    page = client.get(reverse("judge_desk", args=[event.slug])).content.decode()
    assert f">{shown}:00</time>" in page
    assert "22:15" not in page


def test_the_pages_a_script_draws_clocks_on_carry_the_stores_zone(client, night):
    event, _, _ = night
    zone = event.league.organization.time_zone
    judge(client, event)
    pairing = client.get(reverse("offline_pair", args=[event.slug])).content.decode()
    assert f'data-time-zone="{zone}"' in pairing.split('id="offline-pair"', 1)[1].split(">")[0]
    console = client.get(reverse("event_run", args=[event.slug])).content.decode()
    banner = console.split('id="offline-banner"', 1)[1].split(">", 1)[0]
    assert f'data-time-zone="{zone}"' in banner


def test_a_clock_refusal_says_the_stores_time(night):
    event, _, _ = night
    round_ = Round.objects.get(tournament=event)
    soon = (timezone.now() + datetime.timedelta(hours=1)).replace(second=0, microsecond=0)
    Round.objects.filter(pk=round_.pk).update(ends_at=soon)
    with pytest.raises(AlreadyDone) as refused:  # the console showed the clock of before
        round_clock_set(round_=round_, minutes=5, expected=int(soon.timestamp()) - 60)
    local = soon.astimezone(ZoneInfo(event.league.organization.time_zone))
    assert f"time is up at {local:%H:%M}" in str(refused.value)


def test_the_site_zone_is_back_after_a_stores_page(client, night):
    event, _, _ = night
    client.get(reverse("event_detail", args=[event.slug]))
    assert timezone.get_current_timezone_name() == "UTC"


def test_the_stores_history_dates_the_nights_changes_in_its_zone(client, night):
    event, shown, _ = night
    organization = event.league.organization
    round_clock_set(round_=Round.objects.get(tournament=event), minutes=5)
    AuditEntry.objects.filter(action="round.clock").update(created_at=ENDS)
    client.force_login(organizer_of(organization, role=Role.OWNER))
    page = client.get(reverse("audit_log", args=[organization.slug])).content.decode()
    day = ENDS.astimezone(ZoneInfo(organization.time_zone)).date()  # the next day east of UTC
    assert f"{day:%Y-%m-%d} {shown}" in page
    assert "22:15" not in page
