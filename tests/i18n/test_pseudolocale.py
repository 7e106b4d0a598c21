"""The pseudo-locale and its check (tests/pseudolocale.py): a marked string shows wrapped, an
unmarked one is found, what people typed is not counted."""

import pytest
from django.utils import translation

from tests import pseudolocale
from tests.pseudolocale import CLOSE, OPEN, untranslated, visible_text


def test_visible_text_reads_text_and_the_attributes_a_person_reads():
    html = (
        '<html lang="xx"><head><title>T</title><style>p{}</style></head><body>'
        '<p>Hello <b>there</b></p><script>var x = "no";</script>'
        '<input type="search" placeholder="Find"><button aria-label="Close">&times;</button>'
        '<img alt="Logo" src="x"><input type="submit" value="Send">'
        '<option lang="de">Deutsch</option><div hidden>Secret</div></body></html>'
    )
    assert visible_text(html) == ["T", "Hello ", "there", "Find", "Close", "\u00d7", "Logo", "Send"]


def test_untranslated_is_what_is_outside_the_markers_and_not_data():
    html = (
        f'<html lang="xx"><body><h1>{OPEN}Pairings{CLOSE}</h1>'
        f"<p>{OPEN}Table {OPEN}Round{CLOSE} 3{CLOSE}</p>"
        "<td>Zoë Müller</td><td>12</td><td>Standings</td>"
        f'<a title="Guildhall">{OPEN}Home{CLOSE}</a>'
        f'<p>{OPEN}New here? <a href="/s">Sign up</a>: it is free.{CLOSE}</p>'
        '<td>OMW%</td><code>game_id,date</code><span translate="no">status: seated</span>'
        '<select><option value="Europe/Berlin">Europe/Berlin</option></select>'
        "<p>Sign up<a>now</a></p></body></html>"
    )
    assert untranslated(html, {"Zoë Müller"}) == ["Standings", "Sign up", "now"]
    assert untranslated(html, set()) == ["Zoë Müller", "Standings", "Sign up", "now"]


@pytest.fixture
def pseudo(settings, tmp_path_factory):
    return pseudolocale.use(settings, tmp_path_factory)


def test_the_pseudo_locale_wraps_guildhall_s_django_s_and_allauth_s_strings(pseudo):
    with translation.override(pseudo):
        assert translation.gettext("Language") == f"{OPEN}Language{CLOSE}"  # Guildhall's
        assert translation.gettext("This field is required.").startswith(OPEN)  # Django's
        assert translation.gettext("Sign In").startswith(OPEN)  # allauth's
        one = translation.ngettext("%(n)s day", "%(n)s days", 1)
        assert one.startswith(OPEN) or one == "%(n)s day"


@pytest.mark.django_db
def test_a_page_in_the_pseudo_locale_shows_its_marked_strings_wrapped(client, pseudo):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=pseudo).content.decode()
    assert f'<html lang="{pseudo}">' in page
    assert f"{OPEN}Language{CLOSE}" in page  # the footer's switch
    assert untranslated(page, pseudolocale.database_text()) == []
