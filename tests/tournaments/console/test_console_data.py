"""The TO console's machine-readable face: `data-*` attributes a script reads instead of markup.

Each table or pod card carries `data-table-id`, `data-table-number`, `data-version` (the version
the report's 409 check compares), `data-reported` ("1"/"0") and `data-state` (a fingerprint of
what the card shows, which the console's live script compares); the cards' container carries the
round's number, kind and status. `bench/load.py` reads these with `html.parser`, so a template
change that drops one fails here rather than in a bench run.
"""

from html.parser import HTMLParser

import pytest
from django.urls import reverse

from leagues.models import Role
from tests.factories import TournamentFactory, organizer_of
from tests.tournaments.play import register
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


class DataAttributes(HTMLParser):
    """Every element's `data-*` attributes, in document order, as (tag, {name: value})."""

    def __init__(self, text: str):
        super().__init__()
        self.found: list[tuple[str, dict[str, str]]] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        data = {k: v for k, v in attrs if k.startswith("data-")}
        if data:
            self.found.append((tag, data))

    def cards(self) -> list[dict[str, str]]:
        """The cards' attributes but `data-state` (checked by `states`)."""
        return [
            {k: v for k, v in d.items() if k != "data-state"}
            for tag, d in self.found
            if tag == "article" and "data-table-id" in d
        ]

    def states(self) -> list[str]:
        return [
            d["data-state"] for tag, d in self.found if tag == "article" and "data-table-id" in d
        ]

    def round(self) -> dict[str, str]:
        return next(d for tag, d in self.found if "data-round" in d)


@pytest.fixture
def judge_client(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


def test_pod_cards_carry_id_number_version_and_reported(judge_client, league):
    event = tournament_create(league=league, name="cEDH Night", format="pods")
    register(event, *(f"P{n}" for n in range(1, 9)))
    round_ = round_pair(tournament=event)
    first = round_.tables.get(number=1)
    seats = list(first.seats.order_by("position"))
    table_report(table=first, winner=seats[0].entry)

    page = DataAttributes(
        judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    )
    assert page.round() == {
        "data-round": "1",
        "data-round-kind": "swiss",
        "data-round-status": "playing",
    }
    expected = [
        {
            "data-table-id": str(table.pk),
            "data-table-number": str(table.number),
            "data-version": str(table.version),
            "data-reported": "1" if table.reported else "0",
        }
        for table in round_.tables.order_by("number")
    ]
    assert page.cards() == expected
    states = page.states()
    assert all(len(state) == 12 and int(state, 16) >= 0 for state in states)
    assert states[0] != states[1]  # a reported table and an open one show different things
    assert [c["data-reported"] for c in expected] == ["1", "0"]
    assert expected[0]["data-version"] == "1"


def test_the_htmx_fragment_after_a_report_carries_the_new_version(judge_client, league):
    event = tournament_create(league=league, name="cEDH Night", format="pods")
    register(event, *(f"P{n}" for n in range(1, 9)))
    table = round_pair(tournament=event).tables.get(number=2)
    winner = table.seats.order_by("position").first().entry_id
    url = reverse("table_report", args=[event.slug, table.pk])

    response = judge_client.post(url, {"winner": winner, "version": 0}, **HTMX)
    assert response.status_code == 200
    assert DataAttributes(response.content.decode()).cards() == [
        {
            "data-table-id": str(table.pk),
            "data-table-number": "2",
            "data-version": "1",
            "data-reported": "1",
        }
    ]
    stale = judge_client.post(url, {"result": "draw", "version": 0}, **HTMX)
    assert stale.status_code == 409
    assert DataAttributes(stale.content.decode()).cards()[0]["data-version"] == "1"


def test_match_cards_carry_the_same_attributes(judge_client, league):
    event = TournamentFactory(league=league, slug="swiss")
    register(event, *"ABCD")
    round_ = round_pair(tournament=event)
    page = DataAttributes(
        judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    )
    assert [c["data-table-number"] for c in page.cards()] == ["1", "2"]
    assert {c["data-version"] for c in page.cards()} == {"0"}
    assert {c["data-reported"] for c in page.cards()} == {"0"}
    assert {c["data-table-id"] for c in page.cards()} == {str(t.pk) for t in round_.tables.all()}

    # The round page (corrections of a past round) uses the same card.
    url = reverse("round_run", args=[event.slug, 1])
    assert len(DataAttributes(judge_client.get(url).content.decode()).cards()) == 2


def test_the_load_bench_reads_pods_seats_and_the_round_from_the_console(judge_client, league):
    from bench.loadlib.pages import read_console, read_standings

    event = tournament_create(league=league, name="cEDH Night", format="pods")
    register(event, *(f"P{n}" for n in range(1, 9)))
    round_ = round_pair(tournament=event)
    url = reverse("event_run", args=[event.slug])

    console = read_console(judge_client.get(url).content.decode())
    assert (console.round, console.status, console.all_reported) == (1, "playing", False)
    tables = list(round_.tables.order_by("number"))
    assert [(p.table_id, p.number, p.round, p.version, p.reported) for p in console.pods] == [
        (t.pk, t.number, 1, 0, False) for t in tables
    ]
    assert [p.seats for p in console.pods] == [
        list(t.seats.order_by("position").values_list("entry_id", flat=True)) for t in tables
    ]

    for table in tables:
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    console = read_console(judge_client.get(url).content.decode())
    assert console.all_reported and {p.version for p in console.pods} == {1}
    assert all(p.reported for p in console.pods)

    standings = judge_client.get(reverse("event_standings", args=[event.slug]))
    rows = read_standings(standings.content.decode())
    assert len(rows) == 8 and [r.rank for r in rows][:2] == [1, 1] and rows[0].tied
    assert {r.player for r in rows} == set(event.entries.values_list("player_id", flat=True))
