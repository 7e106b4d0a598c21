"""The one application error: every refusal a person can act on is a `DomainError`.

A domain error carries a `code` (a stable name for programs and tests: "stale",
"future_date"), a `message` (a sentence for the person) and, when one input is at fault, the
`field` it belongs to. `str(error)` is the message (or "field: message" for the few errors
whose message is a phrase about their field). Its class says what kind of refusal it is:
`status` 400 for bad input, 409 for a conflict with what is stored now (`core.errors_http`
turns that into an HTTP answer). Plain Python, no Django: the pure domain packages raise these
too, and every app may import this module.
"""


class DomainError(Exception):
    """A refusal with a code, a message and, optionally, the field at fault."""

    #: HTTP status of the refusal: 400 bad input, 409 a conflict with the stored state.
    status: int = 400
    #: The code used when none is given.
    default_code: str = "invalid"
    #: True for errors whose message reads after the field's name ("must be a number"):
    #: `str()` then puts the field first ("k: must be a number").
    message_follows_field: bool = False

    def __init__(self, *, message: str, code: str | None = None, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        self.field = field

    def __str__(self) -> str:
        if self.message_follows_field and self.field:
            return f"{self.field}: {self.message}"
        return str(self.message)  # a lazy translation, when raised with a module's constant

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, field={self.field!r}, {self.message!r})"


class ConflictError(DomainError):
    """The request was fine when it was made, but what is stored changed meanwhile."""

    status = 409
    default_code = "conflict"
