"""The style guide (development only): every component drawn, axe-clean, at 390 and 1366 px."""

import pytest

from .a11y import axe_missing, axe_violations, small_targets
from .conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_style_guide_draws_every_component_accessibly(phone):
    assert not axe_missing(), axe_missing()
    phone.go("/style-guide/")
    page = phone.page
    for section in ("tokens", "tabs", "cards", "tables", "buttons", "forms", "messages"):
        assert page.locator(f"#{section}").count() == 1, section
    for section in ("badges", "empty", "progress", "help"):
        assert page.locator(f"#{section}").count() == 1, section
    # Both forms of the empty state: the box, and an empty table's one row under its header.
    assert page.locator(".empty-state strong").first.is_visible()
    row = page.locator("table:has(td.empty)")
    assert row.locator("thead th").count() == 4 and row.locator("tbody tr").count() == 1
    assert row.locator("td.empty").get_attribute("colspan") == "4"
    # The sample form came back with errors: the summary on top links to each field.
    summary = page.locator(".error-summary")
    assert summary.locator("a[href='#id_name']").count() == 1
    assert summary.locator("a[href='#id_email']").count() == 1
    problems = axe_violations(page) + small_targets(page)
    page.set_viewport_size({"width": 1366, "height": 900})
    problems += axe_violations(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not problems, problems
    phone.shot("style-guide-phone")
