"""The shared cache of the public pages: a version per scope in PostgreSQL, the rendered pages in
Django's cache (the database cache by default, Redis with REDIS_URL), and conditional GETs.

A scope is what a page shows: an event, a league, or an organization (its name, its leagues'
names, its players' names). Every write that changes what a scope's pages show calls `touch` in
its own transaction: the version row is bumped by the same commit that makes the change
visible, so there is no moment when the change is committed and the old version still current
(an after-commit hook would leave one), and a rolled-back write bumps nothing. Because the
version row is locked until commit, a reader that sees the new version reads the new data.

`public_page` wraps a view: for an anonymous GET with no message waiting, it finds the page's
scopes (kept in the cache per URL while their versions stand), reads their versions (one
query), looks up the page rendered at exactly those versions, and on a miss renders it once and
stores it (one process renders a new version while the others wait for its entry). Each process
also keeps the entries it used last (`recent`), which the versions in their keys make exactly
as fresh as the shared ones: a visit served from there costs the one query of the versions.
Nobody ever has to delete an entry: a new version makes a
new key, and the old entries age out. What is stored is the content with a placeholder where
the CSRF token goes; each response gets its own token (`csrf_context` puts the placeholder in
while a page is rendered for the cache). Every cached response carries an ETag and
Last-Modified drawn from the versions, so a refresh that changed nothing is a 304.

`memo` keeps any computed value (an event's standings rows) per version the same way, for the
pages that are not cached whole (a logged-in judge's), so it is computed once per change.
"""

import functools
import hashlib
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from contextlib import nullcontext
from datetime import datetime
from functools import wraps

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.translation import get_language

from . import languages

Scope = tuple[str, int]
# One version: (scope, key, number, changed_at); a scope never written has number 0.
Stamp = tuple[tuple[str, int, int, datetime | None], ...]

# An entry of an old version is dead at once (its key is never asked for again); this only
# bounds how long Redis keeps it. A page nobody changed is rendered again once an hour.
TIMEOUT = 3600
# One render per page version: how long others wait for it, how often they look, and how long
# a renderer's lock outlives a crash. A public page renders in 2-170 ms (bench/burst.py).
RENDER_WAIT = 2.0
RENDER_POLL = 0.01
RENDER_LOCK = 10
# Put where the CSRF token goes while a page is rendered for the cache; not a valid token.
CSRF_PLACEHOLDER = "gh-page-cache-csrf-placeholder-0c5e1d7a"
_PLACEHOLDER = CSRF_PLACEHOLDER.encode()
# Request headers that change what a view renders for the same URL (htmx fragments).
_VARIANT_HEADERS = ("HTTP_HX_REQUEST", "HTTP_HX_TARGET", "HTTP_HX_BOOSTED")


class _Recent:
    """The entries this process used last, in front of the shared cache (an LRU).

    Safe to keep per process because every key names the versions it was rendered at, and the
    versions are read from PostgreSQL on every request: a page that changed has a new key, so
    an entry here can only be the same as the shared one. It saves a round trip per visit.
    """

    def __init__(self, size: int):
        self.size, self.items, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key: str):
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def set(self, key: str, value) -> None:
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()


recent = _Recent(64)

logger = logging.getLogger(__name__)


def _shared(operation: str, *args, failed=None):
    """`cache.<operation>(*args)`, or `failed` when the shared cache fails: a failing cache
    costs renders, never a page. django-redis already reads its errors as misses
    (IGNORE_EXCEPTIONS); the database cache raises (its table dropped, a restore without
    `createcachetable`), so its query runs in a savepoint when the request is inside a
    transaction: the failure then rolls back only that query, not the request's work."""
    try:
        with transaction.atomic() if connection.in_atomic_block else nullcontext():
            return getattr(cache, operation)(*args)
    except Exception:
        logger.warning("The shared cache failed (%s); rendering instead.", operation, exc_info=True)
        return failed


def _get(key: str):
    value = recent.get(key)
    if value is None:
        value = _shared("get", key)
        if value is not None:
            recent.set(key, value)
    return value


def _set(key: str, value) -> None:
    _shared("set", key, value, TIMEOUT)
    recent.set(key, value)


def enabled() -> bool:
    """Computed values (`memo`) are kept: GUILDHALL_PAGE_CACHE is on, or "values"."""
    return bool(getattr(settings, "GUILDHALL_PAGE_CACHE", True))


def pages_enabled() -> bool:
    """Whole pages are kept too: GUILDHALL_PAGE_CACHE is on (not "values", which keeps only
    the computed values: what bench/pages.py times as a page's render)."""
    return getattr(settings, "GUILDHALL_PAGE_CACHE", True) is True


def touch(*scopes: Scope) -> None:
    """Bump the version of each scope, in the caller's transaction (call it inside the write).

    One statement; rows are locked in a fixed order so two writers touching the same scopes
    cannot deadlock on them. `changed_at` only moves forward (it is the page's Last-Modified).
    """
    wanted = sorted({(scope, int(key)) for scope, key in scopes if key is not None})
    if not wanted:
        return
    values = ", ".join(["(%s, %s, 1, clock_timestamp())"] * len(wanted))
    with connection.cursor() as cursor:
        cursor.execute(
            f"""INSERT INTO core_pageversion (scope, key, number, changed_at) VALUES {values}
                ON CONFLICT (scope, key) DO UPDATE SET
                    number = core_pageversion.number + 1,
                    changed_at = GREATEST(
                        clock_timestamp(), core_pageversion.changed_at + interval '1 microsecond'
                    )""",
            [part for pair in wanted for part in pair],
        )


def versions(scopes: Sequence[Scope], request: HttpRequest | None = None) -> Stamp:
    """The current version of each scope, in the order given (one query, once per request:
    scopes already read in this request, together or among others, are not read again)."""
    wanted = tuple((scope, int(key)) for scope, key in scopes)
    known = getattr(request, "_page_versions", None) if request is not None else None
    if known is not None:
        if wanted in known:
            return known[wanted]
        read = {(s, k): row for stamp in known.values() for row in stamp for s, k in [row[:2]]}
        if all(scope in read for scope in wanted):
            known[wanted] = tuple(read[scope] for scope in wanted)
            return known[wanted]
    found: dict[Scope, tuple[int, datetime]] = {}
    if wanted:
        rows = ", ".join(["(%s, %s)"] * len(wanted))
        with connection.cursor() as cursor:
            cursor.execute(
                f"""SELECT scope, key, number, changed_at FROM core_pageversion
                     WHERE (scope, key) IN ({rows})""",
                [part for pair in wanted for part in pair],
            )
            found = {(scope, key): (number, at) for scope, key, number, at in cursor.fetchall()}
    stamp = tuple((scope, key, *found.get((scope, key), (0, None))) for scope, key in wanted)
    if request is not None:
        if known is None:
            known = request._page_versions = {}
        known[wanted] = stamp
    return stamp


# What the pages are rendered by: the project's own code, templates and static files, and the
# pinned requirements. Folders of other people's files, and those no page is rendered from, are
# not read.
RELEASE_SUFFIXES = frozenset({".py", ".html", ".jinja", ".txt", ".css", ".js", ".svg", ".json"})
RELEASE_SKIPPED = frozenset(
    {"node_modules", "staticfiles", "vendor", "pyodide", "tests", "bench", "docs", "__pycache__"}
)


@functools.cache
def release(root: str | None = None) -> str:
    """The release the pages are rendered by, in every key: after a deploy a page whose
    versions did not change is rendered again rather than served as the old code drew it
    (markup, links to static files that collectstatic renamed) for up to TIMEOUT.

    GUILDHALL_RELEASE when it is set (a deploy may name its commit); else a digest of the
    contents (not the dates, so every host and worker of one deploy agrees) of the files under
    `root` (the project) that pages are drawn from. Read once per process: a deploy restarts
    the workers."""
    named = os.environ.get("GUILDHALL_RELEASE", "").strip()
    if named and root is None:
        return named
    digest = hashlib.blake2b(digest_size=8)
    top = str(root or settings.BASE_DIR)
    for folder, folders, files in os.walk(top):
        folders[:] = sorted(f for f in folders if f not in RELEASE_SKIPPED and f[0] != ".")
        for name in sorted(files):
            if os.path.splitext(name)[1] in RELEASE_SUFFIXES:
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, top).encode() + b"\0")
                with open(path, "rb") as file:
                    digest.update(file.read())
    return digest.hexdigest()


def _digest(*parts) -> str:
    text = repr((release(), parts)).encode()
    return hashlib.blake2b(text, digest_size=16).hexdigest()


def _stamp_text(stamp: Stamp) -> tuple:
    # changed_at goes into the key too: a version table restored or rebuilt (numbers counting
    # from 1 again) can never name a page stored before.
    return tuple((s, k, n, at.isoformat() if at else "") for s, k, n, at in stamp)


def memo_key(name: str, scopes: Sequence[Scope], request=None) -> str:
    """The cache key `memo` keeps `name` under at the current versions of `scopes`, in the
    active language (a value may hold translated labels)."""
    return "gh:memo:" + _digest(name, _language(), _stamp_text(versions(scopes, request)))


def memo(name: str, scopes: Sequence[Scope], compute: Callable[[], object], *, request=None):
    """`compute()` once per version of `scopes`, kept in the shared cache under `name`."""
    if not enabled():
        return compute()
    key = memo_key(name, scopes, request)
    value = _get(key)
    if value is None:
        value = compute()
        _set(key, value)
    return value


def _language() -> tuple[str, bool]:
    """What decides a page's language before its view runs (core.languages): the request's
    language and whether the visitor chose it. A store's page drawn in the store's language
    for visitors who chose none is one entry per browser language, each in the store's; a
    visitor who chose French never gets the German entry (the ETag, drawn from the key,
    differs too, so a 304 never keeps the other language's page)."""
    return get_language(), languages.chosen()


def csrf_context(request: HttpRequest) -> dict:
    """Template context processor: the placeholder as `csrf_token` while a page is rendered
    for the cache (after Django's own csrf processor, so it wins only then)."""
    if getattr(request, "_page_cache_render", False):
        return {"csrf_token": CSRF_PLACEHOLDER}
    return {}


def _messages_waiting(request: HttpRequest) -> bool:
    storage = getattr(request, "_messages", None)
    return storage is not None and len(storage) > 0


def _cacheable_request(request: HttpRequest) -> bool:
    return (
        pages_enabled()
        and request.method in ("GET", "HEAD")
        and not request.user.is_authenticated
        and not _messages_waiting(request)
    )


def _entry_of(response: HttpResponse, key: str, stamp: Stamp) -> dict | None:
    if response.status_code != 200 or response.streaming or response.cookies:
        return None
    until = getattr(response, "cache_until", None)  # a page that changes with the clock
    changed = [at for *_, at in stamp if at is not None]
    return {
        "body": response.content,
        "type": response["Content-Type"],
        "language": response.get("Content-Language") or get_language(),
        "until": until,
        "etag": f'"{_digest(key, until)}"',
        # A page that changes with the clock has no honest Last-Modified: the ETag decides.
        # Whole seconds, as HTTP dates are (If-Modified-Since compares against this).
        "modified": int(max(changed).timestamp()) if changed and until is None else None,
    }


def _respond(request: HttpRequest, entry: dict) -> HttpResponse:
    body = entry["body"]
    if _PLACEHOLDER in body:
        body = body.replace(_PLACEHOLDER, get_token(request).encode())
    response = HttpResponse(body, content_type=entry["type"])
    response["ETag"] = entry["etag"]
    if entry.get("language"):
        response["Content-Language"] = entry["language"]
    if entry["modified"] is not None:
        response["Last-Modified"] = http_date(entry["modified"])
    # Browsers ask again on every visit (and get a 304 when nothing changed): a page is never
    # older than the last committed change.
    patch_cache_control(response, no_cache=True)
    patch_vary_headers(response, ("Accept-Language", "Cookie", "HX-Request", "HX-Target"))
    return get_conditional_response(
        request, etag=entry["etag"], last_modified=entry["modified"], response=response
    )


def route_scopes(route_name: str) -> list[Scope] | None:
    """The scopes `public_page` last found for the route named `route_name` (what its
    `route` gives: `event:<slug>`), or None. They may be out of date: read their versions
    and compare before trusting anything computed from them (a change that moves a page to
    other scopes bumps the versions it had)."""
    if not pages_enabled():
        return None
    known = _get("gh:route:" + _digest(route_name))
    return list(known[0]) if known is not None else None


def public_page(
    scopes_of: Callable[..., Iterable[Scope]],
    *,
    route: Callable[..., str],
    fresh_if: Callable[[list[Scope]], bool] | None = None,
):
    """Cache a public view per version of the scopes `scopes_of(request, *args, **kwargs)`
    names; it also checks the visitor may see the page (a 404 raised there is a 404).

    `route(request, *args, **kwargs)` names what the URL points at (`event:<slug>`): the
    scopes found for it are kept in the cache with their versions, and reused while those
    versions are unchanged, so a visit served from the cache needs no lookup of the event by
    its slug. Whatever could change the answer (the event renamed or deleted, its league made
    private) bumps one of those versions, and the next visit looks it up again.

    `fresh_if(scopes)` says the page must be rendered fresh this time (a league being re-rated
    shows its progress). Only anonymous GETs with no message waiting are cached: a logged-in
    user's page has their own links and forms. A view may set `cache_until` (epoch seconds) on
    its response when its content changes with the clock (the projector's minutes left).
    """

    def scopes_and_stamp(request, args, kwargs) -> tuple[list[Scope], Stamp]:
        route_key = "gh:route:" + _digest(route(request, *args, **kwargs))
        known = _get(route_key)
        if known is not None:
            scopes, stamp = known
            if versions(scopes, request) == stamp:
                return scopes, stamp
        scopes = [(scope, int(key)) for scope, key in scopes_of(request, *args, **kwargs)]
        stamp = versions(scopes, request)
        _set(route_key, (scopes, stamp))
        return scopes, stamp

    def decorate(view):
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            if not _cacheable_request(request):
                return view(request, *args, **kwargs)
            scopes, stamp = scopes_and_stamp(request, args, kwargs)
            if fresh_if is not None and fresh_if(scopes):
                return view(request, *args, **kwargs)
            variant = tuple(request.META.get(name, "") for name in _VARIANT_HEADERS)
            key = "gh:page:" + _digest(
                view.__module__,
                view.__qualname__,
                request.build_absolute_uri(),
                variant,
                _language(),
                _stamp_text(stamp),
            )
            entry = _get(key)
            if not _usable(entry):
                entry = _render_once(request, key, stamp, lambda: view(request, *args, **kwargs))
                if isinstance(entry, HttpResponse):
                    return _with_token(request, entry)
            return _respond(request, entry)

        return wrapper

    return decorate


def _usable(entry: dict | None) -> bool:
    return entry is not None and (entry["until"] is None or time.time() < entry["until"])


def _lock(name: str) -> bool:
    """Take the render lock `name` unless another process holds it. A cache that fails
    answers None (django-redis ignores its errors, `_shared` the database cache's): then
    render, as without the cache."""
    return _shared("add", name, 1, RENDER_LOCK) is not False


def _render_once(request: HttpRequest, key: str, stamp: Stamp, render: Callable[[], HttpResponse]):
    """The entry for `key`, rendered by one process only: when a change makes a page new, the
    visitors who ask for it at that moment (in every worker, on every server) would each render
    it; instead the first takes a short lock in the shared cache (`cache.add`, atomic in the
    database cache and in Redis) and renders, and the others wait for its entry, polling the
    cache, for up to RENDER_WAIT seconds before rendering it themselves (a renderer that
    crashed holds its lock for RENDER_LOCK seconds at most). Returns the entry, or the response
    itself when it cannot be kept (a 404, a redirect)."""
    lock = key + ":rendering"
    mine = _lock(lock)
    if not mine:
        deadline = time.monotonic() + RENDER_WAIT
        while time.monotonic() < deadline:
            time.sleep(RENDER_POLL)
            entry = _shared("get", key)
            if _usable(entry):
                recent.set(key, entry)
                return entry
    try:
        request._page_cache_render = True
        try:
            response = render()
        finally:
            request._page_cache_render = False
        entry = _entry_of(response, key, stamp)
        if entry is None:
            return response
        _set(key, entry)
        return entry
    finally:
        if mine:
            _shared("delete", lock)


def _with_token(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A response rendered for the cache but not kept (a 404, a redirect): its token filled."""
    if not response.streaming and _PLACEHOLDER in response.content:
        response.content = response.content.replace(_PLACEHOLDER, get_token(request).encode())
    return response
