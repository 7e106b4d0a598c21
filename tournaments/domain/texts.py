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


def fill(
    template,
    params: Mapping[str, object] | None = None,
    gettext: Gettext = english,
    ngettext=None,
):
    """`template` in `gettext`'s language with `params` filled in (no `%` step without them).
    A plural pair (`Nn_`) takes the form for `params["count"]`, in `ngettext`'s language."""
    if isinstance(template, str):
        text = gettext(template)
    else:
        singular, plural = template
        count = (params or {}).get("count")
        if ngettext is None:
            text = singular if count == 1 else plural
        else:
            text = ngettext(singular, plural, count)
    return text % dict(params) if params else text


class Refusal(ValueError):
    """A domain error a person reads: `code` names the rule, `message` is the English sentence
    (what `str()` gives), `template` and `params` are that sentence before its values were
    filled in, so the site can show it translated. A sentence about a count is a plural pair
    (`Nn_`) with its `count`: `plural` is its English plural form (None for one sentence)."""

    def __init__(
        self,
        code: str,
        message,
        params: Mapping[str, object] | None = None,
        *,
        count: int | None = None,
    ):
        singular, plural = (message, None) if isinstance(message, str) else message
        self.template, self.plural, self.count = singular, plural, count
        self.params = dict(params or {})
        chosen = plural if plural is not None and count != 1 else singular
        self.message = fill(chosen, self.params)
        super().__init__(self.message)
        self.code = code


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """A plural pair marked for the catalogue (makemessages' keyword `Nn_:1,2`)."""
    return singular, plural


def Np_(context: str, message: str) -> str:
    """`message` marked for the catalogue under `context` (makemessages' keyword `Np_:1c,2`),
    where one English sentence has two meanings; give `context` to the `Note` too."""
    del context
    return message


# What separates the items of a list inside a sentence ("3 v 8 (met before: 2); 4 v 9 (met
# before: 1)"): an item may hold a comma of its own. The English of a `Note`; the site reads
# each language's own (`tournaments.errors.note_text`, msgctxt "between the items of a list").
LIST_SEPARATOR = "; "


class Note(str):
    """A warning a person reads ("2 rematches could not be avoided: ..."): as a `str`, the
    English sentence; `template`, `plural`, `count`, `context` and `params` are that sentence
    before its values were filled in, so the site writes it in the reader's language
    (`tournaments.errors.note_text`). A value may itself be a `Note`, or a tuple of them
    (joined where shown). `data()` is the note as JSON stores it (a round's notes, a
    penalty's reason) and `Note.load` reads it back, to be written in whoever reads it."""

    template: str
    plural: str | None
    count: int | None
    context: str | None
    params: dict

    def __new__(cls, message, params=None, *, count: int | None = None, context=None):
        singular, plural = (message, None) if isinstance(message, str) else message
        params = dict(params or {})
        chosen = plural if plural is not None and count != 1 else singular
        english = {
            k: LIST_SEPARATOR.join(v) if isinstance(v, tuple) else v for k, v in params.items()
        }
        note = super().__new__(cls, chosen % english if english else chosen)
        note.template, note.plural, note.count = singular, plural, count
        note.context, note.params = context, params
        return note

    def render(
        self,
        gettext: Gettext,
        ngettext,
        join: Callable[[list[str]], str],
        pgettext=None,
        npgettext=None,
    ) -> str:
        """This note in the language of `gettext`/`ngettext` (`pgettext`/`npgettext` for a
        note with a `context`), its tuples of notes by `join`."""

        def value(v):
            if isinstance(v, Note):
                return v.render(gettext, ngettext, join, pgettext, npgettext)
            if isinstance(v, tuple):
                return join([value(x) for x in v])
            return v

        if self.plural is not None:
            if self.context and npgettext is not None:
                text = npgettext(self.context, self.template, self.plural, self.count)
            else:
                text = ngettext(self.template, self.plural, self.count)
        elif self.context and pgettext is not None:
            text = pgettext(self.context, self.template)
        else:
            text = gettext(self.template)
        values = {k: value(v) for k, v in self.params.items()}
        return text % values if values else text

    def data(self) -> dict:
        """The note as JSON keeps it: {"msgid", "plural", "count", "context", "params"} (the
        keys that have a value), a value that is a note as {"note": ...}, a tuple as
        {"list": [...]}, any other value as a string or a number."""
        out: dict = {"msgid": self.template}
        if self.plural is not None:
            out["plural"], out["count"] = self.plural, self.count
        if self.context:
            out["context"] = self.context
        if self.params:
            out["params"] = {k: _value_data(v) for k, v in self.params.items()}
        return out

    @classmethod
    def load(cls, data) -> "Note | str":
        """A note from `data()`; a stored text of before (`{"text": ...}`, or a bare string)
        as the text it is, shown as written."""
        if isinstance(data, str):
            return data
        if "msgid" not in data:
            return str(data.get("text", ""))
        message = data["msgid"] if data.get("plural") is None else (data["msgid"], data["plural"])
        params = {k: _value_load(v) for k, v in (data.get("params") or {}).items()}
        return cls(message, params, count=data.get("count"), context=data.get("context"))


def _value_data(value):
    if isinstance(value, Note):
        return {"note": value.data()}
    if isinstance(value, tuple | list):
        return {"list": [_value_data(v) for v in value]}
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return str(value)


def _value_load(value):
    if isinstance(value, dict) and "note" in value:
        return Note.load(value["note"])
    if isinstance(value, dict) and "list" in value:
        return tuple(_value_load(v) for v in value["list"])
    return value


def note_data(note) -> dict:
    """What JSON keeps of `note`: a `Note`'s `data()`, any other text as it is
    (`{"text": ...}`, shown as written)."""
    return note.data() if isinstance(note, Note) else {"text": str(note)}


def notes_load(value) -> list:
    """A stored list of notes (`note_data` each) as notes; a text of before (one note a line)
    as its lines."""
    if isinstance(value, str):
        return [line for line in value.splitlines() if line.strip()]
    return [Note.load(item) for item in value or ()]


def notes_data(value) -> list[dict]:
    """A stored list of notes as JSON keeps them; a text of before as one `{"text": ...}` a
    line."""
    if isinstance(value, str):
        return [{"text": line} for line in value.splitlines() if line.strip()]
    return list(value or ())
