"""Guildhall's named date formats, per language (settings.FORMAT_MODULE_PATH): a template
writes `|date:"GH_DAY"` and a German reader gets "Do, 3. Dez 2026", a Japanese one
"2026年12月3日(木)", where a literal "D j M Y" gave every language the English order.
Django's own formats of each language (DATE_FORMAT, the first day of the week...) stay as
they are: a module here only adds these names. Every language of settings.LANGUAGES has one
(tests/i18n/test_formats.py); a language without one, or none active, reads the English
ones from the settings (`install`)."""

NAMES = (
    "GH_DATE",  # 3 Dec 2026
    "GH_DAY",  # Thu 3 Dec 2026
    "GH_DAY_SHORT",  # Thu 3 Dec
    "GH_DAY_MONTH",  # 3 Dec
    "GH_DAY_TIME",  # Thu 3 Dec, 19:30
    "GH_DATE_TIME",  # 3 Dec, 19:30
    "GH_DATE_LONG",  # 3 December 2026
    "GH_DAY_LONG",  # Thursday 3 December 2026
    "GH_MONTH",  # Dec 2026
)


def install() -> None:
    """Let Django fall back to the settings for these names as it does for its own: an
    unknown name is otherwise returned as the format itself ("GH_DAY" read as G, H, D...).
    Django keeps its names in `django.utils.formats.FORMAT_SETTINGS`, read at each lookup."""
    from django.utils import formats

    formats.FORMAT_SETTINGS = formats.FORMAT_SETTINGS | frozenset(NAMES)
