"""A player's mail in the store's look (issue 33): the store's name, logo and accent colour at
the top of the HTML part, the text part unchanged, every colour a design token or the store's
checked accent, and the text on each colour readable (WCAG AA, 4.5:1)."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core import mail

from leagues.domain.colour import contrast_ratio
from leagues.models import Organization
from notifications.look import TOKENS
from notifications.tasks import deliver_due
from tests.factories import LeagueFactory, OrganizationFactory, TournamentFactory
from tournaments.services.rounds import round_pair

from .conftest import BASE, enter, player_with_account

pytestmark = pytest.mark.django_db

CSS = Path(settings.BASE_DIR) / "core" / "static" / "guildhall" / "tokens.css"
AA = 4.5


def paired_mail(organization, django_capture_on_commit_callbacks):
    """Round 1 of a two-player event of `organization` paired; Ann's mail as sent."""
    event = TournamentFactory(
        league=LeagueFactory(organization=organization), name="Friday Modern", slug="fm"
    )
    ann = player_with_account(organization, "Ann", paired=True)
    enter(event, ann, player_with_account(organization, "Bob"))
    with django_capture_on_commit_callbacks(execute=True):
        round_pair(tournament=event, number=1)
    deliver_due.call()
    (sent,) = mail.outbox
    ((html, kind),) = sent.alternatives
    assert kind == "text/html"
    return sent, html


def style_of(html: str, css_class: str) -> dict[str, str]:
    match = re.search(rf'class="{css_class}"[^>]*? style="([^"]*)"', html)
    assert match, css_class
    return dict(
        (name.strip(), value.strip())
        for name, value in (part.split(":", 1) for part in match.group(1).split(";") if part)
    )


def test_the_mail_carries_the_stores_name_logo_and_accent(django_capture_on_commit_callbacks):
    store = OrganizationFactory(name="Dragon's <Den>", slug="dragons", accent="#1f5f7a")
    Organization.objects.filter(pk=store.pk).update(
        logo=b"\x89PNG fake", logo_type="image/png", logo_version=3
    )
    sent, html = paired_mail(store, django_capture_on_commit_callbacks)
    header = style_of(html, "store")
    assert (header["background"], header["color"]) == ("#1f5f7a", "#ffffff")
    assert contrast_ratio(header["background"], header["color"]) >= AA
    button = style_of(html, "action")
    assert (button["background"], button["color"]) == ("#1f5f7a", "#ffffff")
    assert f'href="{BASE}/events/fm/?round=1"' in html
    assert "Dragon&#x27;s &lt;Den&gt;" in html  # the name, escaped
    assert f'<img src="{BASE}/organizations/dragons/logo/?v=3" alt=""' in html
    # The text part is the whole message still, without markup.
    assert "<" not in sent.body and f"{BASE}/events/fm/?round=1" in sent.body
    assert "Round 1 is paired: you play at table 1" in html


def test_a_store_without_accent_or_logo_has_guildhalls_brand_and_no_image(
    django_capture_on_commit_callbacks,
):
    _, html = paired_mail(OrganizationFactory(slug="plain"), django_capture_on_commit_callbacks)
    assert style_of(html, "store")["background"] == TOKENS["brand"]
    assert "<img" not in html


def test_a_pale_accent_carries_dark_text_and_a_darker_button(django_capture_on_commit_callbacks):
    """Issue 43: white is unreadable on a pale yellow (1.1:1): the header keeps the store's
    yellow with the site's dark ink, the button is the yellow darkened to stand out on white."""
    store = OrganizationFactory(slug="yellow", accent="#fff9c4")
    _, html = paired_mail(store, django_capture_on_commit_callbacks)
    header, button = style_of(html, "store"), style_of(html, "action")
    assert (header["background"], header["color"]) == ("#fff9c4", TOKENS["ink"])
    assert button["background"] not in ("#fff9c4", TOKENS["brand"])
    assert contrast_ratio(button["background"], TOKENS["paper"]) >= 3
    for part in (header, button):
        assert contrast_ratio(part["background"], part["color"]) >= AA, part


def test_what_is_not_a_colour_gives_way_to_the_brand(django_capture_on_commit_callbacks):
    store = OrganizationFactory(slug="typo")
    Organization.objects.filter(pk=store.pk).update(accent="yellow")  # past the form, by hand
    _, html = paired_mail(store, django_capture_on_commit_callbacks)
    assert style_of(html, "store")["background"] == TOKENS["brand"]


def test_every_colour_of_the_mail_is_a_token_or_the_accent_and_its_text_is_readable(
    django_capture_on_commit_callbacks,
):
    store = OrganizationFactory(slug="teal", accent="#1f5f7a")
    _, html = paired_mail(store, django_capture_on_commit_callbacks)
    colours = set(re.findall(r"#[0-9a-fA-F]{6}\b", html))
    assert colours <= set(TOKENS.values()) | {"#1f5f7a"}
    pairs = [
        (TOKENS["ink"], TOKENS["paper"]),  # the message
        (TOKENS["ink"], TOKENS["wash"]),
        (TOKENS["muted"], TOKENS["paper"]),  # why the mail came
        (TOKENS["brand-ink"], TOKENS["brand"]),  # a store without an accent
    ]
    for text, background in pairs:
        assert contrast_ratio(text, background) >= AA, (text, background)


def test_the_mails_tokens_are_the_stylesheets():
    """The mail's colours are tokens.css's light-scheme tokens: a token changed there fails
    here until notifications/look.py follows."""
    root = CSS.read_text().split(":root {", 1)[1].split("}", 1)[0]
    declared = dict(re.findall(r"--([\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;", root))
    for name, value in TOKENS.items():
        assert declared[name] == value, name
