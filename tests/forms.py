"""The error summary a form comes back with (templates/components/error_summary.html, the GOV.UK
Design System's pattern), read from a page's HTML by the client tests."""

import re


def error_summary(page: str) -> str:
    """The summary's markup, or "" when the page has none."""
    found = re.search(r'<div class="error-summary".*?</div>', page, re.S)
    return found[0] if found else ""
