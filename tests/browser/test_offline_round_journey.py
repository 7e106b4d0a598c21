"""A TO pairs the next round on a phone (390 px) while the server cannot be reached, then sends
it back (issue 34): the page kept the event while online; offline, the TO taps the one result
the server never got, pairs the round under Pyodide and sees its pods; back online, the round
goes to the server, and the public pairings show it, seat for seat."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from audit.models import AuditEntry
from leagues.models import Role
from tests.factories import organizer_of
from tests.tournaments.offline.states import STATES, build, seatings
from tournaments.models import Round

from .pyodide_assets import check_assets

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 120_000  # ms: Pyodide's cold start (13 MB from the test server) on a busy machine


def test_the_to_pairs_offline_and_the_server_adopts_the_round(phone, league):
    check_assets()
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = build(league, *STATES[3])  # 9 players in pods of 4 and 5, a drop, a requested bye
    opened = event.rounds.get(number=2)
    table = opened.tables.filter(seats__position=2).order_by("number").first()
    winner = table.seats.get(position=2).entry
    # A name with no place to break: its "… won" button must still fit the phone.
    winner.player.name = "Wolfeschlegelsteinhausenbergerdorff" * 2
    winner.player.save()
    # The last result never reached the server.
    table.reported, table.winner, table.is_draw = False, None, False
    table.save()
    table.seats.update(place=None, game_wins=None)
    page = phone.page
    phone.login("jude")
    page.goto(phone.base + reverse("offline_pair", args=[event.slug]))
    page.set_default_timeout(WAIT)
    expect(page.locator(".offline-status")).to_contain_text("online", timeout=WAIT)
    # A pod event's own sentence, one pod in the singular (issue 45: "%(noun)s %(tables)s").
    expect(page.locator(".offline-status")).to_contain_text(
        f"waiting for the result of pod {table.number} (enter it on the console)"
    )
    page.evaluate("async () => { await window.guildhallOffline.python; }")

    phone.context.set_offline(True)
    expect(page.locator(".offline-status")).to_contain_text("offline")
    pair = page.locator(".offline-pair-button")
    expect(pair).to_be_disabled()  # a table still has no result on the phone
    expect(page.locator(".offline-missing")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_role("button", name=f"{winner.player.name} won").click()
    expect(pair).to_be_enabled()
    pair.click()

    shown = page.locator(".offline-table")
    expect(page.locator(".offline-round-title")).to_contain_text("Round 3, paired on this phone")
    expect(shown.first).to_contain_text("Pod 1:")
    phone.shot("offline_round_phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    announced = shown.all_inner_texts()

    upload = reverse("offline_upload", args=[event.slug])
    sent = []
    page.on("response", lambda r: sent.append(r) if r.url.endswith(upload) else None)
    phone.context.set_offline(False)  # the page sends the round by itself once back online
    # ...while the TO taps "Send" twice: one request, and the page says the round arrived
    # (a second request would hear "already on the server" and say that instead).
    page.evaluate("() => Promise.all([guildhallOffline.upload(), guildhallOffline.upload()])")
    expect(page.locator(".offline-message")).to_contain_text(
        "Round 3 is on the server", timeout=WAIT
    )
    assert len(sent) == 1
    phone.shot("offline_round_sent")
    page.set_viewport_size({"width": 1366, "height": 768})
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    phone.shot("offline_round_sent_laptop")

    adopted = event.rounds.get(number=3)
    assert event.rounds.get(number=2).status == Round.Status.COMPLETE
    names = {e.player_id: e.player.name for e in event.entries.select_related("player")}
    assert [", ".join(names[p] for p in players) for players in seatings(adopted)] == [
        text.split(": ", 1)[1] for text in announced
    ]
    page.goto(phone.base + reverse("event_detail", args=[event.slug]))
    board = page.locator("main")
    for players in seatings(adopted):
        for player in players:
            expect(board).to_contain_text(names[player])
    expect(board).to_contain_text("Round 3")
    phone.shot("offline_round_public")


@pytest.mark.parametrize("state", [STATES[3], STATES[1]], ids=lambda state: state[0])
def test_the_pairing_page_works_offline_though_first_opened_after_the_network_went(
    phone, league, monkeypatch, state
):
    """The TO only ever opened the console: it had the service worker keep the pairing page,
    Pyodide and the snapshot. The network goes; the TO taps the last table's result on the
    console (it waits in the queue: a pod's winner, or a match's "0-2"), opens "Pair without
    the server" for the first time, and pairs: the queued result counts. Back online, the
    queue goes first, then the round, which the server adopts; the result is stored once."""
    from tournaments.console.views import board

    from .test_offline_console import worker_ready

    monkeypatch.setattr(board, "CONSOLE_POLL_SECONDS", 3600)  # no poll cut mid-flight
    check_assets()
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = build(league, *state)
    table = event.rounds.get(number=2).tables.filter(seats__position=2).order_by("number").first()
    winner = table.seats.get(position=2).entry
    table.reported, table.winner, table.is_draw = False, None, False
    table.save()
    table.seats.update(place=None, game_wins=None)
    page = phone.page
    phone.login("jude")
    phone.go(reverse("event_run", args=[event.slug]))
    page.set_default_timeout(WAIT)
    worker_ready(phone)
    # The worker holds the pairing page and Pyodide's files; the phone holds the snapshot.
    page.wait_for_function(
        """async () => {
            const names = await caches.keys();
            let found = 0;
            for (const name of names) {
                const cache = await caches.open(name);
                const keys = await cache.keys();
                for (const file of ["asm.wasm", "stdlib.zip", "domain", "run/offline/"]) {
                    if (keys.some((r) => r.url.includes(file))) found += 1;
                }
            }
            const kept = await window.GuildhallOffline.eventState();
            return found >= 4 && kept && kept.snapshot && kept.snapshot.round === 3;
        }""",
        polling=500,
    )

    phone.context.set_offline(True)
    if event.is_pods:
        page.locator(f"#table-{table.pk} button[name=winner][value='{winner.pk}']").click()
    else:  # the second seat won 2-0
        page.locator(f"#table-{table.pk} button[name=result][value='0-2']").click()
    expect(page.locator("#offline-banner")).to_contain_text("1 result waiting")
    page.goto(phone.base + reverse("offline_pair", args=[event.slug]))
    assert page.evaluate("document.documentElement.hasAttribute('data-offline-copy')")
    expect(page.locator(".offline-status")).to_contain_text("offline")
    pair = page.locator(".offline-pair-button")
    # The queued result counts; Pyodide came from the phone (its start: up to WAIT).
    expect(pair).to_be_enabled(timeout=WAIT)
    pair.click()
    expect(page.locator(".offline-round-title")).to_contain_text("Round 3, paired on this phone")
    phone.shot("offline_round_first_opened_offline")
    announced = page.locator(".offline-table").all_inner_texts()
    table.refresh_from_db()
    assert not table.reported
    before = table.version

    phone.context.set_offline(False)
    expect(page.locator(".offline-message")).to_contain_text(
        "Round 3 is on the server", timeout=WAIT
    )
    table.refresh_from_db()
    # Stored once, from the console's queue (the round's upload found it stored).
    assert table.reported and table.version == before + 1 and table.winner_id == winner.pk
    logged = AuditEntry.objects.filter(object_id=table.pk, actor_label__contains="queue")
    assert logged.count() == 1
    adopted = event.rounds.get(number=3)
    names = {e.player_id: e.player.name for e in event.entries.select_related("player")}
    assert [", ".join(names[p] for p in players) for players in seatings(adopted)] == [
        text.split(": ", 1)[1].replace(" vs ", ", ") for text in announced
    ]
