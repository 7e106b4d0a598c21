"""A judge's time extension from the TO's phone: after a ruling at pod 2 the TO gives it four
minutes (tapped twice on a slow phone: given once), the card and the list beside the clock show
it, a pod that is not in the round is refused with the reason on the form (kept as typed), and
the public pairings page shows it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from audit.models import AuditEntry
from leagues.models import Role
from tests.factories import LeagueFactory, organizer_of
from tournaments.models import Round, Table

from .conftest import DESKTOP, PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_to_gives_one_pod_four_more_minutes(browser, live_server, viewport):
    from tests.tournaments.play import paired_pods

    league = LeagueFactory(name="cEDH League", slug="cedh", game_label="cEDH")
    organizer_of(league.organization, role=Role.JUDGE, username="jude")
    event = paired_pods(league, name="cEDH Friday")
    round_ = Round.objects.get(tournament=event, number=1)
    pod_2 = Table.objects.get(round=round_, number=2)

    judge = Visit(browser, live_server, viewport)
    try:
        judge.login("jude")
        judge.go(f"/events/{event.slug}/run/")
        page = judge.page
        clock = page.locator("#round-clock")
        clock.get_by_text("Time extensions").click()
        form = clock.locator("form.extension-form")
        form.get_by_label("Pod").fill("9")  # a pod this round does not have
        form.get_by_label("Extra minutes (total)").fill("4")
        form.get_by_role("button", name="Set").click()
        page.wait_for_load_state("networkidle")
        form = page.locator("#round-clock form.extension-form")
        expect(form.locator(".errorlist")).to_have_text("There is no pod 9 in this round.")
        expect(form.get_by_label("Extra minutes (total)")).to_have_value("4")  # kept
        assert not Table.objects.filter(extra_minutes__gt=0).exists()
        judge.shot(f"console-extension-refused-{viewport['width']}")

        form.get_by_label("Pod").fill("2")
        form.get_by_role("button", name="Set").dblclick()
        ends = timezone.localtime(round_.ends_at + timedelta(minutes=4))
        listed = page.locator("#round-clock .extension-list")
        expect(listed).to_contain_text(f"Pod 2 +4 min · time is up at {ends:%H:%M}")
        page.wait_for_load_state("networkidle")
        assert Table.objects.get(pk=pod_2.pk).extra_minutes == 4
        assert AuditEntry.objects.filter(action="table.extension").count() == 1
        expect(page.locator(f"#table-{pod_2.pk} .tag.extension")).to_have_text("+4 min")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        judge.shot(f"console-extension-{viewport['width']}")

        judge.go(f"/events/{event.slug}/")
        expect(page.locator("#pod-2 .extension")).to_have_text("+4 min")
        expect(page.locator("#pod-1 .extension")).to_have_count(0)
        judge.shot(f"pairings-extension-{viewport['width']}")

        # A player at pod 2, on their own page (the link the TO hands over).
        from tournaments.selectors.reports import walk_in_token

        seated = pod_2.seats.order_by("position").first().entry
        judge.go(f"/events/{event.slug}/me/{walk_in_token(seated)}/")
        expect(page.locator(".round-timer")).to_contain_text(
            f"Time is up at {ends:%H:%M} UTC: a judge gave your pod 4 extra minutes"
        )
        judge.shot(f"player-extension-{viewport['width']}")
    finally:
        judge.context.close()
    assert not judge.errors, f"JavaScript errors in the page: {judge.errors}"
