"""A store set up from a phone, without the admin: its owner creates a league (pressing
Create twice), edits the profile with a logo and a time zone, and invites a judge, who
accepts from the link on her own phone. Every page fits 390 px; screenshots are kept."""

import pytest
from django.core import mail
from playwright.sync_api import expect

from leagues.models import League, Membership, Organization, Role
from ratings.models import LeagueRating
from tests.factories import OrganizationFactory, UserFactory, organizer_of
from tests.leagues.domain.test_images import png

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)


def fits(visit: Visit) -> None:
    width = visit.page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{visit.page.url} is {width} px wide"


def test_owner_sets_up_the_store_and_a_judge_joins(browser, live_server, tmp_path):
    store = OrganizationFactory(name="Dragon's Den", slug="dragons-den")
    organizer_of(store, role=Role.OWNER, username="owen")
    UserFactory(username="judy", email="judy@example.com")

    owner = Visit(browser, live_server, PHONE)
    owner.login("owen")
    owner.go("/")
    owner.page.click("nav[aria-label='Your stores'] a:has-text(\"Dragon's Den\")")
    owner.page.wait_for_load_state("networkidle")
    expect(owner.page.locator("h1")).to_have_text("Dragon's Den")
    fits(owner)

    # A new league: private, rated with OpenSkill; Create pressed twice makes one.
    owner.page.click("a:has-text('+ New league')")
    owner.page.wait_for_load_state("networkidle")
    owner.page.fill("#id_name", "Friday Commander Pods")
    owner.page.fill("#id_game_label", "Commander")
    owner.page.check("input[name=is_public][value='0']")
    owner.page.select_option("#id_system", "openskill")
    owner.shot("store-new-league-phone")
    fits(owner)
    owner.page.dblclick("button:has-text('Create the league')")
    owner.page.wait_for_load_state("networkidle")
    expect(owner.page.locator(".messages")).to_contain_text("Friday Commander Pods")
    league = League.objects.get()
    assert (league.is_public, league.game_label) == (False, "Commander")
    assert LeagueRating.objects.get(league=league).system == "openskill"
    owner.shot("store-league-created-phone")
    fits(owner)

    # The profile, from the league menu's Store link: address, time zone, a logo.
    owner.open_menu(".league-nav")
    owner.page.click(".league-nav a:has-text('Store')")
    owner.page.wait_for_load_state("networkidle")
    owner.page.click("a:has-text('Edit the profile')")
    owner.page.wait_for_load_state("networkidle")
    owner.page.fill("#id_address", "12 High Street\nLeeds LS1 4AB")
    owner.page.select_option("#id_time_zone", "Europe/London")
    logo = tmp_path / "logo.png"
    logo.write_bytes(png(48, 48))
    owner.page.set_input_files("#id_logo", str(logo))
    owner.shot("store-profile-phone")
    fits(owner)
    owner.page.click("button:has-text('Save the profile')")
    owner.page.wait_for_load_state("networkidle")
    expect(owner.page.locator(".messages")).to_contain_text("profile is saved")
    expect(owner.page.locator("main")).to_contain_text("12 High Street")
    expect(owner.page.locator("main")).to_contain_text("Europe/London")
    logo = owner.page.locator("main img.store-logo")  # the header carries it too
    assert logo.evaluate("img => img.naturalWidth") == 48
    assert Organization.objects.get().time_zone == "Europe/London"

    # A bad invitation first: the field and the reason, then the judge.
    owner.page.fill("#id_email", "judy at example")
    owner.page.click("button:has-text('Send the invitation')")
    owner.page.wait_for_load_state("networkidle")
    expect(owner.page.locator(".error-summary")).to_contain_text("is not an e-mail address")
    owner.shot("store-invite-error-phone")
    fits(owner)
    owner.page.fill("#id_email", "judy@example.com")
    owner.page.select_option("#id_role", "judge")
    owner.page.click("button:has-text('Send the invitation')")
    owner.page.wait_for_load_state("networkidle")
    link = owner.page.input_value("#invite-link")
    assert link.startswith(live_server.url + "/organizations/dragons-den/join/")
    owner.shot("store-invited-phone")
    fits(owner)

    judge = Visit(browser, live_server, PHONE)
    judge.login("judy")
    judge.page.goto(link)
    judge.page.wait_for_load_state("networkidle")
    expect(judge.page.locator("main")).to_contain_text("Judge / TO")
    judge.shot("store-join-phone")
    fits(judge)
    judge.page.click("button:has-text('Accept and join')")
    judge.page.wait_for_load_state("networkidle")
    expect(judge.page.locator(".messages")).to_contain_text("You are now Judge / TO")
    assert Membership.objects.get(user__username="judy").role == Role.JUDGE

    owner.go("/organizations/dragons-den/store/")
    expect(owner.page.locator(".staff-member", has_text="judy")).to_contain_text("Judge / TO")
    expect(owner.page.locator("[aria-label='Invitations waiting']")).to_have_count(0)
    owner.shot("store-staff-phone")
    fits(owner)
    for visit in (owner, judge):
        assert not visit.errors, visit.errors
        visit.context.close()


def test_the_superuser_makes_the_first_store_and_its_owner_signs_up(browser, live_server):
    """Issue 43: the site's first store, made and handed over from the site. In the admin the
    slug typed is the slug (no script writes the name into it first); from the home page the
    superuser creates a store and invites its owner, opens the new store's pages, and the owner
    signs up from the link on her phone and owns the store."""
    UserFactory(username="root", is_superuser=True, is_staff=True)
    admin = Visit(browser, live_server, {"width": 1366, "height": 900})
    admin.login("root")
    admin.go("/admin/leagues/organization/add/")
    admin.page.click("#id_name")
    admin.page.keyboard.type("Goblin Forge Games")
    admin.page.click("#id_slug")
    admin.page.keyboard.type("goblin-forge")
    assert admin.page.input_value("#id_slug") == "goblin-forge"
    admin.context.close()

    root = Visit(browser, live_server, PHONE)
    root.login("root")
    root.go("/")
    root.page.click("nav[aria-label='Your stores'] a:has-text('+ New store')")
    root.page.wait_for_load_state("networkidle")
    root.page.fill("#id_name", "Goblin Forge Games")
    root.page.fill("#id_owner_email", "gwen@example.com")
    root.shot("store-new-phone")
    fits(root)
    root.page.click("button:has-text('Create the store')")
    expect(root.page.locator("h1")).to_have_text("Goblin Forge Games is created")
    assert Organization.objects.get().slug == "goblin-forge-games"
    link = root.page.input_value("#invite-link")
    # A second press (a double tap, or the form sent again) finds the store the first made.
    # A double click raced: the browser showed whichever answer came last.
    second = Visit(browser, live_server, PHONE)
    second.login("root")
    second.go("/organizations/new/")
    second.page.fill("#id_name", "Goblin Forge Games")
    second.page.fill("#id_owner_email", "gwen@example.com")
    second.page.click("button:has-text('Create the store')")
    second.page.wait_for_load_state("networkidle")
    expect(second.page.locator(".messages")).to_contain_text("is already created")
    assert Organization.objects.count() == 1
    second.context.close()
    assert link.startswith(live_server.url + "/organizations/goblin-forge-games/join/")
    expect(root.page.locator("main")).to_contain_text("/stores/goblin-forge-games/")
    root.shot("store-created-phone")
    fits(root)
    for path in ("/stores/goblin-forge-games/", "/organizations/goblin-forge-games/store/"):
        assert root.go(path).status == 200, path

    gwen = Visit(browser, live_server, PHONE)
    gwen.page.goto(link)
    gwen.page.wait_for_load_state("networkidle")
    gwen.page.click("main a:has-text('Sign up')")
    gwen.page.wait_for_load_state("networkidle")
    gwen.page.fill("#id_email", "gwen@example.com")
    gwen.page.fill("#id_username", "gwen")
    gwen.page.fill("#id_password1", "a-long-pass-phrase-42")
    gwen.page.fill("#id_password2", "a-long-pass-phrase-42")
    gwen.page.click("main button[type=submit]")
    gwen.page.wait_for_load_state("networkidle")
    if "/accounts/confirm-email/" in gwen.page.url:  # the site sends mail: confirm first
        key = [m for m in mail.outbox if "confirm-email" in m.body][-1].body
        gwen.page.goto(key[key.index(live_server.url) :].split()[0])
        gwen.page.click("main button[type=submit]")
        gwen.page.wait_for_load_state("networkidle")
    expect(gwen.page.locator("main")).to_contain_text("Owner")
    gwen.page.click("button:has-text('Accept and join')")
    gwen.page.wait_for_load_state("networkidle")
    expect(gwen.page.locator(".messages")).to_contain_text("You are now Owner")
    assert Membership.objects.get(user__username="gwen").role == Role.OWNER
    gwen.shot("store-owner-joined-phone")
    fits(gwen)
    for visit in (root, gwen):
        assert not visit.errors, visit.errors
        visit.context.close()
