"""The audit trail's one error: an undo that cannot be done, with a code and a message."""


class UndoRefused(ValueError):
    """This entry cannot be undone (not undoable, already undone, changed since...)."""

    def __init__(self, message: str, *, code: str = "undo_refused"):
        super().__init__(message)
        self.field = None
        self.code = code
