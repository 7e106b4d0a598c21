import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from achievements.models import Claim
from leagues.models import Game, League, Organization, Player

pytestmark = pytest.mark.django_db


def finishes():
    return [
        (g.played_on, tuple(r.player.name for r in g.results.all()))
        for g in Game.objects.prefetch_related("results__player").order_by("played_on", "id")
    ]


# The demo is 300 games through the services (~13 s a load), so the tests share loads: two in
# all, the second one after everything is deleted.
def test_seed_demo_loads_the_demo_league_once_the_same_every_time(settings, capsys):
    settings.DEBUG = True
    call_command("seed_demo")
    league = League.objects.get(slug="friday-commander")
    assert Player.objects.filter(organization=league.organization).count() == 40
    assert league.games.count() == 300
    sizes = {g.results.count() for g in league.games.all()}
    assert sizes <= {2, 3, 4} and 4 in sizes
    assert get_user_model().objects.filter(username="demo").exists()
    first = finishes()

    call_command("seed_demo")
    assert "already loaded" in capsys.readouterr().out
    assert Game.objects.count() == 300
    assert finishes() == first

    # Loaded again from nothing (new primary keys), without DEBUG: the same games, no login.
    Claim.objects.all().delete()  # the demo's achievements hold their players
    Game.objects.all().delete()
    Player.objects.all().delete()
    League.objects.all().delete()
    Organization.objects.all().delete()
    get_user_model().objects.all().delete()
    settings.DEBUG = False
    call_command("seed_demo")
    assert finishes() == first
    assert not get_user_model().objects.filter(username="demo").exists()
