"""`{% cached_url %}` (core/templatetags/links.py) answers as `{% url %}` does."""

from django.template import Context, Template
from django.urls import reverse, set_script_prefix


def test_cached_url_is_url_and_follows_the_script_prefix():
    page = Template("{% load links %}{% cached_url 'league_games' slug %}|{% cached_url 'home' %}")
    assert page.render(Context({"slug": "fnm"})) == f"{reverse('league_games', args=['fnm'])}|/"
    set_script_prefix("/guild/")
    try:
        assert page.render(Context({"slug": "fnm"})) == "/guild/leagues/fnm/games/|/guild/"
    finally:
        set_script_prefix("/")
