"""Who did something, as the audit trail and the other apps record it.

Plain functions of a user object (or None), so that models and services of any app can name
the actor without importing permissions or models.
"""


def acting_user(user):
    """The user to record as having done something, or None for anonymous or no user."""
    return user if user is not None and user.is_authenticated else None


def actor_label(by=None, via: str = "") -> str:
    """Who did it, as the log keeps it: "olive", "olive (API token scorebot)", "import"."""
    user = acting_user(by)
    name = user.get_username() if user is not None else ""
    if name and via:
        return f"{name} ({via})"
    return name or via or "system"
