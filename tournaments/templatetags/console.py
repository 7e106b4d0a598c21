"""Pieces of the TO console's cards that are the same on every card, made once.

A 512-player 1v1 round has 256 cards, each with the same 15 result buttons; drawn by the
template for every card they were most of the console's time (bench/pages.py). The buttons
depend only on the format and the round's kind, so they are rendered once per process, and a
pod's place options are joined in Python rather than looped in the template.
"""

import hashlib
from functools import lru_cache
from html import escape

from django import template
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from core.fragments import fragment_tag, jinja_template

from ..domain import labels
from ..selectors.console import seats_of

register = template.Library()


@lru_cache(maxsize=16)
def _buttons(template_name: str, top_cut: bool) -> SafeString:
    from ..formats import FORMATS

    play = next(f for f in FORMATS.values() if f.template == template_name)
    return mark_safe(
        render_to_string(f"{template_name}#result-buttons", {"play": play, "top_cut": top_cut})
    )


@register.simple_tag
def result_buttons(play, round_kind: str) -> SafeString:
    """The format's result buttons (the draws left out of a top cut), rendered once."""
    return _buttons(play.template, round_kind == "top_cut")


@register.simple_tag
def place_options(count: int, selected: int | None, empty: str = "place") -> SafeString:
    """`<option>`s for places (or seats) 1..count after an empty choice, `selected` chosen."""
    return mark_safe(
        format_html('<option value="">{}</option>', empty)
        + format_html_join(
            "",
            '<option value="{}"{}>{}</option>',
            ((n, mark_safe(" selected") if n == selected else "", n) for n in range(1, count + 1)),
        )
    )


# The table cards, drawn in Python: 64 pod cards (256 players) or 256 match cards (512) were
# each an include of the format's `card` partial with three dozen variable lookups, most of the
# console's time (bench/pages.py). Every value from the database is escaped (the standard
# library's escape, as Django's); numbers are identifiers, never localised. The rare parts (a
# pod's open finishing order, the seats a cut's seeds choose) are still the format's partials.

_PARTIALS = {"pod": "tournaments/formats/pod.html#", "match": "tournaments/formats/match.html#"}


def _token(context) -> str:
    """The CSRF token the page's forms carry ("" where the context has none)."""
    token = context.get("csrf_token")
    return str(token) if token and token != "NOTPROVIDED" else ""


def card_state(table) -> str:
    """A short fingerprint of what a card shows: the table's version (its result), its time
    extension and where its players' reports stand. The console's script replaces a card the
    live part sends only when this differs (the cards' forms carry a fresh CSRF mask on every
    render)."""
    state = getattr(table, "report_state", None)
    parts = (table.version, table.extra_minutes)
    if state is not None:
        parts += (
            state.state,
            tuple((r.pk, r.status, tuple(r.agreeing)) for r in state.open),
            state.decided.pk if state.decided else None,
            tuple(state.waiting_for),
            state.needed,
        )
    return hashlib.blake2b(repr(parts).encode(), digest_size=6).hexdigest()


class _Card:
    """What every card of one page shares, found once: the format, the CSRF input, the
    address prefix, the round's kind, the message and error of a refused tap."""

    def __init__(self, context):
        event = context["event"]
        self.context = context
        self.play = event.play
        self.pods = self.play.template.endswith("/pod.html")
        token = context.get("csrf_token")
        self.csrf = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{escape(str(token))}">'
            if token and token != "NOTPROVIDED"
            else ""
        )
        self.tables_url = escape(context.get("tables_url") or "")
        round_ = context.get("round")
        self.kind = getattr(round_, "kind", "")
        message = context.get("message")
        self.message = (
            f'\n  <p class="errorlist" role="alert">{escape(str(message))}</p>' if message else ""
        )
        self.order_wanted = bool(message) or getattr(context.get("error"), "field", None) == (
            "places"
        )
        # The console's live part (views.event_run_live) sends every card out of band.
        self.oob = ' hx-swap-oob="true"' if context.get("cards_oob") else ""

    def partial(self, name: str, table) -> str:
        template = self.context.template.engine.get_template(
            _PARTIALS["pod" if self.pods else "match"] + name
        )
        with self.context.push(table=table):
            return template.render(self.context)

    def report_state(self, table) -> str:
        """Where the players' reports of the table stand (selectors.reports.round_states); the
        common states drawn here, a table with reports to show by its template."""
        state = getattr(table, "report_state", None)
        if state is None:
            return ""
        if state.state == "unreported":
            return (
                '\n<div class="report-state unreported" data-report-state="unreported">'
                '\n  <p class="help"><span class="tag muted">not reported</span></p>\n</div>'
            )
        if state.state == "entered":
            return '\n<div class="report-state entered" data-report-state="entered">\n</div>'
        template = self.context.template.engine.get_template("tournaments/_report_state.html")
        with self.context.push(table=table):
            return template.render(self.context)

    @staticmethod
    def extension(table) -> str:
        """A judge's time extension, beside the table's number."""
        minutes = table.extra_minutes
        if not minutes:
            return ""
        return f' <span class="tag extension" title="Time extension">+{minutes} min</span>'

    def draw(self, table) -> str:
        return self.pod(table) if self.pods else self.match(table)

    def head(self, table, css: str) -> str:
        reported = table.reported
        return (
            f'\n<article class="{css}{" reported" if reported else ""}" id="table-{table.pk}" '
            f'data-table-id="{table.pk}" data-table-number="{table.number}" '
            f'data-version="{table.version}" data-reported="{1 if reported else 0}" '
            f'data-state="{card_state(table)}"{self.oob}>'
        )

    def form(self, table, css: str = "") -> str:
        url = f"{self.tables_url}{table.pk}/report/"
        return (
            f'\n  <form method="post" action="{url}" hx-post="{url}" hx-target="#table-{table.pk}"'
            f' hx-swap="outerHTML"{css}>\n    {self.csrf}'
            f'<input type="hidden" name="version" value="{table.version}">'
        )

    def pod(self, table) -> str:
        seats = seats_of(table)
        full = labels.full_order([s.place for s in seats])
        winner = table.winner_id
        tag = ""
        if table.reported:
            tag = f' <span class="tag">{"draw" if table.is_draw else "reported"}</span>'
        parts = [
            self.head(table, "match pod card"),
            f"\n  <header><strong>Pod {table.number}</strong> "
            f'<span class="muted">· {len(seats)} players</span>{tag}{self.extension(table)}'
            "</header>",
            self.message,
            self.report_state(table),
            self.form(table),
            '\n    <p class="help">Seat order, seat 1 first. Tap the winner:</p>'
            '\n    <ol class="pod-seats">',
        ]
        for seat in seats:
            won = winner == seat.entry_id
            place = ""
            if full:
                place = f'\n        <span class="place">{escape(seat.place_label)}</span>'
            elif won:
                place = '\n        <span class="place">won</span>'
            parts.append(
                f'\n      <li><button type="submit" name="winner" value="{seat.entry_id}" '
                f'class="seat{" won" if won else " secondary"}" '
                f'aria-pressed="{"true" if won else "false"}">'
                f'\n        <span class="seat-no" aria-label="Seat">{seat.position}</span>'
                f'\n        <span class="name">{escape(seat.entry.player.name)}</span>'
                f"{place}\n      </button></li>"
            )
        drawn = table.reported and table.is_draw
        parts.append("\n    </ol>")
        if self.kind == "top_cut":
            parts.append('\n    <p class="help">A draw sends the pod\'s best seed on.</p>')
        parts.append(
            f'\n    <button type="submit" name="result" value="draw" '
            f'class="secondary draw{" won" if drawn else ""}" '
            f'aria-pressed="{"true" if drawn else "false"}">Draw (everyone)</button>\n  </form>'
        )
        if getattr(table, "picks", None):
            parts.append(self.partial("cut-seats", table))
        order = f"{self.tables_url}{table.pk}/order/"
        if full or self.order_wanted:
            parts.append(
                '\n  <details class="full-order" open>\n    <summary>Full finishing order</summary>'
                + self.partial("order-form", table)
                + "\n  </details>"
            )
        else:  # drawn when the TO opens it: four selects per pod were most of the console
            parts.append(
                f'\n  <details class="full-order" hx-get="{order}" hx-trigger="toggle once" '
                f'hx-target="find .order-slot">\n    <summary>Full finishing order</summary>'
                f'\n    <div class="order-slot"><a href="{order}">Open the full finishing order'
                f"</a></div>\n  </details>"
            )
        parts.append("\n</article>\n")
        return "".join(parts)

    def match(self, table) -> str:
        seats = seats_of(table)
        winner = table.winner_id
        players = []
        for seat in seats:
            wins = f" <b>{seat.game_wins}</b>" if seat.game_wins is not None else ""
            players.append(
                f'<span class="player{" won" if winner == seat.entry_id else ""}">'
                f"{escape(seat.entry.player.name)}{wins}</span>"
            )
        tail = ""
        if table.reported and table.game_draws:
            drawn = "draw " if table.is_draw else ""
            tail = f' <span class="muted">({drawn}{escape(table.result_label)})</span>'
        elif table.reported and table.is_draw:
            tail = ' <span class="muted">(draw)</span>'
        tag = ' <span class="tag">reported</span>' if table.reported else ""
        parts = [
            self.head(table, "match card"),
            f"\n  <header><strong>Table {table.number}</strong>{tag}{self.extension(table)}"
            "</header>",
            self.message,
            self.report_state(table),
            '\n  <p class="players">'
            + ' <span class="vs">vs</span> '.join(players)
            + f"{tail}</p>",
        ]
        if len(seats) == 2:
            parts.append(
                self.form(table, ' class="result-buttons"')
                + f"\n    {_buttons(self.play.template, self.kind == 'top_cut')}\n  </form>"
            )
        parts.append("\n</article>\n")
        return "".join(parts)


@register.simple_tag(takes_context=True)
def table_card(context, table) -> SafeString:
    """One table's card on the console (the format's: a pod or a match), as stored now."""
    return mark_safe(_Card(context).draw(table))


@register.simple_tag(takes_context=True)
def table_cards(context, tables) -> SafeString:
    """The round's cards, in order, each as `table_card` draws it."""
    card = _Card(context)
    return mark_safe("".join(card.draw(table) for table in tables))


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
    if round_.kind == "top_cut":
        ends = f"ends the {round_.notes.lower()}"
        if round_.notes == "Final":
            return "Finish the event", ends
        return "Pair the next stage", ends
    ends = f"ends round {round_.number}"
    if round_.number < (event.swiss_rounds or 0):
        return f"Pair round {round_.number + 1}", ends
    if event.top_cut:
        return f"Start the top {event.top_cut}", ends
    return "Final standings", ends
