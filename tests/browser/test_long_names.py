"""A 100-character name fits every page on a 390 px phone and a 1366 px laptop.

One such name once widened the TO's console to 1,007 px and pushed "drop" and "End round"
off the screen; later the TO's Registration page (500 px) and the organizer's Players page
(644 px) scrolled sideways on a phone and the league menu was cut at "Notifi" on a laptop.
The scene here is a league, a 1v1 event in its top cut, a pod event in round 1 and an event
taking registrations, whose players include a 100-character name with no space to break at
and another, dropped, with long words. An organizer, a TO (judge) and a player each sign in
and the test follows every link of the site from their first pages (not a list of pages,
which the next page would miss), checks each page at 390 and 1366 px and saves both
screenshots; the permission matrix's URL patterns that a role may open and no link reached
are reported too.

The same crawl is the site's accessibility check (issue 33), so that `make test` loads each
page once: on every page, at both widths, axe-core (tests/browser/a11y.py) finds no serious or
critical violation, its text is readable (WCAG AA contrast) in the light and the dark scheme,
and on the phone every control a person taps alone is at least 44x44 px. A visitor (not
signed in) is crawled too.
"""

import datetime
import os
import re
import time
from urllib.parse import urlsplit

import pytest
from django.urls import resolve

from achievements.services import achievement_save, claim_decline, claim_submit
from leagues import services as league_services
from leagues.models import PlayerClaim, Role
from seasons.series import invitation_decide, series_create, series_events_set, series_invite
from seasons.services import season_create, season_events_set
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)
from tournaments.services import registration as registration_services
from tournaments.services.entries import entry_drop, entry_register
from tournaments.services.events import tournament_create
from tournaments.services.results import table_report
from tournaments.services.rounds import round_end, round_pair
from tournaments.services.topcut import top_cut_start

from .a11y import LAYOUT_RULES, axe_missing, axe_violations, small_targets, unreadable_in
from .conftest import KEEP_SCREENSHOTS, PHONE, SCREENSHOTS, Visit

pytestmark = pytest.mark.django_db(transaction=True)

# One unbroken word (the worst case: nothing to wrap at) and a name of long words.
UNBROKEN = ("Wolfeschlegelsteinhausenbergerdorff" * 3)[:100]
WORDY = ("Persephone-Evangeline Montgomery-Worthington " * 3)[:99] + "z"
OTHERS = ["Ann Archer", "Bob Baker", "Cy Cole", "Dee Drake", "Eve Evans", "Finn Ford"]


@pytest.fixture
def scene(db) -> dict:
    league = LeagueFactory(name="Friday Commander", slug="friday", game_label="Commander")
    org = league.organization
    organizer_of(org, username="olive")
    players = [PlayerFactory(organization=org, name=n) for n in [UNBROKEN, WORDY, *OTHERS]]
    long_one, wordy = players[:2]
    day = datetime.date(2026, 10, 2)
    for week in range(3):
        pod = players[week : week + 4]
        GameFactory(league=league, played_on=day, players=pod, notes=f"Week {week + 1}")
        day += datetime.timedelta(days=7)
    game = league.games.order_by("played_on").first()
    # A correction, so History has a before and an after with the long names.
    results = [
        league_services.ResultIn(player=r.player, place=r.placement, seat=r.seat)
        for r in game.results.all()
    ]
    league_services.game_update(
        game=game, results=results, played_on=game.played_on, notes="corrected"
    )
    batch = league_services.import_batch_create(
        league=league, text=f"x,2026-11-20,{UNBROKEN},{WORDY},Ann Archer\n", filename="night.csv"
    )

    # 1v1: one Swiss round, then the top 4 being played; the wordy player dropped.
    swiss = tournament_create(
        league=league, name=f"Open {UNBROKEN}"[:120], top_cut=4, swiss_rounds=1
    )
    entries = [entry_register(tournament=swiss, name=p.name) for p in players]
    first = round_pair(tournament=swiss)
    for table in first.tables.all():
        seats = list(table.seats.order_by("position"))
        if len(seats) > 1:  # with its games: the scores ("0\u20132") are on the pages too
            games = {seats[0].entry_id: 2, seats[1].entry_id: 0}
            table_report(table=table, winner=seats[0].entry, game_wins=games)
    round_end(round_=first)
    entry_drop(entry=entries[1])
    top_cut_start(tournament=swiss)

    # Pods: round 1 being played, the wordy player dropped during it.
    pods = tournament_create(league=league, name="Pod Night", format="pods")
    pod_entries = [entry_register(tournament=pods, name=p.name) for p in players]
    round_pair(tournament=pods)
    entry_drop(entry=pod_entries[1])
    # Online registration: two long names seated, one waiting (the TO's Registration page).
    signups = tournament_create(league=league, name="Next Friday", format="pods")
    registration_services.registration_settings_set(
        tournament=signups, open=True, cap=2, deadline=None, note=""
    )
    for player in (long_one, wordy, players[2]):
        registration_services.registration_join(tournament=signups, player=player)
    registration_services.check_in_open(tournament=signups)

    # A points season counting the 1v1 event, so its table, a player's finishes (the long
    # names') and its point tables are pages the crawl reaches from the league's menu.
    season = season_create(
        league=league,
        name=f"Winter {UNBROKEN}"[:80],
        starts_on=day - datetime.timedelta(days=60),
        ends_on=day + datetime.timedelta(days=60),
        preset="store_points",
    )
    season_events_set(season=season, choices={swiss.pk: season.event_types.get().pk})
    # A series the store hosts, another store taking part, the 1v1 event counted in its
    # season (the long names in its table); and another store's invitation waiting.
    beta = OrganizationFactory(name="Beta Cards", slug="beta")
    beta_owner = organizer_of(beta, role=Role.OWNER, username="bea")
    series = series_create(organization=org, name=f"Cup {UNBROKEN}"[:120])
    invitation_decide(
        member=series_invite(series=series, organization=beta), accept=True, by=beta_owner
    )
    series_season = season_create(
        series=series,
        name=f"Cup season {UNBROKEN}"[:80],
        starts_on=season.starts_on,
        ends_on=season.ends_on,
        preset="store_points",
    )
    series_events_set(
        season=series_season,
        organization=org,
        choices={swiss.pk: series_season.event_types.get().pk},
    )
    series_invite(series=series_create(organization=beta, name="Beta Open"), organization=org)

    # Achievements in the league: the long name's claim waiting in the first game, a
    # podmate's waiting for them, and the wordy name's declined (for the organizer to settle).
    knockout = achievement_save(
        league=league, name="Knockout", points=2, per="game", description=f"Beat {WORDY}"
    )
    salt = achievement_save(league=league, name=f"Salt {WORDY}"[:80], points=-1, per="night")
    claim_submit(game=game, player=long_one, achievement=knockout)
    claim_submit(game=game, player=players[2], achievement=salt)
    claim_decline(
        claim=claim_submit(game=game, player=wordy, achievement=knockout), podmate=players[2]
    )

    # Who signs in: a TO (judge) of the store and the long name's own account, with a claim
    # waiting for the organizer on the Players page.
    organizer_of(org, role=Role.JUDGE, username="judy")
    long_one.user = UserFactory(username="pat")
    long_one.save(update_fields=["user"])
    PlayerClaim.objects.create(player=wordy, user=UserFactory(username=UNBROKEN[:150]))
    return {
        "league": league,
        "long": long_one,
        "wordy": wordy,
        "game": game,
        "batch": batch,
        "events": [swiss, pods],
    }


def overflow(visit) -> dict:
    """The page's scroll width, and the widest elements sticking out past the screen."""
    return visit.page.evaluate(
        """() => {
          const limit = document.documentElement.clientWidth;
          const scrolls = (el) => el.closest(".league-nav ul, .table-wrap, .bracket");
          const out = (el) => el.getBoundingClientRect().right > limit + 1 && !scrolls(el);
          // The innermost elements that stick out: the ones to fix.
          const wide = [...document.querySelectorAll("body *")]
            .filter((el) => out(el) && ![...el.children].some(out))
            .slice(0, 5)
            .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
          return {width: document.documentElement.scrollWidth, wide};
        }"""
    )


# --- Every page each role reaches -------------------------------------------------------------

# Who is crawled, and from where: the pages a person starts from once signed in.
ACCOUNTS = {"visitor": None, "organizer": "olive", "judge": "judy", "player": "pat"}
# The language each role's browser asks for (issue 45): the long German words and Japanese,
# which breaks anywhere and has no spaces, on the same pages, each page once per role; the
# TO's console also in English. German runs longest of the eight languages.
# LONG_NAMES_LANGUAGE=pl-PL (say) crawls every role in one language, while fixing its layout.
LANGUAGE = {"visitor": "ja-JP", "organizer": "de-DE", "judge": "en-US", "player": "de-DE"}
if os.environ.get("LONG_NAMES_LANGUAGE"):
    LANGUAGE = dict.fromkeys(LANGUAGE, os.environ["LONG_NAMES_LANGUAGE"])
# The permission matrix's name for each crawled role.
MATRIX_ROLE = {"visitor": "anonymous"}
START = ["/", "/me/"]
LAPTOP = {"width": 1366, "height": 900}
# Not pages to lay out: log-out, downloads and feeds, the API, Django's admin (test_admin_look.py),
# htmx fragments polled by a page already visited, and the TV's full-screen board.
SKIP = re.compile(
    r"logout|/admin/|/api/|\.(csv|ics|json|txt|png|svg)$|/download|/export|/live/|/stream"
)
# The same page for another player looks the same: one address per URL pattern and object
# (a league's, store's or event's slug), the one whose link names a long name if any, and
# one filtered (a query string).
PER_PATTERN = 1
# Bounded, whatever a page links to: a crawl that finds more fails and says so.
MAX_PAGES = 160  # the organizer reached about 125 with series and achievement leagues
# URL patterns a signed-in person may GET (the permission matrix says OK) that the crawl is
# not expected to reach from a link: fragments that htmx fetches into a page the crawl
# visits, downloads, the API, and allauth's steps reached from a mail or while signed out
# (and its Discord connections, linked only where a Discord application is set up).
NOT_LINKED = re.compile(
    r"^(api/|admin/|jobs/|accounts/(?!email/|password/change/)"
    r"|leagues/<slug:slug>/(seasons/<int:pk>/)?export\.csv"
    r"|series/<slug:series>/seasons/<int:pk>/export\.csv"
    r"|events/<slug:slug>/calendar\.ics"
    r"|events/<slug:slug>/(run/live|player-names|entries/<int:entry_id>/actions"
    r"|tables/<int:table_id>/order|check-in/<str:token>|me/<str:token>)/"
    r"|leagues/<slug:slug>/games/new/row/"
    # The web app's files and the event's state the console's script fetches: no pages.
    r"|offline/|events/<slug:slug>/run/offline/(state|snapshot)/"
    # The commander picker's suggestions, fetched as the player types.
    r"|cards/commanders/"
    r"|robots\.txt"  # for search engines, linked from nowhere
    r"|jsi18n/"  # the browser's message catalogue: a script the pages load, not a page
    r"|style-guide/)"  # development only, linked from nowhere (test_style_guide.py)
)


# Seconds each role's crawl spent in the accessibility checks (printed: `make test` time matters).
A11Y_SECONDS: dict[str, float] = {}


def route_of(address: str) -> tuple[str, str, bool]:
    """(URL pattern, object slug, filtered) of a site address: the unit `PER_PATTERN` counts
    (a page and the same page filtered, ?q= or ?league=, are both visited)."""
    url = urlsplit(address)
    match = resolve(url.path)
    slug = str(match.kwargs.get("slug") or match.kwargs.get("org") or "")
    return match.route, slug, bool(url.query)


def links(visit) -> list[tuple[str, str]]:
    """(address, text) of every link on the page to the same site, long names first."""
    found = visit.page.eval_on_selector_all(
        "a[href]", "els => els.map((a) => [a.href, a.textContent || ''])"
    )
    base = urlsplit(visit.base)
    out = []
    for href, text in found:
        url = urlsplit(href)
        if (url.scheme, url.netloc) != (base.scheme, base.netloc):
            continue
        address = url.path + (f"?{url.query}" if url.query else "")
        if not SKIP.search(url.path):
            out.append((address, text))
    return out


def named_long(text: str) -> bool:
    return UNBROKEN[:20] in text or WORDY[:20] in text


# Words of everyday length (2 to 16 letters between spaces, hyphens and slashes) that the page
# broke inside themselves across two lines, as "playi / ng" once was: a long name may break
# anywhere, a word beside it may not. A match's score ("0\u20132", "2\u20131\u20131") is one
# word too, though its dashes would let a line break (issue 43: "loss 0\u2013 / 2" on a phone).
# Addresses (a check-in link) and the words of the scene's long names (`names`) may break;
# hidden elements and text fields are not read. Japanese is written without spaces and may
# break between any two of its characters: its kana and kanji are no part of a word here.
BROKEN_WORDS = """(names) => {
    const broken = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || el.closest("script, style, textarea, option, select, [hidden]")) continue;
        if (!el.offsetParent && getComputedStyle(el).position !== "fixed") continue;
        if (el.closest("details:not([open])") && !el.closest("summary")) continue;  // folded
        if (node.textContent.includes("://")) continue;
        const cjk = "\\u3000-\\u30ff\\u3400-\\u9fff\\uff00-\\uffef";
        const words = new RegExp(
            "\\\\d+(?:\\\\u2013\\\\d+)+|[^\\\\s\\\\-\\\\u2013\\\\u2014/" + cjk + "]+", "g");
        for (const match of node.textContent.matchAll(words)) {
            if (match[0].length < 2 || match[0].length > 16 || names.includes(match[0])) continue;
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const rects = [...range.getClientRects()].filter((r) => r.width > 0);
            if (new Set(rects.map((r) => Math.round(r.top))).size > 1) {
                broken.push(`${el.tagName.toLowerCase()}.${el.className}: ${match[0]}`);
            }
        }
    }
    return broken.slice(0, 5);
}"""


def measure(visit, width: int) -> list[str]:
    """What is too wide on this page at this width: the page itself, and the league menu when
    it is cut (on a laptop every tab is in view, on two lines if need be); and everyday words
    broken inside themselves."""
    problems = []
    seen = overflow(visit)
    if seen["width"] > width:
        problems.append(f"{seen['width']} px wide ({', '.join(seen['wide'])})")
    broken = visit.page.evaluate(BROKEN_WORDS, re.split(r"[\s\-/]+", f"{UNBROKEN} {WORDY}"))
    if broken:
        problems.append(f"words broken inside: {'; '.join(broken)}")
    menu = visit.page.evaluate(
        """() => [...document.querySelectorAll('.league-nav ul, .site-nav')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => `${el.className || el.tagName.toLowerCase()}: ${el.scrollWidth} px`
                       + ` in ${el.clientWidth} px`)"""
    )
    if width >= LAPTOP["width"] and menu:
        problems.append(f"menu cut: {', '.join(menu)}")
    return problems


def crawl(visit, role: str) -> tuple[list[str], set[str], int]:
    """Visit every page `role` reaches by following links from START, at 390 and 1366 px;
    screenshot each at both widths (with SCREENSHOTS=1). Returns (problems, URL patterns seen,
    pages visited)."""
    queue = list(START)
    seen_urls: set[str] = set()
    per_pattern: dict[tuple[str, str], int] = {}
    problems: list[str] = []
    routes: set[str] = set()
    index: list[str] = []  # which screenshot shows which address
    while queue:
        address = queue.pop(0)
        if address in seen_urls:
            continue
        key = route_of(address)
        if per_pattern.get(key, 0) >= PER_PATTERN:
            continue
        per_pattern[key] = per_pattern.get(key, 0) + 1
        seen_urls.add(address)
        assert len(seen_urls) <= MAX_PAGES, f"{role}: more than {MAX_PAGES} pages: {seen_urls}"
        visit.page.set_viewport_size(PHONE)
        response = visit.go(address)
        assert response.status == 200, f"{role}: {address} answered {response.status}"
        routes.add(key[0])
        name = f"crawl-{role}-{len(seen_urls):03d}"
        for width, size in (("390", PHONE), ("1366", LAPTOP)):
            visit.page.set_viewport_size(size)
            found = measure(visit, size["width"])
            checking = time.monotonic()
            if size is PHONE:
                found += axe_violations(visit.page)
                found += [f"tap target under 44x44 px: {t}" for t in small_targets(visit.page)]
            else:
                found += axe_violations(visit.page, rules=LAYOUT_RULES)
                # The dark scheme's contrast, at one width: the colours are the tokens of the
                # scheme and do not depend on the width. Then back to light for the screenshot.
                found += unreadable_in(visit, "dark")
                visit.page.emulate_media(color_scheme="light")
            A11Y_SECONDS[role] = A11Y_SECONDS.get(role, 0) + time.monotonic() - checking
            for problem in found:
                problems.append(f"{role} at {width} px: {address}: {problem}")
            visit.shot(f"{name}-{width}")
        index.append(f"{name}\t{address}")
        fresh = [(a, text) for a, text in links(visit) if a not in seen_urls]
        # Breadth first, except that links naming a long name jump the queue: of a pattern's
        # few addresses, the one with the long name is among those visited.
        queue = [a for a, t in fresh if named_long(t)] + queue
        queue += [a for a, t in fresh if not named_long(t)]
    if KEEP_SCREENSHOTS:
        (SCREENSHOTS / f"crawl-{role}.txt").write_text("\n".join(index) + "\n")
    return problems, routes, len(seen_urls)


def reachable_routes(role: str) -> set[str]:
    """URL patterns the permission matrix lets `role` GET in its own store's public league."""
    from tests.test_permission_matrix import MATRIX

    out = set()
    role = MATRIX_ROLE.get(role, role)
    for route, rule in MATRIX.items():
        if "GET" not in rule.methods:
            continue
        expect = rule.expect[role]
        if (expect["a_pub"] if isinstance(expect, dict) else expect) == "ok":
            out.add(route)
    return out


@pytest.mark.parametrize("role", list(ACCOUNTS))
def test_every_page_each_role_reaches_fits_a_phone_and_a_laptop(browser, live_server, scene, role):
    """Visitor, organizer, TO and player (one test each, so that `make test`'s processes share
    them): every page they reach fits 390 and 1366 px, the league menu is never cut at 1366,
    axe finds nothing serious and the phone's controls are big enough to tap. All the
    problems are reported at once."""
    assert len(UNBROKEN) == len(WORDY) == 100
    assert not axe_missing(), axe_missing()
    # LONG_NAMES_ROLES=player (say) crawls one role, while fixing a page.
    only = os.environ.get("LONG_NAMES_ROLES", ",".join(ACCOUNTS)).split(",")
    if role not in only:
        pytest.skip(f"LONG_NAMES_ROLES leaves out {role}")
    started = time.monotonic()
    visit = Visit(browser, live_server, PHONE, locale=LANGUAGE[role])
    try:
        if ACCOUNTS[role]:
            visit.login(ACCOUNTS[role])
        problems, routes, count = crawl(visit, role)
        lang = visit.page.evaluate("document.documentElement.lang")
        assert lang == LANGUAGE[role].split("-")[0], f"{role}: a page in {lang!r}"
    finally:
        visit.context.close()
    print(
        f"{role}: {count} pages in {time.monotonic() - started:.0f} s, "
        f"{A11Y_SECONDS.get(role, 0):.0f} s of them in the accessibility checks"
    )
    assert not visit.errors, f"{role}: JavaScript errors: {visit.errors}"
    missed = {r for r in reachable_routes(role) - routes if not NOT_LINKED.match(r)}
    report = []
    if problems:
        report += [f"pages with problems ({count} pages visited):", *problems]
    if missed:
        report += ["pages no link reached (link them, or say in NOT_LINKED why):"]
        report += [f"{role}: {route}" for route in sorted(missed)]
    assert not report, "\n".join(report)


def test_the_console_keeps_drop_and_end_round_on_screen(phone, scene):
    phone.login("olive")
    for event in scene["events"]:
        phone.go(f"/events/{event.slug}/run/")
        page = phone.page
        for label in (re.compile(r"^End (round \d|the )"), "drop"):
            box = page.locator("button, summary", has_text=label).first.bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"], label
        if event.is_pods:  # the dropped player's line, with "undo drop", fits too
            undo = page.locator("button", has_text="undo drop").first.bounding_box()
            assert undo["x"] + undo["width"] <= PHONE["width"]
        # Dropping the long name asks first, on the screen too.
        line = page.locator(".entries li", has_text=UNBROKEN)
        line.locator("summary", has_text="drop").click()
        confirm = line.locator("button", has_text="Yes, drop")
        box = confirm.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        kind = "pods" if event.is_pods else "1v1"
        phone.shot(f"long-name-{kind}-console-drop-asked-phone")


# Each word of a cell, and the number of lines its letters sit on: a word broken inside itself
# ("playi / ng") sits on two.
WORD_LINES = """(cell) => {
    const out = {};
    const text = cell.firstChild;
    for (const match of text.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, match.index);
        range.setEnd(text, match.index + match[0].length);
        out[match[0]] = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }
    return out;
}"""


def test_a_players_rounds_keep_each_result_word_whole_beside_long_names(phone, scene):
    """Issue 31: at 390 px, with long names beside it, a round's result read "playi / ng"."""
    phone.login("pat")
    pods = scene["events"][1]
    phone.go(f"/events/{pods.slug}/me/")
    cell = phone.page.locator(".player-rounds td.result").first
    assert cell.inner_text().strip() == "playing"
    assert cell.evaluate(WORD_LINES) == {"playing": 1}
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_players_rounds_keep_each_score_whole_beside_long_names(phone, scene):
    """Issue 43: at 390 px a 1v1 round's result read "loss 0\u2013 / 2": the score broke at its
    dash. The long name's own rounds in the 1v1 event, a 100-character name beside them."""
    phone.login("pat")
    swiss = scene["events"][0]
    phone.go(f"/events/{swiss.slug}/me/")
    cell = phone.page.locator(".player-rounds td.result").first
    words = cell.evaluate(WORD_LINES)
    assert set(words) in ({"win", "2\u20130"}, {"loss", "0\u20132"}), words
    assert set(words.values()) == {1}, words
    assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
