"""The audit trail's one error: an undo that cannot be done, a conflict with what is stored."""

from core.errors import ConflictError


class UndoRefused(ConflictError, ValueError):
    """This entry cannot be undone (not undoable, already undone, changed since...): 409."""

    default_code = "undo_refused"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message=message, code=code)
