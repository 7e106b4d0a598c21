"""The domain's sentences a person reads, marked for translation without Django.

This package runs in the browser too (the offline round's Pyodide, from a zip of this folder
alone), so it imports neither Django nor `core`. A message is marked with `N_("...")`, which
only tells `makemessages` to put it in the catalogue, and is raised in English with its values
kept apart (`Refusal.template`, `Refusal.params`): the site translates the template where it
shows it (`tournaments.errors.domain_message`), then fills the values in. A label function
takes the site's `gettext` as an argument for the same reason (`labels.round_label`).
"""

from collections.abc import Callable, Mapping


def N_(message: str) -> str:
    """`message` unchanged: marks it for the catalogue; it is translated where it is shown."""
    return message


Gettext = Callable[[str], str]


def english(message: str) -> str:
    """The `gettext` of the browser and of the pure tests: the English as written."""
    return message


def fill(template: str, params: Mapping[str, object] | None = None, gettext: Gettext = english):
    """`template` in `gettext`'s language with `params` filled in (no `%` step without them)."""
    text = gettext(template)
    return text % dict(params) if params else text


class Refusal(ValueError):
    """A domain error a person reads: `code` names the rule, `message` is the English sentence
    (what `str()` gives), `template` and `params` are that sentence before its values were
    filled in, so the site can show it translated."""

    def __init__(self, code: str, message: str, params: Mapping[str, object] | None = None):
        self.template = message
        self.params = dict(params or {})
        self.message = fill(message, self.params)
        super().__init__(self.message)
        self.code = code


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """A plural pair marked for the catalogue (makemessages' keyword `Nn_:1,2`)."""
    return singular, plural


class Note(str):
    """A warning a person reads ("2 rematches could not be avoided: ..."): as a `str`, the
    English sentence; `template`, `plural` and `params` are that sentence before its values
    were filled in, so the site writes it in the reader's language (`tournaments.errors.
    note_text`). A value may itself be a `Note`, or a tuple of them (joined where shown)."""

    template: str
    plural: str | None
    count: int | None
    params: dict

    def __new__(cls, message, params=None, *, count: int | None = None):
        singular, plural = (message, None) if isinstance(message, str) else message
        params = dict(params or {})
        chosen = plural if plural is not None and count != 1 else singular
        english = {k: "; ".join(v) if isinstance(v, tuple) else v for k, v in params.items()}
        note = super().__new__(cls, chosen % english if english else chosen)
        note.template, note.plural, note.count, note.params = singular, plural, count, params
        return note

    def render(self, gettext: Gettext, ngettext, join: Callable[[list[str]], str]) -> str:
        """This note in the language of `gettext`/`ngettext`, its tuples of notes by `join`."""

        def value(v):
            if isinstance(v, Note):
                return v.render(gettext, ngettext, join)
            if isinstance(v, tuple):
                return join([value(x) for x in v])
            return v

        if self.plural is not None:
            text = ngettext(self.template, self.plural, self.count)
        else:
            text = gettext(self.template)
        values = {k: value(v) for k, v in self.params.items()}
        return text % values if values else text
