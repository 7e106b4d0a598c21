"""The game cards of the game log, a player's page, My Guildhall and the delete confirmation,
drawn by the Jinja2 template `leagues/jinja2/leagues/game_cards.jinja` (autoescaped,
core/jinja.py).

The game log's 25 cards were 25 includes of a Django template, each a loop over its players
with a dozen lookups, a localisation check and an escape per value: most of the page's time
(bench/pages.py). Numbers are identifiers and counts, never localised.
"""

from django import template
from django.utils.translation import get_language

from core.fragments import fragment_tag, jinja_template

register = template.Library()


@fragment_tag(register, takes_context=True)
def game_card(context, game) -> str:
    """One card (`game`: a leagues.selectors.GameCard); the context's `can_manage` adds the
    edit and delete links, `player_url` is the player pages' address before the id, and
    `player` (a player's own page) marks their line."""
    return game_cards(context, [game])


@fragment_tag(register, takes_context=True)
def game_cards(context, games) -> str:
    """The cards of `games` in order, as `game_card` draws each."""
    return jinja_template("leagues/game_cards.jinja").render(
        games=games,
        can_manage=bool(context.get("can_manage")),
        player_url=context.get("player_url") or "",
        me=getattr(context.get("player"), "pk", None),
        language=get_language(),
    )
