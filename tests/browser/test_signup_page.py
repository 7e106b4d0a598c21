"""The sign-up page looks like the log-in page, on a phone and on a laptop.

allauth's own sign-up page came out unstyled inside the site's layout: a bare form of
paragraphs, no card, "Sign Up" and a bulleted list of password rules at full width. Here both
pages are opened at 390 and 1366 px and their forms compared: the same card of the same width,
a visible label over every field, the site's inputs (44 px tall, the card's width), the
password rules in the muted help style, a refused sign-up showing its message by its field,
and nothing wider than the screen. Screenshots: signup-page-*.png.
"""

import pytest

from .conftest import PHONE, Visit

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 900}


def form_facts(visit) -> dict:
    """How the page's main form is drawn: its box, its classes, its fields and their labels."""
    return visit.page.evaluate(
        """() => {
          const form = document.querySelector("main form");
          const box = form.getBoundingClientRect();
          const inner = box.width - parseFloat(getComputedStyle(form).paddingLeft)
                        - parseFloat(getComputedStyle(form).paddingRight)
                        - parseFloat(getComputedStyle(form).borderLeftWidth)
                        - parseFloat(getComputedStyle(form).borderRightWidth);
          const shown = "input:not([type=hidden]):not([type=checkbox])";
          const inputs = [...form.querySelectorAll(shown)];
          return {
            card: form.classList.contains("card"),
            width: Math.round(box.width),
            left: Math.round(box.left),
            fields: inputs.map((input) => {
              const label = form.querySelector(`label[for="${input.id}"]`);
              const r = input.getBoundingClientRect();
              const seen = label && label.getBoundingClientRect().height > 0;
              return {
                id: input.id,
                label: seen ? label.textContent.trim() : null,
                height: Math.round(r.height),
                fills: Math.abs(r.width - inner) <= 1,
              };
            }),
            help: [...form.querySelectorAll(".help")].map((el) => getComputedStyle(el).color),
            muted: getComputedStyle(document.querySelector(".muted") || document.body).color,
            heading: document.querySelector("main h1").textContent.trim(),
            scroll: document.documentElement.scrollWidth,
          };
        }"""
    )


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["390", "1366"])
def test_the_sign_up_page_looks_like_the_log_in_page(browser, live_server, size):
    visit = Visit(browser, live_server, size)
    try:
        visit.go("/accounts/login/")
        login = form_facts(visit)
        visit.go("/accounts/signup/")
        signup = form_facts(visit)
        visit.shot(f"signup-page-{size['width']}")
        assert login["card"] and signup["card"], "the sign-up form is not the site's card"
        assert (signup["width"], signup["left"]) == (login["width"], login["left"])
        assert signup["heading"] == "Sign up"
        assert [f["id"] for f in signup["fields"]] == [
            "id_email",
            "id_username",
            "id_password1",
            "id_password2",
        ]
        for field in signup["fields"] + login["fields"]:
            assert field["label"], f"{field['id']} has no visible label"
            assert field["height"] >= 44 and field["fills"], field
        # The password rules: the site's muted help text, not a bare list.
        assert signup["help"] and set(signup["help"]) == {signup["muted"]}
        assert signup["scroll"] <= size["width"]

        # A refused sign-up: the message stands by its field, in the same card.
        visit.page.fill("#id_email", "eve@players.example")
        visit.page.fill("#id_username", "eve")
        visit.page.fill("#id_password1", "eve-plays-tymna-kraum")
        visit.page.fill("#id_password2", "eve-plays-kraum-tymna")
        visit.page.click("main form button[type=submit]")
        visit.page.wait_for_load_state("networkidle")
        error = visit.page.locator(".field.has-error .errorlist")
        assert error.count() == 1 and "same password" in error.inner_text()
        assert form_facts(visit)["card"]
        assert visit.page.input_value("#id_email") == "eve@players.example"  # nothing lost
        visit.shot(f"signup-page-refused-{size['width']}")
    finally:
        visit.context.close()
    assert not visit.errors, visit.errors
