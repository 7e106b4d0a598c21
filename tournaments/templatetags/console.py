"""The TO console's cards and player list, and the pieces every card shares, made once.

The cards and the player list are drawn by Jinja2 template files in
`tournaments/jinja2/tournaments/console/` (autoescaped, core/jinja.py): 64 pod cards (256
players) or 256 match cards (512) were each an include of the format's `card` partial with
three dozen variable lookups, most of the console's time (bench/pages.py). The rare parts (a
pod's open finishing order, the seats a cut's seeds choose, a table whose players' reports are
to be shown) are still the format's Django partials, which the cards' template asks `_Cards`
for. A 512-player 1v1 round's 256 cards carry the same 15 result buttons: they depend only on
the format, the round's kind and the language, so they are rendered once per process
for each.
"""

import hashlib
import re
from functools import lru_cache

from django import template
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext, pgettext, pgettext_lazy

from core.fragments import fragment_tag, jinja_template

from ..domain import labels
from ..selectors.console import seats_of

register = template.Library()


# A match's games as domain.labels and domain.reports write them: "2\u20131", "0\u20130\u20133".
SCORE = re.compile("(\\d+(?:\u2013\\d+)+)")


@register.filter
def scores(text) -> SafeString:
    """A sentence with each score in it kept whole: "Bob won 2\u20131" with its "2\u20131" in a
    `<span class="score">` (no line break inside, guildhall.css), so that a narrow line never
    breaks a score at its dash ("loss 0\u2013 / 2", issue 43). The rest is escaped."""
    parts = SCORE.split(str(text))
    drawn = [
        format_html('<span class="score">{}</span>', part) if odd else conditional_escape(part)
        for odd, part in ((i % 2 == 1, p) for i, p in enumerate(parts))
    ]
    return mark_safe("".join(drawn))  # each part escaped above


# A round's result in a player's rounds (selectors.PlayerRound.result: a code, also the
# row's class), as the page says it.
RESULT_WORDS = {
    "win": pgettext_lazy("result of a round", "win"),
    "loss": pgettext_lazy("result of a round", "loss"),
    "draw": pgettext_lazy("result of a round", "draw"),
    "bye": pgettext_lazy("result of a round", "bye"),
    "bye ½": pgettext_lazy("result of a round", "bye ½"),
    "playing": pgettext_lazy("result of a round", "playing"),
}


@register.filter
def result_word(code) -> str:
    """`{{ row.result|result_word }}`: "win", "loss", "draw", "bye", "bye ½", "playing"."""
    word = RESULT_WORDS.get(code)
    return code if word is None else str(word)


@register.filter
def seat_names(table) -> str:
    """`{{ table|seat_names }}`: the table's players in seat order, "Ann \u2013 Bob"."""
    return " \u2013 ".join(str(seat.entry.player.name) for seat in seats_of(table))


@register.simple_tag
def waiting_names(names, me: str) -> str:
    """The names a table's report still waits for, the player's own said as "you"
    ("you, Bob"), for the player's page's "Waiting for ..." sentence."""
    you = gettext("you")
    return ", ".join(you if name == me else str(name) for name in names)


@lru_cache(maxsize=64)
def _buttons(template_name: str, top_cut: bool, language: str | None) -> SafeString:
    """Rendered once per format, kind of round and language (the labels are translated)."""
    from ..formats import FORMATS

    play = next(f for f in FORMATS.values() if f.template == template_name)
    # A Django template's output: already safe.
    return render_to_string(f"{template_name}#result-buttons", {"play": play, "top_cut": top_cut})


@register.simple_tag
def result_buttons(play, round_kind: str) -> SafeString:
    """The format's result buttons (the draws left out of a top cut), rendered once."""
    return _buttons(play.template, round_kind == "top_cut", get_language())


@register.simple_tag
def place_options(count: int, selected: int | None, empty: str = "place") -> SafeString:
    """`<option>`s for places (or seats) 1..count after an empty choice, `selected` chosen;
    `empty`: "place" or "seat", the empty choice's word (translated here)."""
    empty = pgettext("seat at a table", "seat") if empty == "seat" else gettext("place")
    return format_html('<option value="">{}</option>', empty) + format_html_join(
        "",
        '<option value="{}"{}>{}</option>',
        ((n, " selected" if n == selected else "", n) for n in range(1, count + 1)),
    )


_PARTIALS = {"pod": "tournaments/formats/pod.html#", "match": "tournaments/formats/match.html#"}


def _token(context) -> str:
    """The CSRF token the page's forms carry ("" where the context has none)."""
    token = context.get("csrf_token")
    return str(token) if token and token != "NOTPROVIDED" else ""


def minutes_since(moment) -> str:
    """ "2 min": the whole minutes since `moment` (a card note's; console.js counts on)."""
    seconds = (timezone.now() - moment).total_seconds()
    return gettext("%(minutes)s min") % {"minutes": max(0, int(seconds // 60))}


def card_state(table) -> str:
    """A short fingerprint of what a card shows: the table's version (its result), its time
    extension, its notes (an open judge call) and where its players' reports stand. The
    console's script replaces a card the live part sends only when this differs (the cards'
    forms carry a fresh CSRF mask on every render)."""
    state = getattr(table, "report_state", None)
    notes = tuple((n.kind, n.text) for n in getattr(table, "notes", ()))
    parts = (table.version, table.extra_minutes)
    if notes:  # a card without notes keeps its fingerprint
        parts += (notes,)
    if state is not None:
        parts += (
            state.state,
            tuple((r.pk, r.status, tuple(r.agreeing)) for r in state.open),
            state.decided.pk if state.decided else None,
            tuple(state.waiting_for),
            state.needed,
        )
    return hashlib.blake2b(repr(parts).encode(), digest_size=6).hexdigest()


class _Cards:
    """What every card of one page shares, found once (the format, the CSRF token, the
    address prefix, the round's kind, the message and error of a refused tap), and the
    format's Django partials the cards' template asks for."""

    def __init__(self, context):
        self.context = context
        self.play = context["event"].play
        self.pods = self.play.template.endswith("/pod.html")

    def partial(self, name: str, table) -> SafeString:
        template = self.context.template.engine.get_template(
            _PARTIALS["pod" if self.pods else "match"] + name
        )
        with self.context.push(table=table):
            return template.render(self.context)

    def report_state(self, table) -> SafeString:
        """A table whose players' reports are to be shown (selectors.reports.round_states;
        the common states are drawn by the cards' template)."""
        template = self.context.template.engine.get_template("tournaments/_report_state.html")
        with self.context.push(table=table):
            return template.render(self.context)

    def draw(self, tables) -> str:
        context = self.context
        kind = getattr(context.get("round"), "kind", "")
        message = context.get("message")
        name = "pod_cards" if self.pods else "match_cards"
        return jinja_template(f"tournaments/console/{name}.jinja").render(
            tables=tables,
            card=self,
            csrf_token=_token(context),
            tables_url=context.get("tables_url") or "",
            kind=kind,
            message=str(message) if message else "",
            order_wanted=bool(message) or getattr(context.get("error"), "field", None) == "places",
            # The console's live part (views.event_run_live) sends every card out of band.
            oob=bool(context.get("cards_oob")),
            buttons=""
            if self.pods
            else _buttons(self.play.template, kind == "top_cut", get_language()),
            seats_of=_seat_list,
            full_order=_full_order,
            card_state=card_state,
            minutes_since=minutes_since,
        )


@register.filter(name="seats")
def _seat_list(table) -> list:
    """`{{ table|seats }}`: the table's seats in seat order with their players, as read for its
    card (`selectors.console.seats_of`: the round's rows, or those the result service wrote),
    so a format's partial reads no seat twice."""
    return list(seats_of(table))


def _full_order(seats) -> bool:
    return labels.full_order([seat.place for seat in seats])


@fragment_tag(register, takes_context=True)
def table_card(context, table) -> str:
    """One table's card on the console (the format's: a pod or a match), as stored now."""
    return _Cards(context).draw([table])


@fragment_tag(register, takes_context=True)
def table_cards(context, tables) -> str:
    """The round's cards, in order, each as `table_card` draws it."""
    return _Cards(context).draw(tables)


@fragment_tag(register, takes_context=True)
def entry_list(context, entries) -> str:
    """The console's player list (`<li>` per entry of console_selectors.entry_lines): each
    name with its tags and, until the event is finished, the forms that act at once (a
    half-bye given back, a drop undone) and the link to the rest (fetched when opened). Drawn
    by `tournaments/console/entry_list.jinja` rather than a Django template loop: 256 players
    were half the console's time."""
    return jinja_template("tournaments/console/entry_list.jinja").render(
        entries=entries,
        status=context["event"].status,
        csrf_token=_token(context),
        entries_url=context.get("entries_url") or "",
    )


@register.simple_tag
def round_next(event, round_) -> tuple[str, str]:
    """What the console's one tap does once every table of `round_` has a result
    (views.round_advance), and what it ends: ("Pair round 3", "ends round 2")."""
    # Translators: "ends round 2", "ends the final": the round's label as in a sentence.
    ends = gettext("ends %(round)s") % {"round": round_.label_in_sentence}
    if round_.kind == "top_cut":
        if round_.stage == "Final":
            return gettext("Finish the event"), ends
        return gettext("Pair the next stage"), ends
    if round_.number < (event.swiss_rounds or 0):
        return gettext("Pair round %(number)s") % {"number": round_.number + 1}, ends
    if event.top_cut:
        return gettext("Start the top %(cut)s") % {"cut": event.top_cut}, ends
    return gettext("Final standings"), ends
