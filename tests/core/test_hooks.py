"""The declared extension points (core.hooks): readers combine their answers, slots draw their
fillings in order with autoescape on, and an unknown slot is refused."""

import pytest
from django.template import Context, Engine

from core import hooks
from core.hooks import Reader, Slot, Slots, UnknownSlot, concat, union


@pytest.fixture
def declare():
    """Declares slots for one test, forgotten after it."""
    names = []

    def declare(*slots: Slot) -> Slots:
        names.extend(slot.name for slot in slots)
        return Slots(*slots)

    yield declare
    for name in names:
        hooks.ALL_SLOTS.pop(name, None)


def engine(templates: dict[str, str]) -> Engine:
    return Engine(
        loaders=[("django.template.loaders.locmem.Loader", templates)],
        libraries={"slots": "core.templatetags.slots"},
    )


def test_a_reader_asks_every_registered_reader_and_combines():
    penalties = Reader("test.penalties", combine=union)
    assert not penalties
    assert penalties(1) == frozenset()
    penalties.register(lambda table: {table, 10})
    penalties.register(lambda table: {table + 1})
    assert penalties(1) == {1, 2, 10}

    scopes = Reader("test.scopes", combine=concat)
    first = scopes.register(lambda event_id: [("desk", event_id)])
    scopes.register(first)  # twice the same: once
    scopes.register(lambda event_id: [("calls", event_id)])
    assert scopes(7) == [("desk", 7), ("calls", 7)]
    assert Reader("test.plain")() == []


def test_a_slot_draws_its_fillings_in_order_escaped(declare):
    slots = declare(Slot("test.box"))
    slots["test.box"].fill("first.html", lambda context, who: {"who": who, "page": context["page"]})
    slots["test.box"].fill(
        "second.html", lambda context, who: {"text": "<script>alert(1)</script>"}
    )
    drawn = engine(
        {
            "page.html": '{% load slots %}<main>{% slot "test.box" who=name %}</main>',
            "first.html": "<p>{{ who }} on {{ page }}</p>",
            "second.html": "<p>{{ text }}</p>",
        }
    ).get_template("page.html")
    html = drawn.render(Context({"name": "Ann & <b>Bo</b>", "page": "home"}))
    assert html == (
        "<main><p>Ann &amp; &lt;b&gt;Bo&lt;/b&gt; on home</p>"
        "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p></main>"
    )


def test_an_empty_slot_draws_nothing(declare):
    declare(Slot("test.empty"))
    drawn = engine({"page.html": '{% load slots %}[{% slot "test.empty" %}]'})
    assert drawn.get_template("page.html").render(Context()) == "[]"


def test_an_unknown_slot_is_refused(declare):
    slots = declare(Slot("test.known"))
    with pytest.raises(UnknownSlot):
        slots["test.unknown"].fill("x.html", dict)  # at start-up, in an AppConfig.ready()
    with pytest.raises(ValueError, match="declared twice"):
        Slots(Slot("test.known"))
    drawn = engine({"page.html": '{% load slots %}{% slot "test.nowhere" %}'})
    with pytest.raises(UnknownSlot):
        drawn.get_template("page.html").render(Context())


def test_the_apps_fill_the_slots_they_declare_for():
    """Start-up filled the declared slots and readers (judging.apps, tournaments.apps)."""
    from judging.selectors import call_notes, lost_by_penalty
    from leagues import hooks as leagues
    from tournaments import hooks as tournaments

    assert [f.template_name for f in tournaments.slots["event.player.table"].fillings] == [
        "judging/_call_box.html"
    ]
    assert [f.template_name for f in leagues.slots["home.live"].fillings] == [
        "tournaments/_live.html"
    ]
    assert tournaments.lost_by_penalty.readers == [lost_by_penalty]
    assert tournaments.card_notes.readers == [call_notes]
