"""The document's points seasons of a league (seasons.models): each season with its event
types (point tables) and the events it counts, by slug. Their tables are not carried: the
import replays each season once everything is in (exchange.services).
"""

from django.utils.translation import gettext as _

from exchange.document import Importer, Node, build, fields
from leagues.models import League
from seasons.domain.rules import Season as SeasonRules
from seasons.domain.rules import SeasonError
from seasons.models import EventType, Season, SeasonEvent
from tournaments.models import Tournament

SEASON_FIELDS = ("name", "starts_on", "ends_on", "tiebreaks", "created_at")
EVENT_TYPE_FIELDS = (
    "name",
    "placings",
    "best_finishes",
    "entering",
    "per_round",
    "per_win",
    "per_draw",
    "per_bye",
)


def season_export(season: Season) -> dict:
    return {
        **fields(season, SEASON_FIELDS),
        "event_types": [
            fields(kind, EVENT_TYPE_FIELDS) for kind in season.event_types.order_by("name")
        ],
        "events": [
            {"event": se.tournament.slug, "event_type": se.event_type.name}
            for se in season.events.select_related("tournament", "event_type").order_by(
                "tournament__date", "tournament__slug"
            )
        ],
    }


def seasons_import(
    state: Importer, league_node: Node, league: League, events: dict[str, Tournament]
) -> None:
    """The league's points seasons (documents written before seasons have none): their
    point tables checked as the organizers' forms check them, their events by slug.
    Their tables are replayed once everything is in (`exchange.services`)."""
    if "seasons" not in league_node.value:
        return
    names: dict[str, str] = {}
    for node in league_node.items("seasons"):
        season = build(Season, node, SEASON_FIELDS, league=league)
        folded = season.name.strip().lower()
        if folded in names:
            raise node.error(
                _('"%(name)s" is already %(names)s')
                % {"name": season.name, "names": names[folded]},
                "name",
            )
        names[folded] = node.path
        if season.ends_on < season.starts_on:
            raise node.error(
                _("ends before it starts (%(starts_on)s)") % {"starts_on": season.starts_on},
                "ends_on",
            )
        tiebreaks = season.tiebreaks
        if not isinstance(tiebreaks, list) or not all(isinstance(t, str) for t in tiebreaks):
            raise node.error(_("must be a list of tie-break names"), "tiebreaks")
        try:
            SeasonRules(tables=(), tiebreaks=tuple(tiebreaks))
        except SeasonError as error:
            raise node.error(error.message, "tiebreaks") from None
        season.save()
        state.season_list.append(season)
        types = _season_types(node, season)
        counted: dict[str, str] = {}
        for event_node in node.items("events"):
            slug = event_node.text("event")
            event = events.get(slug)
            if event is None:
                raise event_node.error(
                    _("no event %(slug)s in this league") % {"slug": repr(slug)}, "event"
                )
            if slug in counted:
                raise event_node.error(
                    _("%(slug)s is already %(counted)s")
                    % {"slug": repr(slug), "counted": counted[slug]},
                    "event",
                )
            counted[slug] = event_node.path
            kind = types.get(event_node.text("event_type").strip().lower())
            if kind is None:
                raise event_node.error(_("not one of the season's event types"), "event_type")
            if not season.starts_on <= event.date <= season.ends_on:
                raise event_node.error(
                    _("%(date)s is outside the season") % {"date": event.date}, "event"
                )
            SeasonEvent.objects.create(season=season, tournament=event, event_type=kind)


def _season_types(season_node: Node, season: Season) -> dict[str, EventType]:
    types: dict[str, EventType] = {}
    for node in season_node.items("event_types"):
        kind = build(EventType, node, EVENT_TYPE_FIELDS, season=season)
        rows = kind.placings
        if not isinstance(rows, list) or not all(
            isinstance(row, list)
            and len(row) == 3
            and all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in row)
            for row in rows
        ):
            raise node.error(
                _("must be a list of [down_to, points, more_than or null]"), "placings"
            )
        try:
            kind.point_table()  # the domain's checks: places increasing, points not
        except SeasonError as error:
            raise node.error(error.message, "placings") from None
        except TypeError:
            raise node.error(_("a row is missing a value"), "placings") from None
        key = kind.name.strip().lower()
        if key in types:
            raise node.error(
                _('"%(name)s" is already an event type here') % {"name": kind.name}, "name"
            )
        kind.save()
        types[key] = kind
    return types
