"""The paper pack (console/views/paper.py): the current round's sheets for when the Wi-Fi
fails, each section checked against the rows stored, for a 17-player pod event (pods of 4 and
of 3), a 9-player 1v1 event (a bye) and the round after a drop; times with a table's
extension; only those who run the event see them."""

import datetime
import html
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Role
from tests import scenes
from tests.factories import LeagueFactory, UserFactory, organizer_of
from tournaments.models import Round
from tournaments.services.clock import table_extension_set
from tournaments.services.entries import entry_drop
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

pytestmark = pytest.mark.django_db

# Seventeen players: pods of 4, 4, 3, 3, 3 (17 = 2 x 4 + 3 x 3, the only way with no bye).
# Their last names run Z to A against their first names; one accented, one single word.
POD_NAMES = [
    "Ann Zimmer", "Bob Young", "Cy Xu", "Dee Walker", "Eve Vance", "Finn Ulm", "Gus Tate",
    "Hal Stone", "Ivy Reed", "Jo Quinn", "Kim Park", "Lou Ortiz", "Max Novak", "Ned Moss",
    "Oda Lund", "Émile Åberg", "Cher",
]  # fmt: skip
# The wall's order, by hand: by last word, "Åberg" as "Aberg", "Cher" its own last name.
WALL_ORDER = [
    "Åberg, Émile", "Cher", "Lund, Oda", "Moss, Ned", "Novak, Max", "Ortiz, Lou", "Park, Kim",
    "Quinn, Jo", "Reed, Ivy", "Stone, Hal", "Tate, Gus", "Ulm, Finn", "Vance, Eve",
    "Walker, Dee", "Xu, Cy", "Young, Bob", "Zimmer, Ann",
]  # fmt: skip
MATCH_NAMES = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov",
               "Donald Knuth", "Ken Thompson", "Dennis Ritchie", "John Backus"]  # fmt: skip


def text(fragment: str) -> str:
    """A fragment's words as a reader sees them: tags gone, entities read, spaces collapsed."""
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())
    return words.replace(" ,", ",")


def section(page: str, name: str) -> str:
    found = re.search(rf'<section class="sheet sheet-{name}".*?</section>', page, re.S)
    assert found, f"no {name} sheet"
    return found[0]


def slips(page: str) -> list[str]:
    """Each slip's text, in order."""
    return [
        text(s) for s in re.findall(r'<div class="slip">.*?</div>', section(page, "slips"), re.S)
    ]


def seated(round_: Round) -> list[tuple[int, list[str]]]:
    """(number, names in seat order) of the round's tables with two seats or more, as stored."""
    out = []
    for table in round_.tables.order_by("number"):
        names = [s.entry.player.name for s in table.seats.order_by("position")]
        if len(names) > 1:
            out.append((table.number, names))
    return out


def at(hour: int, minute: int) -> datetime.datetime:
    """Today at hour:minute in the site's time zone."""
    today = timezone.localdate()
    return timezone.make_aware(datetime.datetime.combine(today, datetime.time(hour, minute)))


@pytest.fixture
def pods(db):
    league = LeagueFactory(name="Friday Commander")
    scene = scenes.pods_round_in_play(league=league, name="Pod Night", players=POD_NAMES)
    Round.objects.filter(pk=scene.round.pk).update(ends_at=at(20, 50))
    return scene.event


@pytest.fixture
def matches(db):
    league = LeagueFactory(name="Friday Modern")
    scene = scenes.round_paired(
        league=league, name="Modern Open", players=MATCH_NAMES, swiss_rounds=3
    )
    return scene.event


def get(client, event, name: str = "paper_pack") -> str:
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    response = client.get(reverse(name, args=[event.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_a_pod_events_pairings_list_every_pod_in_seat_order(client, pods):
    round_ = pods.rounds.get()
    stored = seated(round_)
    assert sorted(len(names) for _, names in stored) == [3, 3, 3, 4, 4]
    sheet = text(section(get(client, pods), "pairings"))
    assert sheet.startswith("Pairings · Round 1 Pod Night")
    assert "time is up at 20:50" in sheet
    assert "Seats in turn order: seat 1 goes first." in sheet
    rows = " ".join(
        f"{number} " + " ".join(f"{seat} {name}" for seat, name in enumerate(names, 1))
        for number, names in stored
    )
    assert f"Pod Players {rows}" in sheet
    assert "Bye" not in sheet and "Time is up" not in sheet  # no extension, no column


def test_the_wall_lists_everyone_by_last_name_with_their_pod_and_seat(client, pods):
    where = {
        name: (number, seat)
        for number, names in seated(pods.rounds.get())
        for seat, name in enumerate(names, 1)
    }
    page = get(client, pods, "paper_seats")
    sheet = section(page, "seats")
    assert "By last name: the last word of each name, printed first." in text(sheet)
    rows = [text(r) for r in re.findall(r'<li class="wall-row">.*?</li>', sheet, re.S)]
    names = [r.split(" pod ")[0] for r in rows]
    assert names == WALL_ORDER
    for row, name in zip(rows, typed_in_wall_order(), strict=True):
        number, seat = where[name]
        assert row.endswith(f"pod {number} · seat {seat}")
    letters = re.findall(r'<li class="wall-letter">(.*?)</li>', sheet)
    assert letters == ["A", "C", *"LMNOPQRSTUVWXYZ"]
    assert "sheet-pairings" not in page  # one sheet alone


def typed_in_wall_order() -> list[str]:
    """The names of WALL_ORDER as typed."""
    back = {f"{n.split()[-1]}, {' '.join(n.split()[:-1])}": n for n in POD_NAMES}
    return [back.get(row, row) for row in WALL_ORDER]


def test_a_pod_slip_has_its_players_places_draw_signatures_and_time(client, pods):
    stored = seated(pods.rounds.get())
    found = slips(get(client, pods, "paper_slips"))
    assert len(found) == 5
    for slip, (number, names) in zip(found, stored, strict=True):
        places = " ".join(["1st", "2nd", "3rd", "4th"][: len(names)])
        assert slip.startswith(f"Pod {number} Round 1 · Pod Night Time is up at 20:50")
        assert f"Seat Player {places} Signature" in slip
        assert " ".join(f"{seat} {name}" for seat, name in enumerate(names, 1)) in slip
        assert "Draw: everyone shares first" in slip
        header = slip.split(" Signature")[0]
        assert ("4th" in header) == (len(names) == 4)
        assert "5th" not in header


def test_a_table_with_an_extension_shows_its_later_time(client, pods):
    table_extension_set(round_=pods.rounds.get(), number=2, minutes=10)
    page = get(client, pods)
    found = slips(page)
    assert "Time is up at 21:00 +10 min" in found[1]
    assert all("Time is up at 20:50 Seat" in s for i, s in enumerate(found) if i != 1)
    pairings = text(section(page, "pairings"))
    assert "Time is up" in pairings
    # Pod 2's first seat (a name of one word or more: "Cher" may sit there), its second seat,
    # then its later time, before pod 3's first seat.
    assert re.search(r"\b2 1(?: \S+)+? 2 .* 21:00 \+10 min 3 1", pairings)
    # The missing results give each pod's time too.
    assert "21:00 +10 min" in text(section(page, "standings"))


def test_the_standings_sheet_lists_missing_pods_then_the_standings_page_s_rows(client, pods):
    round_ = pods.rounds.get()
    first, second, *rest = round_.tables.order_by("number")
    for table in (first, second):
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    page = get(client, pods, "paper_standings")
    sheet = text(section(page, "standings"))
    missing = [number for number, _ in seated(round_)][2:]
    assert "Still missing a result: 3 pods" in sheet
    for table in rest:
        names = [s.entry.player.name for s in table.seats.order_by("position")]
        row = f"{table.number} " + " ".join(f"{n} {name}" for n, name in enumerate(names, 1))
        assert f"{row} 20:50" in sheet
    assert [t.number for t in rest] == missing
    # The standings page's own columns and order.
    public = client.get(reverse("event_standings", args=[pods.slug])).content.decode()
    head = re.search(r"<thead>(.*?)</thead>", public, re.S)[1]
    columns = text(head)
    assert f"# Player Points W-L-D {columns.split('W-L-D ')[1]}" in sheet
    order = [text(n) for n in re.findall(r'<td class="name"><a [^>]*>(.*?)</a>', public)]
    printed = re.findall(
        r"<tr[^>]*><td class=\"num\">\d+=?</td><td class=\"name\">(.*?)(?: <span|</td>)",
        section(page, "standings"),
    )
    assert printed == order and len(order) == 17
    winners = {t.seats.order_by("position")[0].entry.player.name for t in (first, second)}
    assert set(printed[:2]) == winners


def test_every_pod_reported_says_so(client, pods):
    for table in pods.rounds.get().tables.all():
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    sheet = text(section(get(client, pods), "standings"))
    assert "Round 1: every pod has a result." in sheet
    assert "Still missing" not in sheet


def test_a_1v1_event_with_a_bye_prints_matches_and_no_slip_for_the_bye(client, matches):
    round_ = matches.rounds.get()
    stored = seated(round_)
    bye = next(t for t in round_.tables.all() if t.seats.count() == 1).seats.get()
    bye_name = bye.entry.player.name
    assert len(stored) == 4
    page = get(client, matches)
    pairings = text(section(page, "pairings"))
    rows = " ".join(f"{number} {a} vs {b}" for number, (a, b) in stored)
    assert f"Table Players {rows} Bye {bye_name}" in pairings
    found = slips(page)
    assert len(found) == 4
    for slip, (number, (a, b)) in zip(found, stored, strict=True):
        assert slip.startswith(f"Table {number} Round 1 · Modern Open Time is up at")
        assert f"Player Games won Signature {a} {b} Drawn games" in slip
        assert "Seat" not in slip and "1st" not in slip
    assert all(bye_name not in slip for slip in found)
    assert "Byes need no slip." in text(section(page, "slips"))
    wall = text(section(page, "seats"))
    last, *rest = reversed(bye_name.split())
    assert f"{last}, {' '.join(reversed(rest))} bye" in wall
    assert "seat" not in wall.replace("Find your seat", "")  # a match has no seat order


def test_a_dropped_player_is_not_on_the_next_rounds_sheets(client, matches):
    round_ = matches.rounds.get()
    scenes.tables_reported(round_)
    round_end(round_=round_)
    gone = matches.entries.get(player__name="Ken Thompson")
    entry_drop(entry=gone)
    round_pair(tournament=matches)
    page = get(client, matches)
    for name in ("pairings", "seats", "slips"):
        sheet = text(section(page, name))
        assert "Round 2" in sheet
        assert "Ken Thompson" not in sheet and "Thompson, Ken" not in sheet, name
    assert len(slips(page)) == 4  # eight players left: four matches, no bye
    standings = text(section(page, "standings"))
    assert "Ken Thompson dropped" in standings


def test_before_round_1_there_is_nothing_to_print_yet(client, db):
    event = tournament_create(league=LeagueFactory(), name="Soon", format="pods")
    page = get(client, event)
    assert "No round is paired yet: the sheets come with round 1." in page
    assert '<section class="sheet' not in page


def test_the_console_links_each_sheet(client, pods):
    page = get(client, pods, "event_run")
    for name in ("paper_pack", "paper_pairings", "paper_seats", "paper_slips", "paper_standings"):
        assert f'href="{reverse(name, args=[pods.slug])}"' in page


def test_only_those_who_run_the_event_see_the_pack(client, pods):
    url = reverse("paper_slips", args=[pods.slug])
    assert client.get(url).status_code == 302  # to the log-in page
    other_store = LeagueFactory().organization
    client.force_login(organizer_of(other_store))
    assert client.get(url).status_code == 403
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
