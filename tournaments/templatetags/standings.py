"""`{% standing_rows lines %}`: the event standings' `<tr>` lines, drawn in Python.

A 512-player event's standings were a template loop of a dozen lookups and a reversed URL
per player (bench/pages.py); here each row is one string, the players' address reversed
once, every name escaped (the standard library's escape, as Django's). Ranks and ids are not
localised; points go through `floatformat:"-1"` as before.
"""

from functools import lru_cache
from html import escape

from django import template
from django.template.defaultfilters import floatformat
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

register = template.Library()

DROPPED = ' class="dropped"'


@lru_cache(maxsize=256)
def _formatted(points: float, language: str | None) -> str:
    return str(floatformat(points, "-1"))


def _points(points: float) -> str:
    """`floatformat:"-1"` (which localises), once per value and language."""
    return _formatted(points, get_language())


@register.simple_tag(takes_context=True)
def standing_rows(context, lines, placings=None) -> SafeString:
    """One `<tr>` per `tournaments.selectors.StandingLine`: rank (= when tied), the name
    linking to the player's night with their public deck, points, record, tiebreakers.
    With a finished event's placings (`selectors.placings.EventPlacings`), the rows come in
    final order, each with its place ("3rd\u20134th") first."""
    event, decks = context["event"], context.get("decks") or {}
    prefix = escape(reverse("event_player", args=[event.slug, 0]).removesuffix("0/"))
    places = placings.by_player() if placings is not None and placings.final else {}
    if places:
        order = {placing.player: i for i, placing in enumerate(placings.placings)}
        lines = sorted(lines, key=lambda line: order.get(line.player_id, len(order)))
    rows = []
    for line in lines:
        deck = decks.get(line.name, "")
        name = f'<a href="{prefix}{line.player_id}/">{escape(line.name)}</a>'
        if deck:
            name += f' <span class="deck">{escape(deck)}</span>'
        if line.dropped:
            name += ' <span class="tag">dropped</span>'
        metrics = "".join(f'<td class="num">{escape(str(value))}</td>' for value in line.metrics)
        rows.append(
            f"\n    <tr{DROPPED if line.dropped else ''}>"
            + (_place(places.get(line.player_id)) if places else "")
            + f'<td class="rank">{line.rank}{"=" if line.tied else ""}</td>'
            f'<td class="name">{name}</td><td class="num">{escape(_points(line.points))}</td>'
            f'<td class="num">{escape(line.record)}</td>{metrics}</tr>\n  '
        )
    return mark_safe("".join(rows))


def _place(placing) -> str:
    return f'<td class="place">{escape(placing.label) if placing is not None else ""}</td>'
