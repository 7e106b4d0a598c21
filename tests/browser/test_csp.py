"""Every page works under the Content-Security-Policy: the browser reports no violation.

The policy (config/settings.py) allows no inline script or style and no eval, so anything left
inline in a template, or an htmx feature that needs eval, is blocked by the browser and shows
up here twice: as a `securitypolicyviolation` event (recorded by a script added before the
page's own) and as a console error naming the Content Security Policy. Each test also checks
that the htmx interactions on its pages still do their job under the policy.

Browser tests wait with `expect(locator)...` or `page.evaluate`, not `page.wait_for_function`:
Playwright runs that function's text through eval inside the page, which the policy blocks.
"""

import pytest
from playwright.sync_api import expect

from leagues.models import Game, ImportBatch
from tournaments.models import Table, Tournament
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.rounds import round_pair

from .conftest import PHONE, friday_league

pytestmark = pytest.mark.django_db(transaction=True)


# Runs in every document before the page's own scripts.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} ` +
    `at ${event.sourceFile || location.pathname}:${event.lineNumber} ${event.sample || ""}`
  );
});
"""


class CSPWatch:
    """Collects CSP violations and the policy header of every page a Visit loads."""

    def __init__(self, visit):
        self.visit = visit
        self.page = visit.page
        self.violations: list[str] = []
        self.policies: dict[str, str | None] = {}
        self.page.add_init_script(RECORD_VIOLATIONS)
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _console(self, message):
        if "Content Security Policy" in message.text:
            self.violations.append(f"console: {message.text}")

    def _response(self, response):
        if response.request.resource_type == "document":
            self.policies[response.url] = response.headers.get("content-security-policy")

    def collect(self, where: str) -> list[str]:
        """Move the violations the current page recorded into self.violations."""
        found = self.page.evaluate("window.__cspViolations ? window.__cspViolations.splice(0) : []")
        self.violations.extend(f"{where}: {text}" for text in found)
        return found

    def go(self, path: str):
        response = self.visit.go(path)
        self.collect(path)
        return response

    def assert_clean(self):
        self.collect(self.page.url)
        assert self.policies, "no page was loaded"
        for url, policy in self.policies.items():
            assert policy and "script-src 'self'" in policy, f"{url} has no policy: {policy!r}"
            assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, policy
        assert not self.violations, "\n".join(self.violations)


@pytest.fixture
def scene(db):
    return friday_league()


def test_the_watch_sees_a_violation(phone, scene):
    """The checks below can fail: an inline style and an inline script are reported."""
    watch = CSPWatch(phone)
    watch.go("/")
    phone.page.evaluate(
        """() => {
          document.body.insertAdjacentHTML("beforeend", '<p style="color: red">inline</p>');
          const script = document.createElement("script");
          script.textContent = "window.ranInline = true";
          document.body.append(script);
        }"""
    )
    # The events come a moment later (page.wait_for_function would need eval, which is blocked).
    phone.page.evaluate(
        """async () => {
          for (let i = 0; i < 250 && window.__cspViolations.length < 2; i++) {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }"""
    )
    assert phone.page.evaluate("window.ranInline") is None  # the inline script did not run
    found = watch.collect("/")
    assert any(text.startswith("style-src") for text in found), found
    assert any(text.startswith("script-src") for text in found), found
    phone.errors.clear()  # the console errors of those two violations were the point


def test_public_pages(phone, scene):
    watch = CSPWatch(phone)
    page = phone.page
    watch.go("/")
    phone.shot("csp-home-phone")
    watch.go("/leagues/friday/")
    page.fill("input[name=q]", "dee")  # htmx live search: the table is swapped in place
    expect(page.locator("#standings tbody tr")).to_have_count(1)
    page.locator("th a", has_text="Games").click()
    page.wait_for_url("**sort=games**")
    watch.collect("standings")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.shot("csp-standings-phone")
    watch.go("/leagues/friday/games/")
    ann = scene["players"][0]
    watch.go(f"/leagues/friday/players/{ann.pk}/")
    chart = page.locator("svg.rating-chart")
    assert chart.is_visible()
    # The chart's look comes from guildhall.css (classes), not from inline styles.
    line = page.locator("svg.rating-chart path.line")
    assert line.evaluate("el => getComputedStyle(el).fill") == "none"
    assert line.evaluate("el => getComputedStyle(el).strokeWidth") == "2.5px"
    phone.shot("csp-player-chart-phone")
    watch.go("/leagues/friday/lab/")
    assert page.locator("table.lab tbody tr").count() == 5
    watch.go("/accounts/login/")
    assert page.locator("form.card").evaluate("el => getComputedStyle(el).maxWidth") == "416px"
    page.fill("#id_login", "olive")
    page.fill("#id_password", "wrong")
    page.click("button[type=submit]")
    page.wait_for_load_state("networkidle")
    assert page.locator(".error-summary").is_visible()  # the GOV.UK summary, on top
    phone.shot("csp-login-error-phone")
    watch.assert_clean()


def test_organizer_pages_and_the_admin(desktop, scene, tmp_path):
    watch = CSPWatch(desktop)
    page = desktop.page
    desktop.login("olive")
    watch.collect("login")
    # The game form: htmx adds finish rows; the game is saved.
    watch.go("/leagues/friday/games/new/")
    page.fill("#id_player_0", "Eve Evans")
    page.fill("#id_player_1", "Ann Archer")
    page.fill("#id_player_2", "Bob Baker")
    page.click("text=+ Add a player")
    page.wait_for_selector("#id_player_4")
    page.fill("#id_player_4", "Cy Cole")
    desktop.shot("csp-add-game-desktop")
    page.click("button:has-text('Save game')")
    page.wait_for_load_state("networkidle")
    assert "Game saved" in page.locator(".messages").inner_text()
    assert Game.objects.filter(league=scene["league"]).count() == 9
    watch.collect("game form")
    # Import: upload, preview (with a problem line), import.
    csv = tmp_path / "games.csv"
    csv.write_text(
        ",11/6/2026,Ann Archer,Bob Baker,Cy Cole\n"
        ",11/13/2026,Dee Drake,Eve Evans,Finn Ford\n"
        ",not a date,Ann Archer,Bob Baker\n"
    )
    watch.go("/leagues/friday/import/")
    page.set_input_files("input[type=file]", str(csv))
    page.get_by_role("button", name="Upload and preview").click()
    page.wait_for_url("**/imports/*/")
    watch.collect("import preview")
    desktop.shot("csp-import-preview-desktop")
    page.get_by_role("button", name="Import the 2 valid rows and skip 1").click()
    page.wait_for_url("**/leagues/friday/")
    assert Game.objects.filter(league=scene["league"]).count() == 11
    watch.collect("import done")
    # The admin: index, a changelist, a change form and the stored import file.
    game = Game.objects.filter(league=scene["league"]).latest("id")
    batch = ImportBatch.objects.latest("id")
    for path in [
        "/admin/",
        "/admin/leagues/game/",
        f"/admin/leagues/game/{game.pk}/change/",
        "/admin/leagues/player/",
        f"/admin/leagues/importbatch/{batch.pk}/change/",
    ]:
        response = watch.go(path)
        assert response.status == 200, path
        assert page.locator("#content").is_visible(), path
    # The stored file keeps its line breaks and wraps, from admin.css rather than style="...".
    pre = page.locator("pre.import-file")
    assert pre.evaluate("el => getComputedStyle(el).whiteSpace") == "pre-wrap"
    desktop.shot("csp-admin-importbatch-desktop")
    watch.go("/admin/leagues/game/add/")
    watch.go("/admin/leagues/game/")
    page.check("#action-toggle")  # the admin's own scripts (static files) still run
    expect(page.locator(".action-counter")).to_contain_text("11 of 11 selected")
    desktop.shot("csp-admin-changelist-desktop")
    watch.assert_clean()


def test_a_1v1_event_from_the_to_console_to_the_projector(phone, scene, browser, live_server):
    event = tournament_create(league=scene["league"], name="Open Swiss", top_cut=4)
    for player in scene["players"]:
        entry_register(tournament=event, name=player.name)
    round_ = round_pair(tournament=event)
    watch = CSPWatch(phone)
    page = phone.page
    phone.login("olive")
    watch.go(f"/events/{event.slug}/run/")
    card = page.locator("article.match").first
    card.locator("button", has_text="2-1").click()  # htmx posts and swaps the card
    expect(page.locator("article.match.reported")).to_have_count(1)
    table = round_.tables.order_by("number").first()
    assert Table.objects.get(pk=table.pk).winner_id is not None
    phone.shot("csp-event-run-phone")
    watch.collect("TO console")
    watch.go(f"/events/{event.slug}/rounds/1/")
    watch.go(f"/events/{event.slug}/")
    assert page.locator("li.pairing").count() == 3
    watch.go(f"/events/{event.slug}/standings/")
    watch.go(f"/events/{event.slug}/bracket/")
    watch.go("/leagues/friday/events/")
    watch.go(f"/events/{event.slug}/projector/")
    assert page.locator("ol.seats li").count() == 6
    phone.shot("csp-projector-phone")
    watch.assert_clean()


def test_a_pod_event_result_from_the_to_console(phone, scene):
    event = tournament_create(league=scene["league"], name="Pod Night", format="pods")
    for player in scene["players"]:
        entry_register(tournament=event, name=player.name)
    round_pair(tournament=event)
    watch = CSPWatch(phone)
    page = phone.page
    phone.login("olive")
    watch.go(f"/events/{event.slug}/run/")
    cards = page.locator("article.pod")
    assert cards.count() == 2
    winner = cards.nth(0).locator("button.seat").nth(1)
    winner_name = winner.locator(".name").inner_text()
    winner.click()
    expect(page.locator("article.pod.reported")).to_have_count(1)
    second = cards.nth(1)
    second.locator("summary").click()
    selects = second.locator("select")
    expect(selects.first).to_be_visible()  # the form is fetched when the TO opens it
    for index in range(selects.count()):
        selects.nth(index).select_option(str(index + 1))
    second.locator("button:has-text('Save the order')").click()
    expect(page.locator("article.pod.reported")).to_have_count(2)
    assert "Every pod has a result" in page.locator("#round-status").inner_text()
    pods = list(Tournament.objects.get(pk=event.pk).rounds.get(number=1).tables.order_by("number"))
    assert pods[0].winner.player.name == winner_name
    assert pods[1].has_full_order
    phone.shot("csp-pods-run-phone")
    watch.assert_clean()
