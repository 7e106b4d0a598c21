"""The files the TO's phone keeps for an outage, beyond the pages themselves: the pairing code
(Pyodide and the pure tournament code, `make assets`) and the paper pack's style, so that the
page "Pair without the server" and the paper pack work even when the network goes down before
they were ever opened."""

import json

from django import template
from django.conf import settings
from django.templatetags.static import static

register = template.Library()

# Loaded by Pyodide next to its loader under their own (unhashed) names.
PYODIDE_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"]
# Referred to by the pages through `static` (hashed when deployed).
HASHED = [
    "tournaments/pyodide/pyodide.mjs",
    "tournaments/pyodide/domain.zip",
    "tournaments/offline_pair.js",
    "guildhall/i18n.js",  # the scripts' words (offline_pair.js and clock.js read them)
    "tournaments/clock.js",
    "tournaments/paper.css",
    "tournaments/paper.js",
]


@register.simple_tag
def offline_precache() -> str:
    """The URLs the console asks the service worker to keep, as JSON (empty when the site was
    deployed without `make assets`: nothing to keep, the page says so)."""
    try:
        urls = [static(path) for path in HASHED]
    except ValueError:  # the manifest has no such file
        return "[]"
    base = settings.STATIC_URL  # static("") has no entry in a deploy's manifest
    urls += [f"{base}tournaments/pyodide/{name}" for name in PYODIDE_FILES]
    return json.dumps(urls)
