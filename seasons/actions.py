"""The changes to a season that seasons records in the History, with their labels."""

from enum import StrEnum


class Action(StrEnum):
    SEASON_CREATE = "season.create"
    SEASON_CHANGE = "season.change"
    TYPE_CREATE = "season.type_create"
    TYPE_CHANGE = "season.type_change"
    TYPE_DELETE = "season.type_delete"
    EVENTS_CHANGE = "season.events"


LABELS = {
    Action.SEASON_CREATE: "Season created",
    Action.SEASON_CHANGE: "Season changed",
    Action.TYPE_CREATE: "Season event type added",
    Action.TYPE_CHANGE: "Season point table changed",
    Action.TYPE_DELETE: "Season event type removed",
    Action.EVENTS_CHANGE: "Season's events changed",
}
