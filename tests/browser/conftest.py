"""Browser tests: Debian's chromium driven by Playwright against pytest-django's live server.

Playwright cannot download its own browser here, so it launches /usr/bin/chromium (installed
by `make test`). Each test gets a fresh context (no cookies) at phone or desktop width. With
SCREENSHOTS=1 in the environment (`make test SCREENSHOTS=1`) the tests save screenshots of
the pages they visit into tests/browser/screenshots/ (git-ignored) for a person to look at;
without it they take none (a full-page PNG of every step was a quarter of the page crawl's
time) except of a `phone` or `desktop` page whose test failed.
"""

import datetime
import os
from pathlib import Path

import pytest

from tests.factories import GameFactory, LeagueFactory, PlayerFactory, organizer_of

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make for
# setup are still synchronous and safe, so let Django allow them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
SCREENSHOTS = Path(__file__).parent / "screenshots"
KEEP_SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


# Set on a test whose call failed, so its `phone` or `desktop` page is kept (`_closed`).
FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call" and report.failed:
        item.stash[FAILED] = True
    return report


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-background-networking",
                "--disable-gpu",
                "--disable-component-update",
                "--no-first-run",
            ],
        )
        yield browser
        browser.close()


class Visit:
    """A browser tab on the live server, with shortcuts for what the tests keep doing."""

    def __init__(self, browser, live_server, viewport, **options):
        """`options`: more of the browser context's (a phone's `timezone_id`, `locale`)."""
        self.base = live_server.url
        self.context = browser.new_context(viewport=viewport, **options)
        self.context.set_default_timeout(10_000)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _console(self, message):
        # A page answered with 400 (a form with errors) is expected; broken assets are not,
        # and _response reports those with their address.
        if message.type == "error" and not message.text.startswith("Failed to load resource"):
            self.errors.append(message.text)

    def _response(self, response):
        if response.status >= 400 and response.request.resource_type != "document":
            self.errors.append(f"{response.status} for {response.url}")

    def go(self, path: str):
        # goto returns once the page has loaded (its styles and scripts included). No page
        # fetches its content after that (htmx here only polls, and swaps on input), so waiting
        # for the network to idle as well cost half a second a page and checked nothing more.
        return self.page.goto(self.base + path)

    def login(self, username: str, password: str = "correct-horse-battery"):
        self.go("/accounts/login/")
        self.page.fill("#id_login", username)
        self.page.fill("#id_password", password)
        # The form posts and the site answers with a redirect to the next page: wait for
        # that page's load, not for half a second of network quiet after it.
        with self.page.expect_navigation():
            self.page.click("button[type=submit]")

    def open_menu(self, scope: str = ".league-nav"):
        """Open the tabs' menu in `scope` on a phone (on a laptop the tabs are all in view)."""
        summary = self.page.locator(f"{scope} details.tabs > summary").first
        if summary.is_visible() and summary.locator("xpath=..").get_attribute("open") is None:
            summary.click()

    def shot(self, name: str, *, always: bool = False) -> Path:
        """The whole page as tests/browser/screenshots/NAME.png, when SCREENSHOTS=1 (or
        `always`)."""
        path = SCREENSHOTS / f"{name}.png"
        if KEEP_SCREENSHOTS or always:
            SCREENSHOTS.mkdir(exist_ok=True)
            self.page.screenshot(path=str(path), full_page=True)
        return path


def _closed(visit: Visit, request, label: str) -> None:
    """After the test: its page as it was when the test failed, then the context closed."""
    if request.node.stash.get(FAILED, False):
        visit.shot(f"failed-{request.node.name}-{label}", always=True)
    visit.context.close()
    assert not visit.errors, f"JavaScript errors in the page: {visit.errors}"


@pytest.fixture
def phone(browser, live_server, request):
    visit = Visit(browser, live_server, PHONE)
    yield visit
    _closed(visit, request, "phone")


@pytest.fixture
def desktop(browser, live_server, request):
    visit = Visit(browser, live_server, DESKTOP)
    yield visit
    _closed(visit, request, "desktop")


NAMES = ["Ann Archer", "Bob Baker", "Cy Cole", "Dee Drake", "Eve Evans", "Finn Ford"]


def friday_league() -> dict:
    """A public league of six players with four weeks of 3-player games, and its organizer."""
    league = LeagueFactory(name="Friday Commander", slug="friday", game_label="Commander")
    org = league.organization
    players = [PlayerFactory(organization=org, name=n) for n in NAMES]
    day = datetime.date(2026, 10, 2)
    for week in range(4):
        for i in range(0, 6, 3):
            pod = players[i : i + 3]
            order = pod[week % 3 :] + pod[: week % 3]
            GameFactory(league=league, played_on=day, players=order, notes=f"Week {week + 1}")
        day += datetime.timedelta(days=7)
    organizer = organizer_of(org, username="olive")
    return {"league": league, "players": players, "organizer": organizer}
