"""`{{ name|deck_in:decks }}`: the deck shown beside a player's name, from the event's public
decks (tournaments.selectors.decks.shown_decks: player name -> deck name; empty while the
decks are hidden)."""

from django import template

register = template.Library()


@register.filter
def deck_in(name: str, decks) -> str:
    return decks.get(name, "") if decks else ""
