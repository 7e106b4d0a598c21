"""What deleting an event says besides the rows it takes (`leagues.deletion`'s notes).

Registered for `tournaments.Tournament` in `TournamentsConfig.ready()`: the league games an
event's tables added stay in the league (a table points at its game, not the other way round),
and the confirmation says so, with how many.
"""

from django.utils.translation import ngettext

from leagues.models import Game


def tournament_delete_notes(tournament) -> list[str]:
    games = Game.objects.filter(tournament_table__round__tournament=tournament).count()
    if not games:
        return []
    return [
        ngettext(
            "The %(count)s game its tables added to %(league)s stay in the league, with their "
            "ratings; delete them from the game log if they should go too.",
            "The %(count)s games its tables added to %(league)s stay in the league, with their "
            "ratings; delete them from the game log if they should go too.",
            games,
        )
        % {"count": games, "league": tournament.league}
    ]
