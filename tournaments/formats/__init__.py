"""The formats an event can be played in, one strategy object each, chosen once per event.

`format_for(tournament)` gives the event's `Format` (`base`): 1v1 matches (`onevone.OneVOne`)
or Commander pods (`pods.Pods`). A third format is one more module with a `Format` subclass,
registered in `FORMATS`, plus its partials in `templates/tournaments/formats/<name>.html`;
nothing else branches on the format.
"""

from .base import (
    EDIT_DONE,
    EDIT_NOTES,
    EDITS,
    SOMEONE,
    EditPlan,
    Format,
    PenaltyLoss,
    SlipBoxes,
    small_int,
)
from .onevone import RESULTS, OneVOne
from .pods import Pods

__all__ = [
    "EDITS",
    "EDIT_DONE",
    "EDIT_NOTES",
    "FORMATS",
    "RESULTS",
    "SOMEONE",
    "EditPlan",
    "Format",
    "OneVOne",
    "PenaltyLoss",
    "Pods",
    "SlipBoxes",
    "format_for",
    "small_int",
]

FORMATS: dict[str, Format] = {f.key: f for f in (OneVOne(), Pods())}


def format_for(tournament) -> Format:
    """The strategy of `tournament`'s format (one shared instance per format)."""
    return FORMATS[tournament.format]
