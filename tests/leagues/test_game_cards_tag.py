"""The game cards (leagues.templatetags.game_cards, drawn by the Jinja2 template
leagues/jinja2/leagues/game_cards.jinja), worked by hand."""

import datetime

from django.template import Context, Template

from leagues.selectors import GameCard, ResultLine

CARDS = Template("{% load game_cards %}{% game_cards games %}")


def card(pk=7, *, notes="", source="manual"):
    game = GameCard(pk, datetime.date(2026, 3, 8), source, notes)
    game.results = [
        ResultLine(1, "1st", 10, "Ann <b>", 1, change_text="+12", change_css="up",
                   change_title="rating 1500 \u2192 1512"),
        ResultLine(2, "2nd", 20, "Bob", None),
    ]  # fmt: skip
    return game


def render(games, **context) -> str:
    return CARDS.render(Context({"games": games, "player_url": "/leagues/fnm/players/", **context}))


def test_a_card_escapes_names_and_notes_and_shows_seats_changes_and_source():
    html = render([card(notes="bring <dice>", source="tournament")])
    assert '<article class="game" id="game-7">' in html
    assert '<span class="date">Sun 8 Mar 2026</span>' in html
    assert "2 players · tournament</span>" in html
    assert '<a href="/leagues/fnm/players/10/">Ann &lt;b&gt;</a>' in html
    assert '<span class="muted">seat 1</span>' in html and "seat None" not in html
    assert '<span class="delta up" title="rating 1500 \u2192 1512">+12</span>' in html
    assert '<li class="winner">' in html and '<li class="">' in html
    assert '<p class="note">bring &lt;dice&gt;</p>' in html
    assert "edit-links" not in html


def test_organizers_get_edit_links_and_a_players_page_marks_their_line():
    class Player:
        pk = 20

    html = render([card(), card(pk=8)], can_manage=True, player=Player())
    assert '<a href="/games/7/edit/">Edit</a>' in html
    assert '<a href="/games/8/delete/">Delete</a>' in html
    assert html.count('<li class=" me">') == 2 and '<p class="note">' not in html
