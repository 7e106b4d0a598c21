"""gettext for the pure domain packages, which import no Django (pyproject's contract).

The domain's refusals are sentences a person reads (`DomainError(message=_("..."))`), so they
are marked for translation like every other string. Here `gettext`, `ngettext` and `pgettext`
answer in English until the site installs Django's (core.apps.CoreConfig.ready): from then on
they translate into the language active in the request or the message being written, exactly
as `django.utils.translation`'s do. In the browser (the offline round's Pyodide), nothing
installs them and the domain speaks English, which the console's script translates where it
shows a message. `makemessages` finds the calls by their names, as in any Python file.
"""

from collections.abc import Callable


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _english_context(context: str, message: str) -> str:
    return message


_gettext: Callable[[str], str] = _english
_ngettext: Callable[[str, str, int], str] = _english_plural
_pgettext: Callable[[str, str], str] = _english_context


def gettext(message: str) -> str:
    """`message` in the active language."""
    return _gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for `n` in the active language (Polish has three)."""
    return _ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """`message` in the active language, where `context` tells two meanings apart."""
    return _pgettext(context, message)


def install(
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    pgettext: Callable[[str, str], str],
) -> None:
    """Translate with these from now on (Django's, at start-up)."""
    global _gettext, _ngettext, _pgettext
    _gettext, _ngettext, _pgettext = gettext, ngettext, pgettext


def N_(message: str) -> str:
    """Marks `message` for the catalogue where it is written; translated where it is shown."""
    return message


class translated:
    """A class attribute that reads in the active language each time it is read:
    `label = translated(N_("Elo (pairwise)"))` (a name a page shows, fixed at import)."""

    def __init__(self, message: str):
        self.message = message

    def __get__(self, instance, owner=None) -> str:
        return gettext(self.message)


def _starts_with_i_sound(text: str) -> bool:
    """Whether `text` starts with the vowel /i/ as Spanish spells it: "Isabel", "Íñigo",
    "Hilda"; not "Hielo" or "Iowa", where the i glides into the next vowel."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", text.strip()).casefold()
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    if plain.startswith("h"):
        plain = plain[1:]
    return plain.startswith("i") and plain[1:2] not in ("a", "e", "o", "u")


def last_two_pattern(last: str) -> str:
    """The pattern that joins a list's last item to the others, in the active language
    ("%(names)s and %(last)s"): Spanish writes "e" instead of "y" before an /i/ sound
    ("Ana e Isabel"), so the list's last item chooses between two msgids."""
    if _starts_with_i_sound(last):
        # Translators: the last two of a list of names when the last begins with an "i" sound
        # ("Isabel", "Hilda"): as "a list of names, its last two" unless your "and" changes
        # there (Spanish: "%(names)s e %(last)s").
        return pgettext(
            "a list of names, its last two, before an i sound", "%(names)s and %(last)s"
        )
    # Translators: the last two of a list of names ("Ann, Bob and Cy": names "Ann, Bob").
    return pgettext("a list of names, its last two", "%(names)s and %(last)s")


def names_text(items) -> str:
    """Names (or any short texts) as one list in the active language: "Ann, Bob and Cy",
    "Ana e Isabel", "Ann、BobとCy"."""
    *first, last = [str(item) for item in items]
    if not first:
        return last
    between = pgettext("between the items of a list", ", ")
    return last_two_pattern(last) % {"names": between.join(first), "last": last}
