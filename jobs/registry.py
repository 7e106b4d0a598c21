"""What each kind of job does, and who may follow one: filled in by the apps above.

`jobs` is infrastructure below the game apps. Each app registers the handler of its job kinds
from its `AppConfig.ready()` (`handler(job, progress) -> JSON-able result`, raising
`jobs.errors.JobRefused` with a message for a refusal a person can act on), and the app that
owns leagues registers `league_access(user, job) -> league`, which answers 404 or 403 for a
job's page the way the league's own pages do.
"""

from collections.abc import Callable

_HANDLERS: dict[str, Callable] = {}
_ACCESS: list[Callable] = []


def handler_register(kind: str, handler: Callable) -> None:
    known = _HANDLERS.get(kind)
    if known is not None and known is not handler:
        raise ValueError(f"Job kind {kind!r} already has a handler.")
    _HANDLERS[kind] = handler


def handler_get(kind: str) -> Callable:
    try:
        return _HANDLERS[kind]
    except KeyError:
        raise LookupError(f"No handler is registered for job kind {kind!r}.") from None


def league_access_register(check: Callable) -> None:
    _ACCESS[:] = [check]


def league_access(user, job):
    """The job's league as `user` may see it (Http404 / PermissionDenied otherwise)."""
    if not _ACCESS:
        raise LookupError("No app registered who may follow a job.")
    return _ACCESS[0](user, job)
