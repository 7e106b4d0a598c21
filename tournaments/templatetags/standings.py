"""`{% standing_rows lines %}`: the event standings' `<tr>` lines, drawn by the Jinja2 template
`tournaments/jinja2/tournaments/public/standing_rows.jinja` (autoescaped, core/jinja.py).

A 512-player event's standings were a Django template loop of a dozen lookups and a reversed
URL per player (bench/pages.py); the template reverses the players' address once. Ranks and
ids are not localised; points go through `floatformat:"-1"` as before.
"""

from django import template
from django.utils.translation import get_language

from core.fragments import fragment_tag, jinja_template

register = template.Library()


@fragment_tag(register, takes_context=True)
def standing_rows(context, lines, placings=None) -> str:
    """One `<tr>` per `tournaments.selectors.StandingLine`: rank (= when tied), the name
    linking to the player's night with their public deck, points, record, tiebreakers.
    With a finished event's placings (`selectors.placings.EventPlacings`), the rows come in
    final order, each with its place ("3rd\u20134th") first."""
    places = placings.by_player() if placings is not None and placings.final else {}
    if places:
        order = {placing.player: i for i, placing in enumerate(placings.placings)}
        lines = sorted(lines, key=lambda line: order.get(line.player_id, len(order)))
    return jinja_template("tournaments/public/standing_rows.jinja").render(
        event=context["event"],
        lines=lines,
        decks=context.get("decks") or {},
        places=places,
        language=get_language(),
    )
