"""The game cards' HTML, pinned byte for byte (golden/games*.html: copied from the cards'
output on these fixed inputs and read line by line before the markup moved into a template
file): whichever engine draws them, it must draw exactly this."""

import datetime
from pathlib import Path

from django.template import Context, Template

from leagues.selectors import GameCard, ResultLine

GOLDEN = Path(__file__).parent / "golden"
CARDS = Template("{% load game_cards %}{% game_cards games %}")


def card(pk=7, *, notes="", source="manual"):
    game = GameCard(pk, datetime.date(2026, 3, 8), source, notes)
    game.results = [
        ResultLine(1, "1st", 10, "Ann <b>", 1, change_text="+12", change_css="up",
                   change_title='rating 1500 "\u2192" 1512'),
        ResultLine(2, "2nd", 20, "Bob & Co", None),
    ]  # fmt: skip
    return game


def render(games, **context) -> str:
    return CARDS.render(Context({"games": games, "player_url": "/leagues/fnm/players/", **context}))


def test_a_card_with_notes_from_a_tournament():
    html = render([card(notes="bring <dice>", source="tournament")])
    assert html == (GOLDEN / "games.html").read_text()


def test_cards_for_an_organizer_on_a_players_page():
    class Player:
        pk = 20

    html = render([card(), card(pk=8, source="import")], can_manage=True, player=Player())
    assert html == (GOLDEN / "games_manage.html").read_text()


def test_the_single_card_tag_draws_the_same_card():
    single = Template("{% load game_cards %}{% game_card game %}").render(
        Context({"game": card(notes="bring <dice>", source="tournament"),
                 "player_url": "/leagues/fnm/players/"})
    )  # fmt: skip
    assert single == (GOLDEN / "games.html").read_text()
