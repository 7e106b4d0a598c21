"""Hostile form values and a "nothing was written" check, shared by the form tests.

Each value is something a person or a script could type or post: far too long, NUL and other
control characters, spreadsheet formulas, numbers out of every range, dates that are not
dates, digits that are not ASCII, deep JSON. A form must answer each with 200/400 and a
message on the field, or accept it as the plain text it is; never a 500.
"""

from django.apps import apps
from django.db import connection

HOSTILE_VALUES = {
    "10k-chars": "x" * 10_000,
    "101-chars": "y" * 101,
    "nul": "a\x00b",
    "only-nul": "\x00",
    "bell": "a\x07b",
    "formula": "=cmd()",
    "hyperlink": '=HYPERLINK("http://evil.example","x")',
    "rtl-override": "\u202eevil",
    "blank": "   ",
    "negative": "-1",
    "huge-negative": "-99999999999999999999",
    "huge": "9" * 5000,
    "bigint": "9223372036854775808",
    "float-overflow": "1e999",
    "nan": "nan",
    "inf": "inf",
    "superscript-digit": "²",
    "arabic-digit": "٣",
    "bad-date": "2026-02-30",
    "zero-date": "0000-00-00",
    "far-date": "99999-01-01",
    "deep-json": "[" * 5000 + "]" * 5000,
    "json-object": '{"a": [1, 2]}',
    "html": "<script>alert(1)</script>",
}

# What each kind of field must refuse (400): everything else may be accepted as what it is
# (a name "=cmd()" or "nan" is text; a checkbox is ticked by any value).
_TOO_LONG_OR_NUL = {"10k-chars", "nul", "only-nul"}
REFUSED_BY_KIND = {
    "name": _TOO_LONG_OR_NUL | {"101-chars", "bell", "blank"},
    "text": _TOO_LONG_OR_NUL,
    "date": set(HOSTILE_VALUES),
    "count": set(HOSTILE_VALUES) - {"arabic-digit"},  # int("٣") is 3, as Python reads it
    "number": set(HOSTILE_VALUES) - {"negative", "arabic-digit"},
    "choice": set(HOSTILE_VALUES),
    "checkbox": set(),
}


# For ids, choices and buttons, which take no free text: the values most likely to break a
# parser (digits Python reads but int() refuses, numbers past the database's integers).
ID_VALUES = {
    key: HOSTILE_VALUES[key]
    for key in (
        "10k-chars",
        "nul",
        "blank",
        "negative",
        "huge",
        "bigint",
        "superscript-digit",
        "arabic-digit",
    )
}

APPS = ("leagues", "ratings", "tournaments")


def row_counts() -> dict[str, int]:
    """Rows of every model of the project's apps (a refused form must change none), read in
    one query (a count a model was 24 queries a call, and the hostile tests call it for
    every value they send)."""
    models = [model for app in APPS for model in apps.get_app_config(app).get_models()]
    quote = connection.ops.quote_name
    sql = "SELECT " + ", ".join(
        f"(SELECT count(*) FROM {quote(model._meta.concrete_model._meta.db_table)})"
        for model in models
    )
    with connection.cursor() as cursor:
        cursor.execute(sql)
        counts = cursor.fetchone()
    return {model._meta.label: count for model, count in zip(models, counts, strict=True)}


def form_errors(response) -> dict:
    """Errors of the page's form, or {} (a response rendered without one)."""
    context = response.context or {}
    form = context.get("form") if hasattr(context, "get") else None
    return dict(form.errors) if form is not None else {}
