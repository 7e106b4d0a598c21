"""The jobs' one refusal: the work cannot be done as asked, with a message for the person."""


class JobRefused(Exception):
    """The work cannot be done as asked; the message says why, for the person who asked."""
