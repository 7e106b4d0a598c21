"""Dates in the reader's order and words (core/formats): a name missing in one language's
module would print as itself ("GH_DAY"), so every language has every name."""

import importlib
from datetime import datetime

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import to_locale

from core.formats import NAMES

THURSDAY = datetime(2026, 12, 3, 19, 30)


@pytest.mark.parametrize("code", [code for code, _name in settings.LANGUAGES])
def test_every_language_names_every_format(code):
    module = importlib.import_module(f"core.formats.{to_locale(code)}.formats")
    assert [name for name in NAMES if not getattr(module, name, "")] == []


@pytest.mark.parametrize(
    ("code", "name", "written"),
    [
        ("en", "GH_DAY", "Thu 3 Dec 2026"),
        ("de", "GH_DAY", "Do, 3. Dez 2026"),
        ("de", "GH_DAY_TIME", "Do, 3. Dez, 19:30"),
        ("ja", "GH_DAY", "2026年12月3日(木)"),
        ("ja", "GH_DAY_SHORT", "12月3日(木)"),
        ("pl", "GH_DATE_LONG", "3 grudnia 2026"),  # the month's genitive, as Polish dates are
        ("es", "GH_DATE_LONG", "3 de diciembre de 2026"),
    ],
)
def test_a_day_reads_as_its_language_writes_it(code, name, written):
    with translation.override(code):
        assert date_format(THURSDAY, name) == written


def test_no_template_writes_a_day_in_one_order_for_every_language():
    """A literal "D j M Y" in a template gives every language the English order."""
    import re
    from pathlib import Path

    root = Path(settings.BASE_DIR)
    literal = re.compile(r"""date[:(]["'][^"']*\b[DjlFMEn]\b[^"']*["']""")
    paths = [*root.glob("*/**/templates/**/*.html"), *root.glob("*/**/jinja2/**/*.jinja")]
    found = [
        f"{path.relative_to(root)}: {m.group(0)}"
        for path in paths
        if ".venv" not in path.parts
        for m in literal.finditer(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_a_language_without_formats_or_none_active_reads_the_english_ones(settings):
    settings.LANGUAGES = [*settings.LANGUAGES, ("xx", "Pseudo")]
    with translation.override("xx"):
        assert date_format(THURSDAY, "GH_DAY") == "Thu 3 Dec 2026"
    with translation.override(None):
        assert date_format(THURSDAY, "GH_DAY_TIME") == "Thu 3 Dec, 19:30"
