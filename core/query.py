"""The query string, made safe once for every view.

`QueryCleaningMiddleware` replaces `request.GET` with a copy without NUL characters and lone
surrogates, before any view reads it: PostgreSQL refuses a NUL in any text it is sent (a
search for "%00" was a 500), and a lone surrogate cannot be encoded to send at all. Nothing
else is changed: a query is text, and each view still decides what its parameters mean.
Numbers are the views' to read; `page_number` is the one reading of a page number (huge,
negative or not a number at all is a page that exists), for the views that compute an
offset from it themselves rather than through Django's `Paginator.get_page`.
"""

import re

from django.http import HttpRequest, QueryDict

# NUL, and the UTF-16 surrogates that are only ever half of a pair (no UTF-8 text has them).
_UNSENDABLE = re.compile("[\x00\ud800-\udfff]")

# Past this a page is past the last one anyway (50 rows a page: 50 million rows), and
# (page - 1) * rows stays far inside PostgreSQL's bigint OFFSET.
MAX_PAGE = 1_000_000
_DIGITS = re.compile(r"[+-]?[0-9]+")


def clean_text(value: str) -> str:
    return _UNSENDABLE.sub("", value)


def clean_query(query: QueryDict) -> QueryDict:
    """`query` without NUL characters and lone surrogates in its names and values (the same
    object when it has none, as nearly every request)."""
    if not any(
        _UNSENDABLE.search(name) or any(_UNSENDABLE.search(value) for value in values)
        for name, values in query.lists()
    ):
        return query
    cleaned = QueryDict(mutable=True, encoding=query.encoding)
    for name, values in query.lists():
        for value in values:
            cleaned.appendlist(clean_text(name), clean_text(value))
    cleaned._mutable = False  # read-only, as Django's own request.GET
    return cleaned


class QueryCleaningMiddleware:
    """Every view reads a `request.GET` that the database and the templates can take."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest):
        request.GET = clean_query(request.GET)
        return self.get_response(request)


def page_number(raw: str | None) -> int:
    """The page asked for: 1 for nothing, a negative number, zero or not an ASCII number;
    MAX_PAGE for anything past it (as long as the person likes: the view shows its last page)."""
    text = (raw or "").strip()
    if not _DIGITS.fullmatch(text) or text.startswith("-"):
        return 1
    digits = text.lstrip("+").lstrip("0")
    if len(digits) > len(str(MAX_PAGE)):  # int() of thousands of digits is refused, and slow
        return MAX_PAGE
    return min(max(1, int(digits or "0")), MAX_PAGE)
