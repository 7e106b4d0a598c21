"""A 100-character name fits every page on a 390 px phone: nothing scrolls sideways.

One such name once widened the TO's console to 1,007 px and pushed "drop" and "End round"
off the screen. The scene here is a league, a 1v1 event in its top cut and a pod event in
round 1, whose players include a 100-character name with no space to break at and another,
dropped, with long words; every page a visitor, a player or an organizer opens is visited at
390 px and its scroll width checked, and each is saved as a screenshot (and at desktop width).
"""

import datetime

import pytest

from leagues import services as league_services
from tests.factories import GameFactory, LeagueFactory, PlayerFactory, organizer_of
from tournaments import services

from .conftest import PHONE

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
    swiss = services.tournament_create(
        league=league, name=f"Open {UNBROKEN}"[:120], top_cut=4, swiss_rounds=1
    )
    entries = [services.entry_register(tournament=swiss, name=p.name) for p in players]
    first = services.round_pair(tournament=swiss)
    for table in first.tables.all():
        seats = list(table.seats.order_by("position"))
        if len(seats) > 1:
            services.table_report(table=table, winner=seats[0].entry)
    services.round_end(round_=first)
    services.entry_drop(entry=entries[1])
    services.top_cut_start(tournament=swiss)

    # Pods: round 1 being played, the wordy player dropped during it.
    pods = services.tournament_create(league=league, name="Pod Night", format="pods")
    pod_entries = [services.entry_register(tournament=pods, name=p.name) for p in players]
    services.round_pair(tournament=pods)
    services.entry_drop(entry=pod_entries[1])
    return {
        "league": league,
        "long": long_one,
        "wordy": wordy,
        "game": game,
        "batch": batch,
        "events": [swiss, pods],
    }


# Pages that show no player's name (they are checked all the same).
NAMELESS = {"home", "event-new", "import", "rating-lab", "rating-settings", "pods-bracket"}


def pages(scene) -> list[tuple[str, str]]:
    """(screenshot name, address) of every page with a long name on it."""
    slug, org = scene["league"].slug, scene["league"].organization.slug
    long_id = scene["long"].pk
    found = [
        ("home", "/"),
        ("standings", f"/leagues/{slug}/"),
        ("player", f"/leagues/{slug}/players/{long_id}/"),
        ("player-wordy", f"/leagues/{slug}/players/{scene['wordy'].pk}/"),
        ("game-log", f"/leagues/{slug}/games/"),
        ("events", f"/leagues/{slug}/events/"),
        ("event-new", f"/leagues/{slug}/events/new/"),
        ("add-game", f"/leagues/{slug}/games/new/"),
        ("edit-game", f"/games/{scene['game'].pk}/edit/"),
        ("delete-game", f"/games/{scene['game'].pk}/delete/"),
        ("import", f"/leagues/{slug}/import/"),
        ("import-preview", f"/imports/{scene['batch'].pk}/"),
        ("history", f"/organizations/{org}/history/?league={slug}"),
        ("rating-lab", f"/leagues/{slug}/lab/"),
        ("rating-settings", f"/leagues/{slug}/rating-settings/"),
    ]
    for event in scene["events"]:
        kind = "pods" if event.is_pods else "1v1"
        base = f"/events/{event.slug}/"
        found += [
            (f"{kind}-pairings", base),
            (f"{kind}-standings", base + "standings/"),
            (f"{kind}-projector", base + "projector/"),
            (f"{kind}-bracket", base + "bracket/"),
            (f"{kind}-console", base + "run/"),
            (f"{kind}-round-1", base + "rounds/1/"),
            (f"{kind}-player", base + f"players/{long_id}/"),
            (f"{kind}-history", f"/organizations/{org}/history/?tournament={event.slug}"),
        ]
    return found


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


def test_every_page_holds_a_100_character_name_on_a_phone(phone, scene):
    assert len(UNBROKEN) == len(WORDY) == 100
    phone.login("olive")
    too_wide = []
    for name, path in pages(scene):
        response = phone.go(path)
        assert response.status == 200, path
        assert UNBROKEN in phone.page.content() or name in NAMELESS, path
        seen = overflow(phone)
        phone.shot(f"long-name-{name}-phone")
        if seen["width"] > PHONE["width"]:
            too_wide.append(f"{path}: {seen['width']} px ({', '.join(seen['wide'])})")
    assert not too_wide, "pages wider than the phone:\n" + "\n".join(too_wide)


def test_the_console_keeps_drop_and_end_round_on_screen(phone, scene):
    phone.login("olive")
    for event in scene["events"]:
        phone.go(f"/events/{event.slug}/run/")
        page = phone.page
        for label in ("End round", "drop"):
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


def test_the_same_pages_at_desktop_width(desktop, scene):
    desktop.login("olive")
    for name, path in pages(scene):
        desktop.go(path)
        width = desktop.page.evaluate("document.documentElement.scrollWidth")
        desktop.shot(f"long-name-{name}-desktop")
        assert width <= 1280, f"{path}: {width} px"
