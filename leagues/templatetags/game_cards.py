"""The game cards of the game log, a player's page, My Guildhall and the delete confirmation.

A card is built here in Python rather than by an included template: the game log's 25 cards
were 25 includes, each a loop over its players with a dozen lookups, a localisation check and
an escape per value, which was most of the page's time (bench/pages.py). Every value from the
database is escaped; numbers are identifiers and counts, never localised.
"""

from html import escape  # Django's escape is this, behind a lazy-string wrapper

from django import template
from django.urls import reverse
from django.utils.dateformat import format as date_format
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

SOURCES = {"import": " · imported", "tournament": " · tournament"}


@register.simple_tag(takes_context=True)
def game_card(context, game) -> SafeString:
    """One card (`game`: a leagues.selectors.GameCard); the context's `can_manage` adds the
    edit and delete links, `player_url` is the player pages' address before the id, and
    `player` (a player's own page) marks their line."""
    return game_cards(context, [game])


@register.simple_tag(takes_context=True)
def game_cards(context, games) -> SafeString:
    """The cards of `games` in order, as `game_card` draws each."""
    me = getattr(context.get("player"), "pk", None)
    player_url = escape(context.get("player_url") or "")
    edit = delete = ""
    if context.get("can_manage"):
        edit = reverse("game_edit", args=[0]).removesuffix("0/edit/")
        delete = reverse("game_delete", args=[0]).removesuffix("0/delete/")
    days: dict = {}
    parts = []
    for game in games:
        day = days.get(game.played_on)
        if day is None:
            day = days[game.played_on] = escape(date_format(game.played_on, "D j M Y"))
        links = (
            f'\n    <span class="edit-links">\n      <a href="{edit}{game.pk}/edit/">Edit</a>\n'
            f'      <a href="{delete}{game.pk}/delete/">Delete</a>\n    </span>'
            if edit
            else ""
        )
        parts.append(
            f'\n<article class="game" id="game-{game.pk}">\n  <header>\n'
            f'    <span class="date">{day}</span>\n'
            f'    <span class="muted">{len(game.results)} players{SOURCES.get(game.source, "")}'
            f"</span>{links}\n  </header>\n  <ol>"
        )
        for line in game.results:
            css = ("winner" if line.placement == 1 else "") + (
                " me" if me is not None and line.player_id == me else ""
            )
            seat = f'\n      <span class="muted">seat {line.seat}</span>' if line.seat else ""
            change = (
                f'\n      <span class="delta {escape(line.change_css)}" '
                f'title="{escape(line.change_title)}">{escape(line.change_text)}</span>'
                if line.change_text
                else ""
            )
            parts.append(
                f'\n    <li class="{css}">\n'
                f'      <span class="pl">{escape(line.place_label)}</span>\n'
                f'      <a href="{player_url}{line.player_id}/">{escape(line.name)}</a>'
                f"{seat}{change}\n    </li>"
            )
        notes = f'\n  <p class="note">{escape(game.notes)}</p>' if game.notes else ""
        parts.append(f"\n  </ol>{notes}\n</article>\n")
    return mark_safe("".join(parts))
