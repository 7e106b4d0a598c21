"""Each page as a person sees it in a real browser, on a phone and on a desktop."""

import pytest
from playwright.sync_api import expect

from leagues.models import Game
from tests.browser.conftest import friday_league

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def scene(db):
    return friday_league()


def test_home(phone, scene):
    phone.go("/")
    assert phone.page.locator("h1").inner_text() == "Leagues and events"
    assert phone.page.get_by_role("link", name="Friday Commander").is_visible()
    phone.shot("home-phone")


def test_standings_and_live_search(desktop, scene):
    desktop.go("/leagues/friday/")
    rows = desktop.page.locator("#standings tbody tr")
    assert rows.count() == 6
    desktop.shot("standings-desktop")
    desktop.page.fill("input[name=q]", "dee")
    expect(desktop.page.locator("#standings tbody tr")).to_have_count(1)
    assert "Dee Drake" in rows.first.inner_text()
    assert "q=dee" in desktop.page.url  # the search is in the address, so it can be shared
    desktop.page.locator("th a", has_text="Games").click()
    desktop.page.wait_for_url("**sort=games**")  # htmx swapped the table and kept the address
    assert desktop.page.locator("#standings th[aria-sort=ascending]").inner_text() == "Games"
    desktop.shot("standings-search")


def test_standings_on_a_phone_fit_the_screen(phone, scene):
    phone.go("/leagues/friday/")
    width = phone.page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"page is {width}px wide on a 390px phone"
    phone.shot("standings-phone")


def test_player_page(phone, scene):
    ann = scene["players"][0]
    phone.go(f"/leagues/friday/players/{ann.pk}/")
    assert phone.page.locator("h1").inner_text() == "Ann Archer"
    assert phone.page.locator("article.game").count() == 4
    assert phone.page.locator("article.game li.me").count() == 4
    phone.shot("player-phone")


def test_game_log(phone, scene):
    phone.go("/leagues/friday/games/")
    assert "8 games" in phone.page.locator("h1").inner_text()
    assert phone.page.locator("text=Edit").count() == 0
    phone.shot("games-phone")


def test_organizer_adds_a_game_on_a_phone(phone, scene):
    phone.login("olive")
    phone.go("/leagues/friday/games/new/")
    page = phone.page
    page.fill("#id_player_0", "eve evans")
    page.fill("#id_player_1", "Ann Archer")
    page.fill("#id_player_2", "Bob Baker")
    page.check("#id_tied_2")
    page.click("text=+ Add a player")
    page.wait_for_selector("#id_player_4")
    page.fill("#id_player_4", "Gus Green")  # a new face: refused until confirmed
    page.click("button:has-text('Save game')")
    page.wait_for_load_state("networkidle")
    # Said beside the field, and on top in the error summary with a link to it.
    assert page.locator("#row-4 .errorlist").filter(has_text='No player "Gus Green"').is_visible()
    assert page.locator('.error-summary a[href="#id_player_4"]').is_visible()
    assert page.input_value("#id_player_4") == "Gus Green"  # nothing typed is lost
    phone.shot("add-game-error-phone")
    page.check("#id_add_new_players")
    page.click("button:has-text('Save game')")
    page.wait_for_load_state("networkidle")
    assert "Game saved: 1st Eve Evans, 2nd Ann Archer, 2nd Bob Baker, 4th Gus Green" in (
        page.locator(".messages").inner_text()
    )
    phone.shot("add-game-saved-phone")
    assert Game.objects.filter(league=scene["league"]).count() == 9


def test_organizer_corrects_and_deletes_a_game(desktop, scene):
    game = Game.objects.filter(league=scene["league"]).latest("played_on", "id")
    desktop.login("olive")
    desktop.go(f"/games/{game.pk}/edit/")
    desktop.shot("edit-game-desktop")
    page = desktop.page
    first, second = page.input_value("#id_player_0"), page.input_value("#id_player_1")
    page.fill("#id_player_0", second)
    page.fill("#id_player_1", first)
    page.click("button:has-text('Save correction')")
    page.wait_for_load_state("networkidle")
    assert "Game corrected" in page.locator(".messages").inner_text()
    winner = game.results.get(placement=1).player.name
    assert winner == second
    desktop.go(f"/games/{game.pk}/delete/")
    desktop.shot("delete-game-desktop")
    page.click("button:has-text('Delete the game')")
    page.wait_for_load_state("networkidle")
    assert not Game.objects.filter(pk=game.pk).exists()


def test_login_page(phone, scene):
    phone.go("/accounts/login/")
    phone.page.fill("#id_login", "olive")
    phone.page.fill("#id_password", "wrong")
    phone.page.click("button[type=submit]")
    phone.page.wait_for_load_state("networkidle")
    assert phone.page.locator(".error-summary").is_visible()  # on top, above the form's fields
    phone.shot("login-error-phone")


def test_player_page_shows_the_rating_chart(phone, scene):
    ann = scene["players"][0]
    phone.go(f"/leagues/friday/players/{ann.pk}/")
    chart = phone.page.locator("svg.rating-chart")
    assert chart.is_visible()
    box = chart.bounding_box()
    assert box["width"] <= 390 and box["height"] > 100
    assert "rated games" in phone.page.locator("svg.rating-chart desc").text_content()
    assert phone.page.locator("article.game .delta").count() == 12  # 4 games x 3 players
    phone.shot("player-chart-phone")


def test_rating_lab(desktop, scene):
    desktop.go("/leagues/friday/lab/")
    rows = desktop.page.locator("table.lab tbody tr")
    assert rows.count() == 5  # four systems and the random guess
    assert "Random guess" in rows.last.inner_text()
    desktop.shot("rating-lab-desktop")


def test_organizer_switches_the_rating_system(phone, scene):
    phone.login("olive")
    phone.go("/leagues/friday/rating-settings/")
    page = phone.page
    assert not page.locator("fieldset[data-system=elo]").is_visible()
    page.select_option("#id_system", "elo")
    assert page.locator("fieldset[data-system=elo]").is_visible()  # only the chosen system's
    page.fill("#id_elo__k", "0")  # the browser allows it (min 0); K must be above 0
    page.click("button:has-text('Save and re-rate')")
    page.wait_for_load_state("networkidle")
    assert page.locator("fieldset[data-system=elo] .errorlist").is_visible()
    phone.shot("rating-settings-error-phone")
    page.fill("#id_elo__k", "32")
    page.click("button:has-text('Save and re-rate')")
    page.wait_for_url("**/leagues/friday/")
    assert "re-rated" in page.locator(".messages").inner_text()
    assert "Elo (pairwise)" in page.locator("main").text_content()  # behind the "?"
