"""A History entry's sentence, kept as its English template and its values so that each reader
reads it in their own language (docs/translation.md, "Stored text").

`Summary(N_("%(player)s dropped"), player=name)` is a sentence before translation: its
template is a msgid (marked where it is written with `N_`, or `Nn_` for a plural, both no-ops
`makemessages` knows), its values are what fills it in. A value is a name as typed (a `str`),
a number, a nested `Summary` (a phrase that translates too: a round, a penalty, a role), a
list of values (joined as the reader's language joins a list: `Items`, or `Clauses` for
clauses), or a `Day` (a date written the reader's way). `to_json()` and `from_json()` keep it
in a JSON column; `render()` writes it in the active language, `english()` in English (the
`summary` column, which old rows, searches and exports read)."""

from __future__ import annotations

from datetime import date

from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext, ngettext, npgettext, pgettext


def N_(message: str) -> str:
    """`message` unchanged: marks it for the catalogue; it is translated where it is read."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """A plural pair marked for the catalogue (makemessages' keyword `Nn_:1,2`)."""
    return singular, plural


COUNTS = ("n", "count")  # the value a plural summary is counted by, the first of these it has


class Items(list):
    """Values joined as the reader's language joins a list ("Ann, Bob", "Ann、Bob")."""

    def between(self) -> str:
        return pgettext("between the items of a list", ", ")

    def joined(self) -> str:
        return self.between().join(str(_render(item)) for item in self)


class Clauses(Items):
    """Clauses joined as the reader's language separates them ("Fri: counts; Sat: no longer")."""

    def between(self) -> str:
        # Translators: between two clauses of a list, each with commas of its own
        # ("Friday: no longer counts; Saturday: counts as Regular").
        return pgettext("between the clauses of a list", "; ")


class Day:
    """A day by name, in a GH_ date format of the reader's language ("Fri 3 Dec")."""

    __slots__ = ("day", "format")

    def __init__(self, day: date, format: str = "GH_DAY_SHORT"):
        self.day, self.format = day, format

    def __eq__(self, other) -> bool:
        return isinstance(other, Day) and (self.day, self.format) == (other.day, other.format)

    def render(self) -> str:
        return date_format(self.day, self.format)


def _value(value):
    """A summary's value as it is kept: lists become `Items`, anything else as given."""
    if isinstance(value, (Summary, Items, Day)) or value is None:
        return value
    if isinstance(value, (list, tuple)):
        return Items(_value(v) for v in value)
    if isinstance(value, (str, int, float)):  # bool is an int
        return value
    raise TypeError(f"A summary's value is a name, a number, a Summary, a list or a Day: {value!r}")


def _render(value):
    if isinstance(value, (Summary, Day)):
        return value.render()
    if isinstance(value, Items):
        return value.joined()
    return "" if value is None else value


def _encode(value):
    if isinstance(value, Summary):
        return value.to_json()
    if isinstance(value, Day):
        return {"day": value.day.isoformat(), "format": value.format}
    if isinstance(value, Clauses):
        return {"clauses": [_encode(v) for v in value]}
    if isinstance(value, Items):
        return [_encode(v) for v in value]
    return value


def as_data(value):
    """A summary's value (a `Summary`, a list of them, a `Day`, a name) as JSON keeps it: what
    an entry's `before`/`after` holds for the History to write in its reader's language."""
    return _encode(value)


def _decode(value):
    if isinstance(value, list):
        return Items(_decode(v) for v in value)
    if isinstance(value, dict):
        if "clauses" in value:
            return Clauses(_decode(v) for v in value["clauses"])
        if "day" in value:
            return Day(date.fromisoformat(value["day"]), value.get("format", "GH_DAY_SHORT"))
        return Summary.from_json(value)
    return value


class Summary:
    """A sentence (or a phrase inside one) before translation: its template, plural and
    context as the catalogue has them, and its values. Equal to another with the same."""

    __slots__ = ("context", "params", "plural", "template")

    def __init__(self, template: str | tuple[str, str], /, **params):
        singular, plural = (template, None) if isinstance(template, str) else template
        self.template, self.plural, self.context = singular, plural, ""
        self.params = {key: _value(value) for key, value in params.items()}
        if plural is not None and self.count is None:
            raise ValueError(f"A plural summary is counted by its value n or count: {singular!r}")

    @classmethod
    def pgettext(cls, context: str, message: str, /, **params) -> Summary:
        """A word or phrase whose English has two meanings, by its catalogue's context."""
        summary = cls(message, **params)
        summary.context = context
        return summary

    @classmethod
    def items(cls, values) -> Items:
        return Items(_value(v) for v in values)

    @classmethod
    def clauses(cls, values) -> Clauses:
        return Clauses(_value(v) for v in values)

    @property
    def count(self) -> int | None:
        for key in COUNTS:
            if isinstance(self.params.get(key), int):
                return self.params[key]
        return None

    def render(self) -> str:
        """This summary in the active language, its values filled in (theirs too)."""
        if not self.template:
            return ""
        if self.plural is not None:
            if self.context:
                text = npgettext(self.context, self.template, self.plural, self.count)
            else:
                text = ngettext(self.template, self.plural, self.count)
        else:
            text = pgettext(self.context, self.template) if self.context else gettext(self.template)
        if not self.params:
            return text
        return text % {key: _render(value) for key, value in self.params.items()}

    def english(self) -> str:
        with translation.override("en"):
            return self.render()

    __str__ = english

    def to_json(self) -> dict:
        data: dict = {"t": self.template}
        if self.plural is not None:
            data["pl"] = self.plural
        if self.context:
            data["ctx"] = self.context
        if self.params:
            data["v"] = {key: _encode(value) for key, value in self.params.items()}
        return data

    @classmethod
    def from_json(cls, data: dict) -> Summary:
        template = data["t"] if data.get("pl") is None else (data["t"], data["pl"])
        summary = cls(template, **{k: _decode(v) for k, v in (data.get("v") or {}).items()})
        summary.context = data.get("ctx", "")
        return summary

    def __eq__(self, other) -> bool:
        return isinstance(other, Summary) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return f"Summary({self.to_json()!r})"
