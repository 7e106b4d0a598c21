"""The admin, as a store's organizer (staff) sees it, is as accessible as the site (issue 33).

Django's admin keeps its own templates and code; templates/admin/base_site.html adds the site's
tokens and guildhall/admin-theme.css, which sets the admin's colour variables to them. On its
index, a list with rows, a change form and an add form, at 390 and 1366 px and in the light
and the dark scheme: axe-core finds no serious or critical violation and the page does not
scroll sideways (the list's table may scroll inside its own frame, as Django draws it).
"""

import pytest
from playwright.sync_api import expect

from .a11y import (
    LAYOUT_RULES,
    axe_missing,
    axe_violations,
    checker_reports_dropped,
    small_targets,
    unreadable_in,
)
from .conftest import PHONE, Visit, friday_league

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 900}


@pytest.fixture
def scene(db) -> dict:
    return friday_league()


def pages(scene) -> list[tuple[str, str]]:
    player = scene["players"][0]
    return [
        ("index", "/admin/"),
        ("players", "/admin/leagues/player/"),
        ("a player", f"/admin/leagues/player/{player.pk}/change/"),
        ("a new game", "/admin/leagues/game/add/"),
    ]


def test_the_admin_reads_well_at_both_widths_in_both_schemes(browser, live_server, scene):
    assert not axe_missing(), axe_missing()
    visit = Visit(browser, live_server, PHONE)
    problems = []
    try:
        visit.login("olive")
        for what, address in pages(scene):
            visit.page.set_viewport_size(PHONE)
            response = visit.go(address)
            assert response.status == 200, f"{address} answered {response.status}"
            assert visit.page.locator("#content").is_visible(), address
            for size in (PHONE, LAPTOP):
                visit.page.set_viewport_size(size)
                where = f"{what} ({address}) at {size['width']} px"
                # Every rule once (the markup is the same at both widths), the ones that
                # depend on the layout at each width, and the colours in each scheme.
                rules = None if size is PHONE else LAYOUT_RULES
                with checker_reports_dropped(visit):
                    found = [f"light: {v}" for v in axe_violations(visit.page, rules=rules)]
                found += unreadable_in(visit, "dark")
                if size is PHONE:
                    found += [
                        f"tap target under 44x44 px: {t}"
                        for t in small_targets(visit.page, text_links=False)
                    ]
                visit.shot(f"admin-{what.replace(' ', '-')}-{size['width']}-dark")
                visit.page.emulate_media(color_scheme="light")
                visit.shot(f"admin-{what.replace(' ', '-')}-{size['width']}")
                width = visit.page.evaluate("document.documentElement.scrollWidth")
                if width > size["width"]:
                    found.append(f"scrolls sideways: {width} px")
                problems += [f"{where}: {p}" for p in found]
    finally:
        visit.context.close()
    assert not problems, "\n".join(problems)
    assert not visit.errors, f"JavaScript errors: {visit.errors}"


def test_the_admins_header_is_one_row_with_a_menu_on_a_phone(browser, live_server, scene):
    """Issue 33: at 390 px the account's links wrapped the header onto three rows (~170 px).
    They sit behind one "Menu" (a <details>, no script; the log-out stays Django's POST form),
    and on a laptop they stand in the header's row as Django draws them."""
    assert not axe_missing(), axe_missing()
    visit = Visit(browser, live_server, PHONE)
    problems = []
    try:
        visit.login("olive")
        assert visit.go("/admin/").status == 200
        page = visit.page
        header = page.locator("#header")
        menu = header.locator("details.user-menu > summary")
        log_out = header.locator("#logout-form button")
        assert header.bounding_box()["height"] <= 100, header.bounding_box()
        # Guildhall's name on one row beside the Menu: "administration" is read, not shown.
        name = header.get_by_role("link", name="Guildhall administration")
        assert name.bounding_box()["height"] < 40, name.bounding_box()
        rest = name.locator(".site-name-rest")
        assert rest.bounding_box()["width"] <= 1, rest.bounding_box()
        assert menu.is_visible() and not log_out.is_visible()
        menu.click()
        expect(log_out).to_be_visible()
        assert log_out.inner_text().strip().lower() == "log out"
        assert page.locator("#logout-form").get_attribute("method") == "post"
        # The open menu: readable in both schemes, every link and the button 44x44 px.
        with checker_reports_dropped(visit):
            problems += [f"light: {v}" for v in axe_violations(page)]
        problems += unreadable_in(visit, "dark")
        problems += [
            f"tap target under 44x44 px: {t}" for t in small_targets(page, text_links=False)
        ]
        links = header.locator(".user-links a, #logout-form button").all()
        assert len(links) >= 3  # View site (Guildhall), Change password, Log out
        for link in links:
            box = link.bounding_box()
            if box["height"] < 44 or box["width"] < 44:
                problems.append(f"menu link under 44x44 px: {link.inner_text()} {box}")
        visit.shot("admin-menu-open-390-dark")
        page.emulate_media(color_scheme="light")
        visit.shot("admin-menu-open-390")
        # A laptop: no menu button, the links in the header's one row.
        page.set_viewport_size(LAPTOP)
        assert not menu.is_visible() and log_out.is_visible()
        assert header.bounding_box()["height"] <= 60, header.bounding_box()
        assert header.get_by_role("link", name="Change password").is_visible()
        assert rest.bounding_box()["width"] > 40 and name.bounding_box()["height"] < 40
    finally:
        visit.context.close()
    assert not problems, "\n".join(problems)
    assert not visit.errors, f"JavaScript errors: {visit.errors}"
