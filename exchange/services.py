"""An organization's data as one JSON document, and back: a move to another Guildhall site.

`organization_export` writes everything people entered; `organization_import` reads such a
document into a site that does not have the organization yet, all or nothing, in one
transaction, then replays every league's ratings and every season's table. Any problem raises
`ExchangeError` naming the JSON path of the offending value, and nothing is written.

The format: docs/operations.md, "The organization export format". This module is the
document's outline (the organization, its players, its leagues, and in each league the parts
of each app); each app's rows are written and read in its own module beside this one
(exchange/leagues.py, ratings.py, tournaments.py, judging.py, seasons.py, achievements.py),
on the common ground of exchange/document.py.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from exchange import achievements, leagues, ratings, seasons, tournaments
from exchange.document import FORMAT, VERSION, ExchangeError, Importer, Node
from leagues.domain.csvformat import unstorable_in
from leagues.models import League, Organization
from ratings.services import ratings_recalculate
from seasons.services import season_catch_up

__all__ = [
    "FORMAT",
    "NOT_EXPORTED",
    "NOT_EXPORTED_MODELS",
    "VERSION",
    "ExchangeError",
    "ImportReport",
    "organization_export",
    "organization_import",
]

# What the document leaves out, and why: every other column of an exported model is written
# (tests/exchange/test_export_fields.py fails on a column in neither). A relation is written
# by where its row sits in the document or by the name of what it points to.
ACCOUNT = "a user account of this site: accounts do not move with the organization"
NOT_EXPORTED = {
    "Organization.logo_type": "read again from the image (`logo`, base64) on import",
    "Organization.logo_version": "this site's cache-busting count of logo uploads",
    "Membership.user": "written as the username, for the record, and not imported ("
    + ACCOUNT
    + ")",
    "Player.user": "written as `account`, for the record, and not imported (" + ACCOUNT + ")",
    "League.entry_key": "the new-league form's one-time token, for this site's double posts",
    "LeagueRating.dirty_from_date": "this site's replay bookkeeping: the import replays all",
    "LeagueRating.dirty_from_game": "this site's replay bookkeeping: the import replays all",
    "LeagueRating.rated_at": "this site's replay bookkeeping: the import replays all",
    "Game.entered_by": ACCOUNT,
    "Game.import_batch": "the CSV upload the game came from: uploads stay on this site",
    "Game.version": "counts this site's corrections, for its stale forms",
    "Game.entry_key": "the game form's one-time token, for this site's double posts",
    "Tournament.created_by": ACCOUNT,
    "Registration.token": "the player's check-in link, a secret of this site: a new one on import",
    "Registration.created_by": ACCOUNT,
    "RequestedBye.created_by": ACCOUNT,
    "RequestedBye.created_at": "a requested bye is written as its round number alone",
    "Round.decklist_problems": "who the TO paired without a legal list, by this site's entry "
    "ids; round 1's `notes` carry the names",
    "Table.reported_by": ACCOUNT,
    "ResultReport.user": ACCOUNT + " (the report's player is written)",
    "ResultReport.decided_by": ACCOUNT,
    "ReportConfirmation.user": ACCOUNT + " (the confirming player is written)",
    "Penalty.round": "written as `round_number`",
    "Penalty.table": "written as `table_number`",
    "Penalty.judge": ACCOUNT,
    "Season.series": "always empty for a league's season (a series' season is the series', "
    "left out below)",
    "Season.stale": "this site's replay bookkeeping: the import replays each season",
    "Season.replayed_at": "this site's replay bookkeeping: the import replays each season",
    "Season.created_by": ACCOUNT,
    "SeasonEvent.players": "read again from the event on import",
    "SeasonEvent.finishes": "read again from the event on import",
    "SeasonEvent.final": "read again from the event on import",
    "SeasonEvent.seen_version": "this site's page version of the event: read again on import",
    "Claim.user": ACCOUNT + " (the claim's player is written)",
    "Claim.decided_by": ACCOUNT,
}
# The organization's other rows, left out whole.
NOT_EXPORTED_MODELS = {
    "ApiToken": "secret keys of this site",
    "StaffInvitation": "secret links to e-mail addresses, for accounts of this site",
    "PlayerClaim": "requests by accounts of this site",
    "ClaimCode": "one-time codes for accounts of this site",
    "ImportBatch": "CSV uploads: their games are exported",
    "Rating": "derived: the import replays the ratings",
    "RatingChange": "derived: the import replays the ratings",
    "TournamentJudge": ACCOUNT + "s",
    "AuditEntry": "the History of this site, naming its accounts; the rows it tells of move",
    "StoreWebhook": "the chat channel's webhook address, a secret that posts to it",
    "Delivery": "messages this site sent or is sending",
    "Job": "this site's background work",
    "JudgeCall": "a night's calls to the judges' desk: their times are in the History, their "
    "time extensions in the tables' `extra_minutes`",
    "DeckCheck": "a night's deck checks: their minutes are in the tables' `extra_minutes`",
    "SeasonStanding": "derived: a season's table is the replay of its events (the import "
    "replays it)",
    # A series is shared with other stores: its membership is their owners' answers, its links
    # name their players, its seasons count their events. One store's document cannot carry
    # the others' consent; the stores set it up again together after a move.
    "Series": "shared with other stores, whose owners' answers one store's document cannot carry",
    "SeriesMember": "another store's answer to a series' invitation, or this store's to another's",
    "SeriesLink": "a series host's word about two stores' players",
}


# --- export --------------------------------------------------------------------------------


def organization_export(*, organization: Organization) -> dict:
    """The organization's whole record as plain JSON-ready data (docs/operations.md)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "organization": leagues.organization_export(organization),
        "members": leagues.members_export(organization),
        "players": leagues.players_export(organization),
        "leagues": [_league_export(league) for league in organization.leagues.order_by("slug")],
    }


def _league_export(league: League) -> dict:
    games, keys = leagues.games_export(league)
    return {
        **leagues.league_export(league),
        "rating": ratings.rating_export(league),
        "games": games,
        "tournaments": [
            tournaments.tournament_export(t, keys)
            for t in league.tournaments.order_by("date", "slug")
        ],
        "seasons": [seasons.season_export(season) for season in league.seasons.order_by("pk")],
        **achievements.achievements_export(league, keys),
    }


# --- import --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportReport:
    organization: Organization
    players: int
    leagues: int
    games: int
    tournaments: int


@transaction.atomic
def organization_import(*, data, progress: Callable[[str, int, int], None] | None = None):
    """Create the organization of an exported document, with everything in it; then replay
    its leagues' ratings. All or nothing: ExchangeError (nothing written) on any problem.

    `progress(step, done, total)` hears of the leagues read ("leagues") and of each league's
    replay (its slug), for the command's progress bar.
    """
    root = Node(data, "$")
    unstorable = unstorable_in(data)
    if unstorable is not None:
        path, message = unstorable
        raise ExchangeError(field=path, message=message)
    try:
        return _import(root, progress or (lambda step, done, total: None))
    except IntegrityError as error:
        # A rule the checks missed, or another import of the same slugs at the same moment;
        # raising out of the atomic block rolls everything back.
        raise root.error(_("the database refused the data: %(error)s") % {"error": error}) from None


def _import(root: Node, progress: Callable[[str, int, int], None]) -> ImportReport:
    data = root.value
    if not isinstance(data, dict):
        raise root.error(_("must be an object"))
    if root.get("format") != FORMAT:
        raise root.error(_('must be "%(FORMAT)s"') % {"FORMAT": FORMAT}, "format")
    version = root.get("version")
    if version != VERSION or isinstance(version, bool):
        raise root.error(
            _("this site reads version %(VERSION)s, not %(version)s")
            % {"VERSION": VERSION, "version": repr(version)},
            "version",
        )

    organization = leagues.organization_import(root)
    players = leagues.players_import(root, organization)
    state = Importer(players)
    nodes = root.items("leagues")
    leagues_read = []
    for node in nodes:
        progress("leagues", len(leagues_read), len(nodes))
        leagues_read.append(_league_import(state, node, organization))
    progress("leagues", len(leagues_read), len(nodes))
    for league in leagues_read:
        ratings_recalculate(
            league=league,
            progress=lambda done, total, slug=league.slug: progress(slug, done, total),
        )
    for season in state.season_list:  # each table replayed from its events, as written
        season_catch_up(season_id=season.pk)
    return ImportReport(
        organization=organization,
        players=len(players),
        leagues=len(leagues_read),
        games=state.games,
        tournaments=state.tournaments,
    )


def _league_import(state: Importer, node: Node, organization: Organization) -> League:
    league = leagues.league_import(state, node, organization)
    ratings.rating_import(node, league)
    games = leagues.games_import(state, node, league)
    events = {}
    for tournament in node.items("tournaments"):
        events[tournament.path] = tournaments.tournament_import(state, tournament, league, games)
    tournaments.series_import(node, events)
    seasons.seasons_import(state, node, league, {event.slug: event for event in events.values()})
    achievements.achievements_import(state, node, league, games)
    return league
