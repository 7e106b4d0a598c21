"""One render per page version: when a change makes a page new, the visitors who ask for it at
that moment wait for one render instead of each rendering it (gunicorn's workers, each server).

Real threads with their own database connections stand for the workers; the page is a view
that takes long enough to render that the others arrive while it is being rendered.
"""

import threading
import time

import pytest
from django.contrib.auth.models import AnonymousUser
from django.http import HttpResponse
from django.test import RequestFactory

from core import pagecache
from tests.concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)

SCOPE = ("event", 987_654)  # a scope no row names: version 0, as a page never changed
RENDER_SECONDS = 0.4


class SlowPage:
    """A public page that takes RENDER_SECONDS to render and counts its renders."""

    def __init__(self, fail_first: bool = False):
        self.renders, self.fail_first, self.lock = 0, fail_first, threading.Lock()

        @pagecache.public_page(lambda request: [SCOPE], route=lambda request: "test:slow")
        def view(request):
            with self.lock:
                self.renders += 1
                number = self.renders
            time.sleep(RENDER_SECONDS)
            if self.fail_first and number == 1:
                raise RuntimeError("the first render crashed")
            return HttpResponse(f"render number {number}")

        self.view = view

    def visit(self) -> bytes:
        request = RequestFactory().get("/slow/")
        request.user = AnonymousUser()
        return self.view(request).content


def test_visitors_arriving_together_share_one_render(backend):
    page = SlowPage()
    bodies = run_together(page.visit, page.visit, page.visit)
    assert page.renders == 1
    assert bodies == [b"render number 1"] * 3


def test_a_new_version_is_rendered_once_more(backend):
    page = SlowPage()
    assert page.visit() == b"render number 1"
    pagecache.touch(SCOPE)  # a write: the version moves on
    bodies = run_together(page.visit, page.visit)
    assert page.renders == 2
    assert bodies == [b"render number 2"] * 2


def test_a_render_that_crashes_lets_the_next_visitor_render_at_once(backend, monkeypatch):
    """The crashed renderer's lock is released, so nobody waits out RENDER_WAIT for it."""
    monkeypatch.setattr(pagecache, "RENDER_WAIT", 30.0)
    page = SlowPage(fail_first=True)
    with pytest.raises(RuntimeError):
        page.visit()
    started = time.monotonic()
    assert page.visit() == b"render number 2"
    assert time.monotonic() - started < 10


def test_a_waiter_renders_itself_when_the_renderer_never_finishes(backend, monkeypatch):
    """A renderer that died without releasing its lock (a killed worker) costs the others at
    most RENDER_WAIT: then they render the page themselves."""
    monkeypatch.setattr(pagecache, "RENDER_WAIT", 0.2)
    held: list[str] = []

    def held_by_a_dead_worker(name):
        # The lock of this render is taken, and never released, by a worker killed mid-render.
        held.append(name)
        pagecache.cache.add(name, 1, 60)
        return False

    monkeypatch.setattr(pagecache, "_lock", held_by_a_dead_worker)
    page = SlowPage()
    assert page.visit() == b"render number 1"
    assert held and held[0].endswith(":rendering")
