"""What the judges' pages hang on (core.pagecache): the desk of an event has its own scope,
bumped by every call, penalty and deck check, so the desk's poll every few seconds is a 304
from one query while nothing moved. A call also bumps its table's players' own pages (they
show "a judge is coming"); a penalty bumps the penalized player's page."""

from core.pagecache import touch

DESK_SCOPE = "judge-desk"


def desk_changed(event_id: int, *, entries=()) -> None:
    touch((DESK_SCOPE, event_id), *(("entry", entry) for entry in entries))


def desk_scopes(event_id: int) -> list:
    return [(DESK_SCOPE, event_id)]
