"""The changes to a season that seasons records in the History, with their labels."""

from enum import StrEnum

from django.utils.translation import gettext_lazy as _


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
    Action.SEASON_CREATE: _("Season created"),
    Action.SEASON_CHANGE: _("Season changed"),
    Action.TYPE_CREATE: _("Season event type added"),
    Action.TYPE_CHANGE: _("Season point table changed"),
    Action.TYPE_DELETE: _("Season event type removed"),
    Action.EVENTS_CHANGE: _("Season's events changed"),
    Action.QUALIFY: _("Qualifiers invited to a final"),
    Action.SERIES_CREATE: _("Series created"),
    Action.SERIES_INVITE: _("Store invited to a series"),
    Action.SERIES_ACCEPT: _("Series invitation accepted"),
    Action.SERIES_DECLINE: _("Series invitation declined"),
    Action.SERIES_LEAVE: _("Left a series"),
    Action.SERIES_LINK: _("Players linked in a series"),
    Action.SERIES_UNLINK: _("Players unlinked in a series"),
}
