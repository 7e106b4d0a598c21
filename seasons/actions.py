"""The changes to a season that seasons records in the History, with their labels."""

from enum import StrEnum


class Action(StrEnum):
    SEASON_CREATE = "season.create"
    SEASON_CHANGE = "season.change"
    TYPE_CREATE = "season.type_create"
    TYPE_CHANGE = "season.type_change"
    TYPE_DELETE = "season.type_delete"
    EVENTS_CHANGE = "season.events"
    QUALIFY = "season.qualify"
    SERIES_CREATE = "series.create"
    SERIES_INVITE = "series.invite"
    SERIES_ACCEPT = "series.accept"
    SERIES_DECLINE = "series.decline"
    SERIES_LEAVE = "series.leave"
    SERIES_LINK = "series.link"
    SERIES_UNLINK = "series.unlink"


LABELS = {
    Action.SEASON_CREATE: "Season created",
    Action.SEASON_CHANGE: "Season changed",
    Action.TYPE_CREATE: "Season event type added",
    Action.TYPE_CHANGE: "Season point table changed",
    Action.TYPE_DELETE: "Season event type removed",
    Action.EVENTS_CHANGE: "Season's events changed",
    Action.QUALIFY: "Qualifiers invited to a final",
    Action.SERIES_CREATE: "Series created",
    Action.SERIES_INVITE: "Store invited to a series",
    Action.SERIES_ACCEPT: "Series invitation accepted",
    Action.SERIES_DECLINE: "Series invitation declined",
    Action.SERIES_LEAVE: "Left a series",
    Action.SERIES_LINK: "Players linked in a series",
    Action.SERIES_UNLINK: "Players unlinked in a series",
}
