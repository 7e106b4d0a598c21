"""The tournament app's errors: what a TO did that cannot be done, with a code and a message.

`TournamentError` is refused work (nothing was written); `AlreadyDone` a repeated tap (nothing
changed, the console shows the event as it is now); `ResultConflict` a result changed since
the form was loaded (HTTP 409); `UnknownPlayer` a name to confirm before it becomes a player.
The services raise them and `tournaments.services` re-exports them, so views catch them there.
"""


class TournamentError(ValueError):
    def __init__(self, message: str, *, code: str, field: str | None = None):
        super().__init__(message)
        self.code = code
        self.field = field


class AlreadyDone(TournamentError):
    """The action was already done (a double tap, or two TOs pressing the same button): nothing
    changed, and the console shows the event as it is now."""

    def __init__(self, message: str, *, code: str = "already_done"):
        super().__init__(message, code=code)


class ResultConflict(TournamentError):
    """Someone changed this table's result since the form was loaded."""

    def __init__(self, table, *, noun: str = "Table"):
        super().__init__(
            f"{noun} {table.number} already has a different result (entered by "
            f"{table.reported_by or 'someone'} at {table.reported_at:%H:%M}). "
            "Check it below before changing it.",
            code="stale_result",
        )
        self.table = table


class UnknownPlayer(TournamentError):
    """A name that is no player of the store yet: registering it creates a player, so the TO
    confirms it first (a typo would otherwise become a new player)."""

    def __init__(self, name: str, organization):
        super().__init__(
            f"New player? {name} is not a player of {organization} yet — tick to confirm.",
            code="new_player",
            field="name",
        )
        self.name = name
