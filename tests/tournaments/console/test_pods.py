"""Pod event pages: the TO's pod cards on a phone (htmx), and what players see."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from leagues.models import Role
from tests.factories import LeagueFactory, UserFactory, organizer_of
from tests.tournaments.play import play_round, register
from tournaments.domain.standings import TIEBREAKERS
from tournaments.models import Table, Tournament
from tournaments.selectors import suggested_structure
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def event(league):
    return tournament_create(league=league, name="cEDH Night", format="pods")


@pytest.fixture
def judge_client(client, league):
    client.force_login(organizer_of(league.organization, role=Role.JUDGE, username="jude"))
    return client


def started(event, count=8):
    register(event, *(f"P{n}" for n in range(1, count + 1)))
    return round_pair(tournament=event)


def seats_of(table):
    return list(table.seats.select_related("entry__player").order_by("position"))


def report_url(event, table):
    return reverse("table_report", args=[event.slug, table.pk])


def test_creating_a_pod_event(judge_client, league):
    url = reverse("event_create", args=[league.slug])
    form = judge_client.get(url).content.decode()
    assert "Pods of 3-5" in form and "cEDH pods: win 5" in form and "Pod layout" in form
    data = {
        "name": "cEDH 1K",
        "date": "2026-11-27",
        "format": "pods",
        "points": "",
        "pod_layout": "fives",
        "top_cut": "4",
        "first_round": "random",
        "round_minutes": "80",
    }
    response = judge_client.post(url, data)
    event = Tournament.objects.get(name="cEDH 1K")
    assert response.status_code == 302
    assert event.is_pods and event.pod_layout == "fives" and event.top_cut == 4
    assert float(event.points_win) == 5  # cEDH points by default for pods
    bad = judge_client.post(url, {**data, "name": "Top 8 pods", "top_cut": "8"})
    assert bad.status_code == 400 and "top 4 (one final pod) or the top 16" in bad.content.decode()
    assert not Tournament.objects.filter(name="Top 8 pods").exists()


def test_the_console_suggests_the_structure_while_registering(judge_client, event):
    register(event, *(f"P{n}" for n in range(13)))
    page = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    rounds, _ = suggested_structure(event, 13)
    assert f"13 players:</strong>\n  {rounds} Swiss round" in page
    public = judge_client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "suggested for the field" in public


def test_one_tap_on_a_name_records_the_winner_as_a_fragment(judge_client, event):
    round_ = started(event)
    table = round_.tables.get(number=1)
    seats = seats_of(table)
    console = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert console.count('class="match pod card') == 2
    assert f'name="winner" value="{seats[2].entry_id}"' in console
    assert "Pair them together" not in console  # 1v1 only
    response = judge_client.post(
        report_url(event, table), {"winner": seats[2].entry_id, "version": 0}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html and f'id="table-{table.pk}"' in html
    assert 'class="seat won"' in html and 'hx-swap-oob="true"' in html
    assert "Waiting for 1 pod: 2" in html
    table.refresh_from_db()
    assert table.winner_id == seats[2].entry_id and table.version == 1


def test_a_draw_and_a_full_order_from_the_card(judge_client, event):
    round_ = started(event)
    first, second = round_.tables.order_by("number")
    response = judge_client.post(report_url(event, first), {"result": "draw", "version": 0}, **HTMX)
    assert response.status_code == 200
    first.refresh_from_db()
    assert first.is_draw and first.reported
    seats = seats_of(second)
    order = {f"place-{s.entry_id}": str(p) for s, p in zip(seats, [2, 1, 4, 3], strict=True)}
    response = judge_client.post(
        report_url(event, second), {"result": "order", "version": 0, **order}, **HTMX
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Every pod has a result" in html
    assert '<details class="full-order" open>' in html and 'value="2" selected' in html
    assert [s.place for s in seats_of(second)] == [2, 1, 4, 3]


@pytest.mark.parametrize(
    ("post", "message"),
    [
        ({"result": "order", "places": [1, 1, 1, None]}, "Choose a place for"),
        ({"result": "order", "places": [1, 3, 3, 4]}, "must be a finishing order"),
        ({"winner": "999999"}, "Tap the name of a player at this pod"),
        ({"result": "2-0"}, "Tap the winner&#x27;s name"),
    ],
)
def test_bad_pod_reports_are_400_and_change_nothing(judge_client, event, post, message):
    table = started(event).tables.get(number=1)  # 8 players: two pods of 4
    data = {"version": 0, **{k: v for k, v in post.items() if k != "places"}}
    if "places" in post:
        for seat, place in zip(seats_of(table), post["places"], strict=True):
            data[f"place-{seat.entry_id}"] = "" if place is None else str(place)
    response = judge_client.post(report_url(event, table), data, **HTMX)
    assert response.status_code == 400
    assert message in response.content.decode()
    table.refresh_from_db()
    assert not table.reported and table.version == 0


def test_a_stale_pod_report_is_a_409_showing_the_current_result(judge_client, event):
    table = started(event).tables.get(number=1)
    seats = seats_of(table)
    url = report_url(event, table)
    first = judge_client.post(url, {"winner": seats[0].entry_id, "version": 0}, **HTMX)
    assert first.status_code == 200
    again = judge_client.post(url, {"winner": seats[0].entry_id, "version": 0}, **HTMX)
    assert again.status_code == 200  # a double tap
    stale = judge_client.post(url, {"result": "draw", "version": 0}, **HTMX)
    assert stale.status_code == 409
    html = stale.content.decode()
    assert f"Pod {table.number} already has a different result" in html
    assert f'name="winner" value="{seats[0].entry_id}" class="seat won"' in html
    assert 'name="version" value="1"' in html  # the card can now be changed on purpose
    table.refresh_from_db()
    assert table.winner == seats[0].entry and not table.is_draw and table.version == 1


def test_without_htmx_a_report_goes_back_to_the_console(judge_client, event):
    table = started(event).tables.get(number=1)
    response = judge_client.post(report_url(event, table), {"result": "draw", "version": 0})
    assert response.status_code == 302 and response.url == reverse("event_run", args=[event.slug])
    assert Table.objects.get(pk=table.pk).is_draw


def test_anonymous_and_outsiders_cannot_report(client, event):
    table = started(event).tables.get(number=1)
    url = report_url(event, table)
    data = {"result": "draw", "version": 0}
    response = client.post(url, data, **HTMX)
    assert response.status_code == 302 and "/login/" in response.url
    client.force_login(UserFactory())
    assert client.post(url, data, **HTMX).status_code == 403
    client.force_login(organizer_of(LeagueFactory().organization))
    assert client.post(url, data, **HTMX).status_code == 403
    assert not Table.objects.get(pk=table.pk).reported


def test_pairing_two_by_hand_is_refused_for_pods(judge_client, event):
    round_ = started(event)
    a, b = (t.seats.first().entry for t in round_.tables.all())
    url = reverse("round_edit", args=[event.slug, round_.number])
    response = judge_client.post(url, {"edit": "pair", "a": a.pk, "b": b.pk})
    assert response.status_code == 400 and "swap players between pods" in response.content.decode()
    response = judge_client.post(url, {"edit": "swap", "a": a.pk, "b": b.pk})
    assert response.status_code == 302
    assert round_.seats.get(entry=a).table.number == 2


def test_public_pages_show_pods_in_seat_order(client, event):
    round_ = started(event, 7)  # a pod of 4 and a pod of 3
    table = next(t for t in round_.tables.all() if t.seats.count() == 4)
    seats = seats_of(table)
    table_report(table=table, places={s.entry_id: n for n, s in enumerate(seats, 1)})
    page = client.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "Seats in turn order: seat 1 goes first" in page
    assert page.count('<li class="pairing pod') == 2
    names = [s.entry.player.name for s in seats]
    start = page.index(f'id="pod-{table.number}"')
    pod_html = page[start : page.index("</ol>", start)]
    assert [pod_html.index(n) for n in names] == sorted(pod_html.index(n) for n in names)
    assert "· 1st" in pod_html and "· 4th" in pod_html
    finder = page[page.index("Find my seat") :]
    assert '<th class="num">Seat</th>' in finder
    assert f'<td>{names[3]}</td><td class="num">{table.number}</td><td class="num">4</td>' in finder
    player = client.get(reverse("event_player", args=[event.slug, seats[1].entry.player_id]))
    html = player.content.decode()
    assert "<th>With</th>" in html and "loss · 2nd" in html
    assert ", ".join([names[0], names[2], names[3]]) in html
    standings = client.get(reverse("event_standings", args=[event.slug])).content.decode()
    labels = [TIEBREAKERS[m].label for m in event.tiebreakers if m != "points"]
    assert labels and all(f'<th class="num">{label}</th>' in standings for label in labels)
    projector = client.get(reverse("event_projector", args=[event.slug])).content.decode()
    assert f"<small>pod</small> {table.number} <small>· seat 4</small>" in projector


def test_the_bracket_shows_each_stages_pods_and_the_champion(client, judge_client, league):
    event = tournament_create(league=league, name="Cut", format="pods", swiss_rounds=1, top_cut=16)
    url = reverse("event_bracket", args=[event.slug])
    register(event, *(f"P{n:02}" for n in range(16)))
    assert "four semi-final pods" in client.get(url).content.decode()
    round_ = round_pair(tournament=event)
    for table in round_.tables.all():
        table_report(table=table, winner=table.seats.get(position=1).entry)
    round_end(round_=round_)
    console = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "Start the top 16" in console
    assert judge_client.post(reverse("top_cut_start", args=[event.slug])).status_code == 302
    semis = event.rounds.get(number=2)
    tables = list(semis.tables.order_by("number"))
    table_report(table=tables[0], draw=True)
    for table in tables[1:]:
        table_report(table=table, winner=table.seats.get(position=2).entry)
    console = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "<h2>Semi-finals" in console and "A draw sends the pod's best seed on" in console
    round_end(round_=semis)
    html = client.get(url).content.decode()
    assert "<h2>Semi-finals</h2>" in html and "<h2>Final</h2>" in html
    assert html.count('class="bracket-match pod-stage"') == 5
    assert html.count('class="slot won"') == 4  # who went on from each semi-final pod
    assert html.count('<span class="tag success">won</span>') == 3  # the drawn pod says "draw"
    assert '<span class="seed">1</span> ' in html and '<span class="tag">draw</span>' in html
    assert "Champion" not in html
    final = event.rounds.get(number=3).tables.get()
    champion = final.seats.get(position=4).entry
    table_report(table=final, winner=champion)
    round_end(round_=event.rounds.get(number=3))
    html = client.get(url).content.decode()
    assert f"Champion: <strong>{champion.player.name}</strong>" in html


def test_the_full_order_form_is_fetched_when_the_to_opens_it(judge_client, event):
    round_ = started(event)
    first = round_.tables.order_by("number").first()
    console = judge_client.get(reverse("event_run", args=[event.slug])).content.decode()
    order_url = reverse("table_order", args=[event.slug, first.pk])
    # The console carries a link per pod, not its selects.
    assert f'hx-get="{order_url}"' in console and f'href="{order_url}"' in console
    assert f'name="place-{seats_of(first)[0].entry_id}"' not in console

    fragment = judge_client.get(order_url, **HTMX)
    html = fragment.content.decode()
    assert fragment.status_code == 200 and "<html" not in html
    for seat in seats_of(first):
        assert f'name="place-{seat.entry_id}"' in html
    assert f'hx-target="#table-{first.pk}"' in html and "Save the order" in html
    # Without JavaScript, the link is a page that posts like the card.
    page = judge_client.get(order_url).content.decode()
    assert "<html" in page and f'action="{report_url(event, first)}"' in page


def test_a_table_of_another_event_has_no_order_page(judge_client, event, league):
    other = tournament_create(league=league, name="Other pods", format="pods")
    register(other, *(f"Q{n}" for n in range(1, 9)))
    round_pair(tournament=other)
    foreign = Table.objects.filter(round__tournament=other).first()
    started(event)
    response = judge_client.get(reverse("table_order", args=[event.slug, foreign.pk]))
    assert response.status_code == 404


def test_the_console_shows_the_repeat_warning_once(judge_client, event):
    """Eight players in two pods of four cannot play round 2 without repeats. The warning is
    written on the round and the console shows it; the flash message after pairing once
    repeated it word for word above it."""
    register(event, *(f"P{n}" for n in range(1, 9)))
    play_round(event)
    url = reverse("event_pair", args=[event.slug])
    page = judge_client.post(url, {"number": "2"}, follow=True).content.decode()
    round_ = event.rounds.get(number=2)
    assert "seats players who met before" in round_.notes_text
    for line in round_.notes_text.splitlines():
        assert page.count(escape(line)) == 1, line
