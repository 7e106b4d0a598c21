"""The player's "my event" page and the TO's pick (report_views): taps through the account and
through the registration link, bad input, double taps, the rate limit, the conditional poll,
and the console's view of the reports."""

import re

import pytest
from django.urls import reverse

from leagues.models import Role
from tests import scenes
from tests.factories import UserFactory, organizer_of
from tests.tournaments.play import report_posted
from tournaments.models import Entry, Registration, ReportConfirmation, ResultReport, Table
from tournaments.selectors import standings
from tournaments.services.entries import entry_drop
from tournaments.services.reports import report_accept, report_confirm
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair
from tournaments.services.topcut import top_cut_start

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def pod(db):
    """A pod event of 8, round 1 paired; pod 1's players: the first linked to an account,
    the others each with a registration link."""
    event = scenes.pods_round_in_play(swiss_rounds=2).event
    table = Table.objects.get(round__tournament=event, number=1)
    entries = [s.entry for s in table.seats.select_related("entry__player").order_by("position")]
    user = UserFactory(username="first")
    entries[0].player.user = user
    entries[0].player.save(update_fields=["user"])
    links = {}
    for entry in entries[1:]:
        registration = Registration.objects.create(
            tournament=event, player=entry.player, entry=entry, status="seated"
        )
        links[entry.pk] = reverse("my_event_link", args=[event.slug, registration.token])
    return {"event": event, "table": table, "entries": entries, "user": user, "links": links}


def page_of(pod, client):
    client.force_login(pod["user"])
    return reverse("my_event", args=[pod["event"].slug])


def test_a_player_reports_and_the_others_confirm_through_their_links(client, pod):
    url = page_of(pod, client)
    first, *others = pod["entries"]
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Pod 1" in text and "seat 1" in text and "Report the result" in text
    for entry in others:
        assert entry.player.name in text
    response = client.post(
        url, {"action": "report", "table": pod["table"].pk, "winner": str(first.pk)}
    )
    assert response.status_code == 302 and response.url == f"{url}?said=reported"
    assert "Reported." in client.get(response.url).content.decode()
    assert "Reported." not in client.get(url).content.decode()  # said once
    report = ResultReport.objects.get()
    assert report.user == pod["user"] and not report.via_link
    anonymous = client.__class__()
    for entry in others:
        link = pod["links"][entry.pk]
        shown = anonymous.get(link).content.decode()
        assert f"{first.player.name} reported" in shown and "Confirm:" in shown
        answer = anonymous.post(link, {"action": "confirm", "report": report.pk})
        assert answer.status_code == 302
    pod["table"].refresh_from_db()
    assert pod["table"].reported and pod["table"].winner_id == first.pk
    assert ReportConfirmation.objects.filter(via_link=True).count() == 3
    final = anonymous.get(pod["links"][others[-1].pk]).content.decode()
    assert f"Result: <strong>{first.player.name} won</strong>" in final


@pytest.mark.parametrize(
    "data, message",
    [
        ({"action": "report", "winner": "999999"}, "Tap the name of a player"),
        ({"action": "report", "result": "order"}, "Choose a place"),
        ({"action": "report"}, "Tap the winner"),
        ({"action": "dance"}, "Report a result or confirm one"),
        ({"action": "confirm", "report": "x"}, "Choose a report to confirm"),
        ({"action": "confirm", "report": "123456"}, "Choose a report to confirm"),
    ],
)
def test_bad_input_shows_the_page_with_why_and_writes_nothing(client, pod, data, message):
    url = page_of(pod, client)
    response = client.post(url, data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not ResultReport.objects.exists()


def test_the_players_order_form_is_the_consoles(client, pod):
    """One partial (formats/pod.html#order-form) draws the full order on the player's page
    and on the console's card: the same fields, read by the same format."""
    table, event = pod["table"], pod["event"]
    page = client.get(page_of(pod, client)).content.decode()
    to = organizer_of(event.league.organization, role=Role.JUDGE)
    client.force_login(to)
    order = reverse("table_order", args=[event.slug, table.pk])
    console = client.get(order, **HTMX).content.decode()
    fields = re.compile(r'<select name="(place-\d+)" id="place-\d+-\d+">')
    expected = [f"place-{e.pk}" for e in pod["entries"]]
    assert fields.findall(page) == expected and fields.findall(console) == expected
    for html in (page, console):
        assert 'name="result" value="order"' in html
        assert "Shared places: 1, 2, 2, 4. A shared first place is a draw." in html


@pytest.mark.parametrize(
    "places, said",
    [
        ((1, 1, 3, 4), "1st {0}, 1st {1}, 3rd {2}, 4th {3}"),  # a shared first: a draw of two
        ((1, 2, 2, 4), "1st {0}, 2nd {1}, 2nd {2}, 4th {3}"),
        ((1, 1, 1, 1), "a draw"),
    ],
)
def test_a_player_reports_a_pods_shared_places(client, pod, places, said):
    url = page_of(pod, client)
    data = {"action": "report", "table": pod["table"].pk, "result": "order"}
    data |= {f"place-{e.pk}": str(p) for e, p in zip(pod["entries"], places, strict=True)}
    assert client.post(url, data).status_code == 302
    report = ResultReport.objects.get()
    assert report.summary == said.format(*(e.player.name for e in pod["entries"]))
    assert report.result == {
        "winner": None,
        "draw": False,
        "places": {str(e.pk): p for e, p in zip(pod["entries"], places, strict=True)},
        "game_wins": {},
        "game_draws": 0,
    }


def test_a_player_reports_a_pods_draw_and_a_bad_order_writes_nothing(client, pod):
    url = page_of(pod, client)
    bad = {"action": "report", "table": pod["table"].pk, "result": "order"}
    bad |= {f"place-{e.pk}": p for e, p in zip(pod["entries"], "1334", strict=True)}
    refused = client.post(url, bad)
    assert refused.status_code == 400
    assert "The places must be a finishing order" in refused.content.decode()
    assert not ResultReport.objects.exists()
    client.post(url, {"action": "report", "table": pod["table"].pk, "result": "draw"})
    report = ResultReport.objects.get()
    assert report.summary == "a draw"
    assert report.result == {
        "winner": None,
        "draw": True,
        "places": {},
        "game_wins": {},
        "game_draws": 0,
    }


def test_a_form_from_an_earlier_round_is_refused_with_the_table_as_it_is_now(client, pod):
    url = page_of(pod, client)
    other = Table.objects.get(round__tournament=pod["event"], number=2)
    response = client.post(url, {"action": "report", "table": other.pk, "winner": "1"})
    assert response.status_code == 409
    assert "earlier round" in response.content.decode()
    assert not ResultReport.objects.exists()


def test_a_double_tap_says_so_and_stores_one_report(client, pod):
    url = page_of(pod, client)
    data = {"action": "report", "table": pod["table"].pk, "winner": str(pod["entries"][1].pk)}
    assert client.post(url, data).status_code == 302
    assert client.post(url, data).status_code == 302
    assert "You already reported this result." in client.get(url).content.decode()
    assert ResultReport.objects.count() == 1


def test_too_many_taps_a_minute_are_refused(client, pod):
    url = page_of(pod, client)
    for entry in pod["entries"] * 2:
        data = {"action": "report", "table": pod["table"].pk, "winner": str(entry.pk)}
        response = client.post(url, data)
    assert response.status_code == 429
    assert "wait a minute" in response.content.decode()
    assert ResultReport.objects.count() == 6


def test_a_closed_round_takes_no_report(client, pod):
    url = page_of(pod, client)
    for table in Table.objects.filter(round__tournament=pod["event"]):
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    round_end(round_=pod["table"].round)
    data = {"action": "report", "table": pod["table"].pk, "winner": str(pod["entries"][1].pk)}
    response = client.post(url, data)
    assert response.status_code == 409
    assert "no longer being played" in response.content.decode()


def test_who_may_open_the_page(client, pod):
    event = pod["event"]
    client.force_login(UserFactory(username="stranger"))
    assert client.get(reverse("my_event", args=[event.slug])).status_code == 403
    assert client.get(reverse("my_event_link", args=[event.slug, "nope"])).status_code == 404
    waiting = Registration.objects.create(
        tournament=event,
        player=pod["entries"][0].player.__class__.objects.create(
            organization=event.league.organization, name="Late"
        ),
        status="waitlisted",
    )
    link = reverse("my_event_link", args=[event.slug, waiting.token])
    assert "you hold no seat" in client.get(link).content.decode()
    assert client.post(link, {"action": "report", "winner": "1"}).status_code == 302
    assert not ResultReport.objects.exists()


def test_the_poll_is_a_304_until_something_changes(client, pod):
    url = page_of(pod, client)
    fragment = client.get(url, **HTMX)
    assert b'id="my-live"' in fragment.content and b"<html" not in fragment.content
    etag = fragment["ETag"]
    assert etag.strip('"') in fragment.content.decode()  # the fragment sends it back
    assert client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX).status_code == 304
    # Someone at the table reports: the next poll brings the new fragment.
    second = pod["entries"][1]
    report_posted(table=pod["table"], entry=second, data={"winner": str(second.pk)})
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert f"{second.player.name} reported" in changed.content.decode()
    # The next round is paired: the page shows the new seat.
    etag = changed["ETag"]
    for table in Table.objects.filter(round__tournament=pod["event"]):
        table_report(table=table, winner=table.seats.order_by("position")[0].entry)
    round_end(round_=pod["table"].round)
    round_pair(tournament=pod["event"])
    paired = client.get(url, HTTP_IF_NONE_MATCH=etag, **HTMX)
    assert paired.status_code == 200 and "Round 2" in paired.content.decode()


def test_the_console_shows_a_dispute_and_the_to_picks_one(client, pod):
    first, second, third, _ = pod["entries"]
    table = pod["table"]
    mine = report_posted(table=table, entry=first, data={"winner": str(first.pk)})
    theirs = report_posted(table=table, entry=second, data={"winner": str(second.pk)})
    report_confirm(report=theirs.report, entry=third)
    event = pod["event"]
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    console = client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "1 disputed</strong> (pod 1)" in console and "1 not reported (2)" in console
    assert f"Use this: {first.player.name} won" in console
    assert f"agreed by {third.player.name}" in console
    accept = reverse("report_accept", args=[event.slug, theirs.report.pk])
    response = client.post(accept, {"next": reverse("event_run", args=[event.slug])})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.winner_id == second.pk
    mine.report.refresh_from_db()
    assert mine.report.status == "rejected"
    again = client.post(accept, follow=True)
    assert "already the result" in again.content.decode()
    console = client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "a report accepted by the TO" in console
    assert client.post(reverse("report_accept", args=[event.slug, 999999])).status_code == 404


def test_the_spectators_pairings_poll_is_a_304_until_something_changes(
    client, pod, django_assert_num_queries
):
    import re

    event = pod["event"]
    url = reverse("event_detail", args=[event.slug])
    page = client.get(url).content.decode()
    tag = '"' + re.search(r'If-None-Match": "\\"([0-9a-f]+)', page).group(1) + '"'
    # The page cache knows the event's scopes: the versions are the one query.
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=tag, **HTMX).status_code == 304
    # The search box's own requests send no tag (hx-headers), and a search is its own page.
    assert client.get(url, {"q": "a"}, HTTP_IF_NONE_MATCH=tag, **HTMX).status_code == 200
    # A player's report changes nothing the spectators see; a result does.
    first = pod["entries"][0]
    report_posted(table=pod["table"], entry=first, data={"winner": str(first.pk)})
    assert client.get(url, HTTP_IF_NONE_MATCH=tag, **HTMX).status_code == 304
    table_report(table=pod["table"], winner=first)
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag, **HTMX)
    assert changed.status_code == 200 and b'id="live-pairings"' in changed.content


def test_history_shows_every_report_confirmation_and_pick(client, pod):
    first, second, third, _ = pod["entries"]
    table = pod["table"]
    mine = report_posted(table=table, entry=first, data={"winner": str(first.pk)})
    report_confirm(report=mine.report, entry=third)
    theirs = report_posted(table=table, entry=second, data={"result": "draw"})
    event = pod["event"]
    organizer = organizer_of(event.league.organization, role=Role.ORGANIZER)
    report_accept(report=theirs.report, by=organizer)
    client.force_login(organizer)
    url = reverse("audit_log", args=[event.league.organization.slug])
    page = client.get(url, {"tournament": event.slug})
    assert page.status_code == 200
    text = page.content.decode()
    assert text.count("Result reported by a player") == 2
    assert "Result confirmed by a player" in text
    assert "accepted by the TO" in text
    assert f"{third.player.name} confirmed {first.player.name}" in text
    assert f"the TO chose {second.player.name}" in text


def test_a_walk_in_uses_the_signed_link_the_to_hands_over(client, pod):
    from tournaments.selectors.reports import walk_in_token

    event = pod["event"]
    first, second, *_ = pod["entries"]  # the first has no registration: a walk-in
    client.force_login(organizer_of(event.league.organization, role=Role.JUDGE))
    token = walk_in_token(first)
    link = reverse("my_event_link", args=[event.slug, token])
    listing = client.get(reverse("event_registration", args=[event.slug])).content.decode()
    assert f'{first.player.name} (<a href="{link}">seat link</a>)' in listing
    client.logout()
    assert "Pod 1" in client.get(link).content.decode()
    answer = client.post(link, {"action": "report", "winner": str(first.pk)})
    assert answer.status_code == 302
    report = ResultReport.objects.get()
    assert report.entry == first and report.via_link and report.user is None
    # A code whose signature is wrong, or signed for an entry that registered online (which
    # uses its registration's code), opens nothing.
    forged = token.split(".")[0] + ".AAAA"
    assert client.get(reverse("my_event_link", args=[event.slug, forged])).status_code == 404
    registered = reverse("my_event_link", args=[event.slug, walk_in_token(second)])
    assert client.get(registered).status_code == 404


def test_a_tap_on_a_disputed_table_says_what_it_did(client, pod):
    """Confirming one of two versions is a confirmation, not a differing report of one's own;
    reporting a third version is."""
    url = page_of(pod, client)
    _, second, third, fourth = pod["entries"]
    table = pod["table"]
    report_posted(table=table, entry=second, data={"winner": str(second.pk)})
    theirs = report_posted(table=table, entry=third, data={"winner": str(third.pk)})
    response = client.post(url, {"action": "confirm", "report": theirs.report.pk})
    assert response.url == f"{url}?said=sided"
    text = client.get(response.url).content.decode()
    assert "Confirmed. Your pod sent different results" in text  # a pod event says pod
    assert "Your report differs" not in text
    fourth.player.user = UserFactory(username="fourth")
    fourth.player.save(update_fields=["user"])
    client.force_login(fourth.player.user)
    response = client.post(url, {"action": "report", "table": table.pk, "result": "draw"})
    assert response.url == f"{url}?said=disputed"
    assert "Your report differs" in client.get(response.url).content.decode()


def test_a_players_poll_stays_a_304_through_other_tables_results_and_changes_with_their_own(
    client, pod
):
    """Every phone polls every 15 s: a result or a report at another pod must not re-render
    the 250 other players' pages, but anything their page shows must (page_versions)."""
    url = page_of(pod, client)
    event, mine = pod["event"], pod["table"]
    other = Table.objects.get(round__tournament=event, number=2)
    others = [s.entry for s in other.seats.select_related("entry").order_by("position")]
    tag = client.get(url, **HTMX)["ETag"]

    def poll() -> int:
        nonlocal tag
        response = client.get(url, HTTP_IF_NONE_MATCH=tag, **HTMX)
        if response.status_code == 200:
            tag = response["ETag"]
        return response.status_code

    # Another pod: a report, a confirmation, the result, a correction.
    report = report_posted(table=other, entry=others[0], data={"winner": str(others[0].pk)})
    assert poll() == 304
    report_confirm(report=report.report, entry=others[1])
    table_report(table=other, winner=others[0])
    assert poll() == 304
    table_report(table=other, winner=others[1])
    assert poll() == 304
    # Their own pod: a report from someone else at it, then the TO's result.
    first, second, *_ = pod["entries"]
    report_posted(table=mine, entry=second, data={"winner": str(second.pk)})
    assert poll() == 200
    table_report(table=mine, winner=first)
    assert poll() == 200
    # The round ends, the next is paired: every page.
    round_end(round_=mine.round)
    assert poll() == 200
    round_pair(tournament=event)
    assert poll() == 200
    # A correction of their round-1 pod (their rounds list) changes it; of another, not.
    table_report(table=other, winner=others[2])
    assert poll() == 304
    table_report(table=mine, winner=second)
    assert poll() == 200
    # A drop anywhere, an edit of the event, a player renamed: every page, to be safe.
    entry_drop(entry=others[3])
    assert poll() == 200
    event.refresh_from_db()
    event.round_minutes = 55
    event.save()
    assert poll() == 200
    player = others[2].player
    player.name = "Zed"
    player.save()
    assert poll() == 200
    assert poll() == 304


def own_page(client, event, entry):
    user = UserFactory(username=f"u{entry.pk}")
    entry.player.user = user
    entry.player.save(update_fields=["user"])
    client.force_login(user)
    return client.get(reverse("my_event", args=[event.slug])).content.decode()


def test_a_player_outside_the_top_cut_keeps_their_rounds_points_and_place(client, league):
    """Issue 31 #5: everyone outside the top cut saw "You are not seated in this round" and
    nothing else."""
    players = (f"S{n}" for n in range(8))
    build = {"name": "Cut night", "format": "pods", "swiss_rounds": 1, "top_cut": 4}
    event = scenes.rounds_played(1, league=league, players=players, **build).event
    ranking = standings(event).ranking
    top_cut_start(tournament=event)
    last = Entry.objects.get(tournament=event, player_id=ranking[-1])
    page = own_page(client, event, last)
    assert "Your rounds" in page and "Round 1" in page and ">loss<" in page
    assert "You are not in the top cut" in page
    # A loser of a pod of four, outside the top 4: 5th to 8th of 8 (tiebreakers decide).
    assert re.search(r"After round 1: <strong>[5-8]th( \(shared\))? of 8</strong> · 0 points", page)
    assert "· 0-1-0</p>" in page


def test_a_dropped_player_keeps_their_rounds_points_and_place(client, league):
    scene = scenes.rounds_played(1, league=league, name="Modern", players=4, swiss_rounds=3)
    event, winner = scene.event, scene.seated(1)[0]
    scenes.round_paired(scene, drop=[winner.player.name])
    page = own_page(client, event, winner)
    assert "Your rounds" in page and "Round 1" in page and ">win<" in page
    assert "You dropped after round 1" in page
    assert "After round 1: <strong>1st (shared) of 4</strong> · 3 points · 1-0-0 · dropped" in page


def test_a_match_player_reports_with_the_consoles_result_buttons(client, league):
    """A 1v1 player's form is the format's partial, the card's buttons (with the drawn games
    and draws folded under "More"); "1-2" reads from the seats as the card's does."""
    event = scenes.round_paired(league=league, name="Modern", players=4, swiss_rounds=2).event
    table = Table.objects.get(round__tournament=event, number=1)
    first, second = [
        s.entry for s in table.seats.select_related("entry__player").order_by("position")
    ]
    registration = Registration.objects.create(
        tournament=event, player=second.player, entry=second, status="seated"
    )
    link = reverse("my_event_link", args=[event.slug, registration.token])
    page = client.get(link).content.decode()
    codes = re.findall(r'name="result" value="([^"]+)"', page)
    assert codes == [
        *("2-0", "2-1", "1-2", "0-2", "1-1", "id"),
        *("1-0", "2-0-1", "1-0-1", "2-1-1", "0-1", "0-2-1", "0-1-1", "1-2-1", "1-1-1", "0-0-1"),
    ]
    answer = client.post(link, {"action": "report", "table": table.pk, "result": "1-2"})
    assert answer.status_code == 302
    report = ResultReport.objects.get()
    assert report.summary == f"{second.player.name} won 2\u20131"
    assert report.result == {
        "winner": second.pk,
        "draw": False,
        "places": {},
        "game_wins": {str(first.pk): 1, str(second.pk): 2},
        "game_draws": 0,
    }
