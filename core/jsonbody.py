"""The one way the site reads a JSON request body: `json_body` returns the value, or raises
`BadJson` (a `DomainError`, 400) for anything it cannot safely hand on.

A body is untrusted. `json.loads` alone lets three things escape as a 500: bytes that are not
UTF-8 (`UnicodeDecodeError`), a number of thousands of digits (`ValueError`), and arrays or
objects nested past Python's recursion limit (`RecursionError`, e.g. 100,000 `[`). And a value
nested a few hundred deep, which the parser still reads, breaks the code after it (digests,
comparisons, `json.dumps`) the same way. So a body nested deeper than `MAX_DEPTH` is refused
too: no body the site takes goes past a handful of levels. Plain Python, no Django.
"""

import json

from .errors import DomainError
from .translate import gettext as _

# The deepest body the site takes (the phone's round: input > history > round > table >
# players) is 5 levels; 64 leaves room and stays far below the recursion limit.
MAX_DEPTH = 64


class BadJson(DomainError):
    """A request body that is not JSON the site can read (400)."""

    default_code = "invalid_json"


def _depth_exceeds(value, limit: int) -> bool:
    """Whether `value` nests lists/objects deeper than `limit` (without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def json_body(body: bytes | str, *, max_depth: int = MAX_DEPTH):
    """The JSON value of `body`, or BadJson (field "body") saying why it cannot be read."""
    try:
        value = json.loads(body)
    except RecursionError:
        raise BadJson(message=_("The body is nested too deeply."), field="body") from None
    except ValueError:  # not JSON, not UTF-8 (UnicodeDecodeError), a number too long
        raise BadJson(message=_("The body is not valid JSON."), field="body") from None
    if _depth_exceeds(value, max_depth):
        raise BadJson(
            message=_("The body is nested too deeply (at most %(levels)s levels).")
            % {"levels": max_depth},
            field="body",
        )
    return value
