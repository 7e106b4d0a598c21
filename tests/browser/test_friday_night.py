"""Issue 31's Friday night, run as the store runs it: a 17-player Commander pod event, at a
store in New York (five hours behind the server's UTC) that requires a legal list (issue 43).

Sixteen seats: fifteen players registered ahead, Pia takes the last seat from her phone and
pastes a Moxfield list that includes its commander (legal), and Quinn lands on the waitlist.
The TO opens the check-in; everyone checks in by their link but Nora, who never comes; Walt
walks in at the door before the close and the TO types him in past the cap, so closing the
check-in still seats Quinn (Walt's is an extra seat, not Nora's). Quinn's list has a banned
card; at "Pair round 1" and "Start the top 4" the TO is shown who has no legal list and goes
on, and the event's page says whose lists were not legal. Every clock reads New York's time.
Seventeen players, pods of 4+4+3+3+3: three Swiss rounds reported from the
players' own "your seat" pages and confirmed by their pod-mates, one pod disputed and settled
from the console, one pod drawn (a shared first place), one player dropped by the TO after
round 1, then the top 4 and its final pod.

What a person would see is checked on the way: round 2 seats nobody with someone met in round
1 (issue 31, bug 3), the drawn pod reads as a draw in the event standings and in the league's
Wins / Draws columns (bug 2), the dropped player's page keeps their rounds and place (bug 5),
no page is wider than a 390 px phone, and no response is a 500.

The players' phones share one browser context: each player's page is their own link (the
registration's code, or the walk-in's seat link), so switching phones is opening a link.
"""

import io
import re
from itertools import combinations
from zoneinfo import ZoneInfo

import pytest
from django.core.management import call_command
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from leagues.models import Role
from tests.cards.sample import SAMPLE
from tests.factories import LeagueFactory, PlayerFactory, UserFactory, organizer_of
from tournaments.models import Registration, Round, Seat, Table, Tournament
from tournaments.services.decks import deck_settings_set
from tournaments.services.events import tournament_create
from tournaments.services.registration import registration_join, registration_settings_set

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

AHEAD = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn", "Gus", "Hal"]
AHEAD += ["Ida", "Jo", "Kim", "Lou", "Max", "Nora", "Ole"]  # fifteen registered ahead
ONLINE = ["Pia", "Quinn"]  # register from their phones: the 16th seat, then the waitlist
WALK_IN = "Walt"
NO_SHOW = "Nora"
STORE_ZONE = ZoneInfo("America/New_York")
# Moxfield's export: the commander is the main deck's first line, with its set and number.
LEGAL = "1 Najeela, the Blade-Blossom (BBD) 2\n1 Sol Ring (C21) 263\n49 Plains\n49 Island\n"
BANNED = "1 Najeela, the Blade-Blossom\n1 Mana Crypt\n1 Sol Ring\n49 Plains\n48 Island\n"


@pytest.fixture
def event(db):
    call_command("load_cards", str(SAMPLE), stdout=io.StringIO())
    league = LeagueFactory(name="Friday Commander", slug="commander", game_label="Commander")
    organization = league.organization
    organization.time_zone = "America/New_York"
    organization.save()
    organizer_of(organization, role=Role.ORGANIZER, username="jude")
    players = {}
    for name in [*AHEAD, *ONLINE, WALK_IN]:
        user = UserFactory(username=name.lower()) if name in ONLINE else None
        players[name] = PlayerFactory(organization=organization, name=name, user=user)
    event = tournament_create(
        league=league, name="Friday pods", format="pods", swiss_rounds=3, top_cut=4
    )
    event = registration_settings_set(
        tournament=event, open=True, cap=16, deadline=None, note="Fee 10 · doors at 18:30"
    )
    deck_settings_set(tournament=event, deadline=None, visibility="after_cut",
                      decklist_format="commander", decklist_required=True)  # fmt: skip
    for name in AHEAD:
        registration_join(tournament=event, player=players[name])
    return event


class Night:
    """The browsers of the night: the TO's phone and the players' phones (one context), each
    page checked for its width, every response for a 500."""

    def __init__(self, browser, live_server, event):
        self.event = event
        self.server_errors: list[str] = []
        self.console_errors: list[str] = []
        self.visits: list[Visit] = []
        self.to = self.open(browser, live_server)
        self.phones = self.open(browser, live_server)
        self.links: dict[str, str] = {}

    def open(self, browser, live_server) -> Visit:
        visit = Visit(browser, live_server, PHONE)
        visit.page.on("response", self._response)
        visit.page.on("console", lambda m: self._console(visit, m))
        self.visits.append(visit)
        return visit

    def _console(self, visit: Visit, message):
        if message.type == "error":  # Visit keeps the text; this says on which page
            where = message.location
            self.console_errors.append(f"{visit.page.url} ({where}): {message.text[:60]}")

    def _response(self, response):
        if response.status >= 500:
            self.server_errors.append(f"{response.status} {response.request.method} {response.url}")

    def go(self, visit: Visit, path: str):
        try:
            visit.go(path)
        except PlaywrightError as error:
            # The phones' tab goes from one player's page to the next; a navigation its last
            # page started itself (a poll's reload as a result came in) may cancel this one
            # (net::ERR_ABORTED, seen once in a full run on a loaded machine). Go again, once.
            if "ERR_ABORTED" not in str(error):
                raise
            visit.go(path)
        fits(visit)

    def tap(self, visit: Visit, selector):
        locator = visit.page.locator(selector) if isinstance(selector, str) else selector
        locator.click()
        visit.page.wait_for_load_state("networkidle")
        fits(visit)

    def console(self):
        self.go(self.to, f"/events/{self.event.slug}/run/")

    def paste_deck(self, phone: Visit, commander: str, text: str):
        """A signed-in player pastes their list on their deck page."""
        self.go(phone, f"/events/{self.event.slug}/my-deck/")
        phone.page.fill("#id_commander", commander)
        phone.page.fill("#id_text", text)
        self.tap(phone, "button:has-text('Save the deck')")

    def go_on_past_lists(self, without: int, shown: dict[str, str]):
        """The TO's confirm step of an event requiring a legal list: `without` players have
        none, `shown` names some with why; the TO goes on (a Decklist Problem each)."""
        page = self.to.page
        players = "player" if without == 1 else "players"
        expect(page.locator("#decklists-title")).to_have_text(
            f"{without} {players} without a legal list"
        )
        for name, why in shown.items():
            expect(page.locator(".without-legal-list li", has_text=name)).to_contain_text(why)
        self.tap(self.to, "button[value=go_on]")

    def seat_page(self, name: str):
        self.go(self.phones, self.links[name])
        return self.phones.page

    def report(self, name: str, winner: str | None):
        """`name` reports from their page: `winner` won, or a draw (None)."""
        page = self.seat_page(name)
        if page.locator(".report-form[open]").count() == 0:
            page.click(".report-form > summary")
        if winner is None:
            self.tap(self.phones, ".report-buttons button.draw")
        else:
            self.tap(self.phones, f".report-buttons button[name=winner]:text-is('{winner}')")
        expect(page.locator(".report-line", has_text="You reported")).to_be_visible()

    def confirm(self, name: str, summary: str):
        page = self.seat_page(name)
        self.tap(self.phones, page.locator("button.confirm", has_text=summary))

    def close(self):
        for visit in self.visits:
            visit.context.close()


WIDEST = """(limit) => [...document.querySelectorAll('body *')]
    .filter(e => e.getBoundingClientRect().right > limit && e.children.length == 0)
    .slice(0, 5).map(e => `${e.tagName}.${e.className}: ${e.textContent.trim().slice(0, 40)}`)"""


def fits(visit: Visit):
    width = visit.page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:  # name what sticks out, for the person reading the failure
        wide = visit.page.evaluate(WIDEST, PHONE["width"])
        pytest.fail(f"{visit.page.url} is {width} px wide: {wide}")


def pods_of(event, number) -> dict[int, list[str]]:
    """{pod number: [names in seat order]} of round `number`."""
    pods: dict[int, list[str]] = {}
    seats = Seat.objects.filter(round__tournament=event, round__number=number)
    for table, name in seats.order_by("table__number", "position").values_list(
        "table__number", "entry__player__name"
    ):
        pods.setdefault(table, []).append(name)
    return pods


def met(pods: dict[int, list[str]]) -> set[frozenset[str]]:
    return {frozenset(pair) for names in pods.values() for pair in combinations(names, 2)}


def standings(visit: Visit) -> dict[str, list[str]]:
    """The rows of the page's standings table: {player name: the row's cells}."""
    rows = visit.page.evaluate(
        """() => [...document.querySelectorAll('main table tbody tr')].map(
            tr => [...tr.querySelectorAll('td')].map(td => td.innerText.trim()))"""
    )
    return {re.split(r"\s", row[1])[0]: row for row in rows if len(row) > 2}


def test_a_seventeen_player_pod_night(browser, live_server, event):
    night = Night(browser, live_server, event)
    slug = event.slug
    to = night.to
    wins: dict[str, int] = {}  # unshared first places, as the test plays them
    try:
        # Sign-ups: Pia takes the 16th seat, Quinn the waitlist, each from their own phone.
        for name in ONLINE:
            phone = night.open(browser, live_server)
            phone.login(name.lower())
            night.go(phone, f"/events/{slug}/")
            night.tap(phone, "button:has-text('Register'), button:has-text('Join the waitlist')")
            if name == "Quinn":
                expect(phone.page.locator(".messages")).to_contain_text(
                    "you are number 1 on the waitlist"
                )
                phone.shot("friday-waitlist")
            else:  # Pia's list names its commander in the main deck: legal (issue 43, bug 3)
                night.paste_deck(phone, "Najeela, the Blade-Blossom", LEGAL)
                expect(phone.page.locator(".deck-legal")).to_contain_text(
                    "Your list is legal in Commander"
                )
            assert not phone.errors, phone.errors
            night.visits.remove(phone)
            phone.context.close()
        for registration in Registration.objects.filter(tournament=event):
            night.links[registration.player.name] = f"/events/{slug}/me/{registration.token}/"

        # The TO opens the check-in; everyone but Nora checks in by their link.
        to.login("jude")
        night.go(to, f"/events/{slug}/run/registration/")
        expect(to.page.locator("h2").first).to_contain_text("16 in of 16 · 1 waiting")
        night.tap(to, "button:has-text('Open check-in')")
        expect(to.page.locator(".check-in-qr svg")).to_be_visible()
        for registration in Registration.objects.filter(tournament=event).select_related("player"):
            if registration.player.name == NO_SHOW:
                continue
            night.go(night.phones, f"/events/{slug}/check-in/{registration.token}/")
            night.tap(night.phones, "button:has-text('check in')")

        # Walt walks in before the close, past the cap: the TO types him in on the console.
        night.console()
        to.page.fill("#id_name", WALK_IN)
        night.tap(to, "form.inline-form button:has-text('Register')")

        # Closing the check-in: Nora's seat is the waitlist's, so Quinn, checked in while
        # waiting, is seated; Walt's is an extra seat (issue 43, bug 1).
        night.go(to, f"/events/{slug}/run/registration/")
        expect(to.page.locator("body")).to_contain_text(f"Not checked in (1): {NO_SHOW}")
        to.page.click("summary:has-text('Close check-in')")
        night.tap(to, "form[action$='/run/check-in/close/'] button")
        expect(to.page.locator(".messages")).to_contain_text(
            f"Removed (did not check in): {NO_SHOW}. Seated from the waitlist: Quinn."
        )
        night.console()
        expect(to.page.locator("#player-count")).to_contain_text("17")

        # Quinn, seated, pastes a list with a banned card from her phone.
        phone = night.open(browser, live_server)
        phone.login("quinn")
        night.paste_deck(phone, "Najeela, the Blade-Blossom", BANNED)
        expect(phone.page.locator(".deck-problems")).to_contain_text("Mana Crypt is banned")
        night.visits.remove(phone)
        phone.context.close()
        night.go(to, f"/events/{slug}/run/registration/")
        walk_ins = to.page.locator("p", has_text="Entered by the store")
        night.links[WALK_IN] = walk_ins.locator("a", has_text="seat link").get_attribute("href")
        del night.links[NO_SHOW]
        assert len(night.links) == 17

        # Round 1: 17 players in pods of 4+4+3+3+3.
        night.console()
        night.tap(to, "button:has-text('Pair round 1')")
        # Everyone but Pia is without a legal list: fifteen with none, Quinn's with a ban.
        night.go_on_past_lists(16, {"Quinn": "Mana Crypt is banned", "Walt": "no list"})
        first = pods_of(event, 1)
        assert sorted(len(p) for p in first.values()) == [3, 3, 3, 4, 4]
        night.go(night.phones, f"/events/{slug}/")
        lists = night.phones.page.locator("main")
        expect(lists).to_contain_text("Lists not legal at the start")
        expect(lists).to_contain_text("Quinn: list not legal")
        expect(lists).not_to_contain_text("Pia: ")
        expect(lists).not_to_contain_text("Mana Crypt")  # the decks are not public yet
        # The round's clock, in New York's time wherever it is shown (issue 43, bug 2).
        ends = Round.objects.get(tournament=event, number=1).ends_at.astimezone(STORE_ZONE)
        expect(night.phones.page.locator("#finder-title")).to_contain_text(
            f"ends {ends:%H:%M} New York time"
        )
        expect(to.page.locator("#round-time")).to_contain_text(f"time is up at {ends:%H:%M}")
        page = night.seat_page(WALK_IN)
        pod = next(n for n, names in first.items() if WALK_IN in names)
        expect(page.locator(".my-seat")).to_contain_text(
            f"Pod {pod} seat {first[pod].index(WALK_IN) + 1}"
        )
        expect(page.locator(".round-timer")).to_contain_text(f"{ends:%H:%M}")
        expect(page.locator(".round-timer")).to_contain_text("New York time")
        night.phones.shot("friday-seat-walk-in")

        drawn = first[3]
        for number, names in first.items():
            if number == 2:  # disputed: two claim the win, one backs the first
                a, b, c = names[:3]
                night.report(a, a)
                night.report(b, b)
                night.confirm(c, f"Confirm: {a} won")
                expect(night.phones.page.locator(".message.warning")).to_contain_text(
                    "sent different results"
                )
                continue
            if number == 3:  # drawn: a shared first place for the whole pod
                night.report(names[0], None)
                for name in names[1:]:
                    night.confirm(name, "Confirm")
                continue
            winner = names[-1]
            night.report(names[0], winner)
            for name in names[1:]:
                night.confirm(name, f"Confirm: {winner} won")
            wins[winner] = wins.get(winner, 0) + 1
        page = night.seat_page(drawn[0])
        expect(page.locator(".result-line")).to_be_visible()
        night.phones.shot("friday-drawn-pod")

        # The TO settles the dispute from the console: b's version.
        night.console()
        expect(to.page.locator("#report-counts")).to_contain_text("1 disputed")
        pod_2 = Table.objects.get(round__tournament=event, round__number=1, number=2)
        card = to.page.locator(f"#table-{pod_2.pk}")
        expect(card.locator(".report-state.disputed")).to_contain_text(f"agreed by {c}")
        to.shot("friday-console-dispute")
        night.tap(to, card.locator(f"button:has-text('Use this: {b} won')"))
        wins[b] = wins.get(b, 0) + 1
        expect(to.page.locator("#round-status")).to_contain_text("Every pod has a result")
        for name in first[2]:
            page = night.seat_page(name)
            expect(page.locator(".result-line")).to_contain_text(f"Result: {b} won")
        night.console()
        night.tap(to, "button:has-text('End round 1')")

        # Between rounds the TO drops a player who lost in pod 1.
        dropped = first[1][0]
        line = to.page.locator(
            "#entries li", has=to.page.locator(f".entry-name:text-is('{dropped}')")
        )
        line.locator("details.confirm > summary").click()
        night.tap(to, line.locator("button:has-text('Yes, drop')"))
        night.console()
        expect(to.page.locator("#entries li", has_text=dropped)).to_contain_text("dropped")

        # Rounds 2 and 3: 16 players, four pods of 4, each pod reporting from its phones.
        for number in (2, 3):
            night.console()
            night.tap(to, f"button:has-text('Pair round {number}')")
            pods = pods_of(event, number)
            assert sorted(len(p) for p in pods.values()) == [4, 4, 4, 4]
            assert dropped not in {n for names in pods.values() for n in names}
            if number == 2:
                # Nobody meets a player from their round-1 pod again (issue 31, bug 3).
                assert not met(first) & met(pods), met(first) & met(pods)
                expect(to.page.locator("main")).not_to_contain_text("met before")
                to.shot("friday-console-round-2")
            for names in pods.values():
                winner = names[number - 2]
                night.report(names[-1], winner)
                for name in names[:-1]:
                    night.confirm(name, f"Confirm: {winner} won")
                wins[winner] = wins.get(winner, 0) + 1
            if number == 2:
                night.seat_page(pods[1][0])
                expect(night.phones.page.locator(".result-line")).to_contain_text("Result:")
                night.phones.shot("friday-seat-round-2")
            night.console()
            expect(to.page.locator("#round-status")).to_contain_text("Every pod has a result")
            night.tap(to, f"button:has-text('End round {number}')")

        # The Swiss standings: the drawn pod drew (W-L-D), nobody else did.
        night.go(night.phones, f"/events/{slug}/standings/")
        rows = standings(night.phones)
        assert len(rows) == 17, sorted(rows)
        for name, row in rows.items():
            won, _, draws = row[3].split("-")
            assert int(draws) == (1 if name in drawn else 0), (name, row)
            assert int(won) == wins.get(name, 0), (name, row)
        night.phones.shot("friday-standings")

        # The top 4 plays one final pod; the top seed wins it, the others confirm.
        night.console()
        night.tap(to, "button:has-text('Start the top 4')")
        top = Tournament.objects.get(pk=event.pk)
        if not top.rounds.filter(number=4).exists():  # someone in the cut has no legal list
            without = to.page.locator(".without-legal-list li").count()
            assert 1 <= without <= 4, without
            night.go_on_past_lists(without, {})
        final = pods_of(event, 4)
        assert list(final) == [1] and len(final[1]) == 4
        champion = final[1][0]
        night.report(final[1][-1], champion)
        for name in final[1][:-1]:
            night.confirm(name, f"Confirm: {champion} won")
        night.phones.shot("friday-seat-final")
        wins[champion] = wins.get(champion, 0) + 1
        outside = next(name for name in night.links if name not in final[1] and name != dropped)
        page = night.seat_page(outside)
        expect(page.locator("#my-live")).to_contain_text("You are not in the top cut")
        expect(page.locator(".player-rounds tbody tr")).to_have_count(3)
        night.console()
        to.shot("friday-console-final")
        night.tap(to, "button:has-text('End the final')")
        assert Tournament.objects.get(pk=event.pk).status == "finished"
        night.go(night.phones, f"/events/{slug}/bracket/")
        expect(night.phones.page.locator("main")).to_contain_text(champion)
        night.phones.shot("friday-final")

        # The dropped player's page still has their round and their place (bug 5).
        page = night.seat_page(dropped)
        expect(page.locator("#my-live")).to_contain_text("You dropped after round 1")
        expect(page.locator(".player-rounds tbody tr")).to_have_count(1)
        expect(page.locator(".my-standing")).to_contain_text(re.compile(r"of 17 .*dropped"))
        night.phones.shot("friday-seat-dropped")

        # The league: the draw is a draw, not a win (bug 2), for the drawers and nobody else.
        night.go(night.phones, "/leagues/commander/")
        rows = standings(night.phones)
        for name in night.links:
            row = rows[name]
            assert (int(row[5]), int(row[6])) == (
                wins.get(name, 0),
                1 if name in drawn else 0,
            ), (name, row)
        night.phones.shot("friday-league")
    finally:
        night.close()
    assert not night.server_errors, night.server_errors
    # Known, not yet fixed: now and then htmx itself (django_htmx/htmx-2.min.js) is refused
    # an inline style on the TO console (/run/) under CSP style-src 'self', once or twice in a
    # night and not at a fixed step. Reported; every other page error fails the test.
    known = "Applying inline style violates"
    for visit in night.visits:
        left = [e for e in visit.errors if not e.startswith(known)]
        assert not left, night.console_errors
    assert all("/run/" in e for e in night.console_errors if known in e), night.console_errors
