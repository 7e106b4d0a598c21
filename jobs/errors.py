"""The jobs' one refusal: the work cannot be done as asked, with a message for the person."""

from core.errors import DomainError


class JobRefused(DomainError):
    """The work cannot be done as asked; the message says why, for the person who asked."""

    default_code = "job_refused"
