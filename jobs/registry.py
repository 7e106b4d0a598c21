"""What each kind of job is, what it does and where it is followed: filled in by the apps above.

`jobs` is infrastructure below the game apps and names none of their kinds. Each app registers
its kinds from its `AppConfig.ready()` with `kind_register(name, label=..., handler=...,
page=...)`: `handler(job, progress) -> JSON-able result` does the work (raising
`jobs.errors.JobRefused` with a message for a refusal a person can act on), `page(job) -> url`
is where the outcome is shown. A kind is registered once; starting a job of an unknown kind is
refused. The app that owns leagues registers `league_access(user, job) -> league`, which answers
404 or 403 for a job's page the way the league's own pages do. An app whose background work
is not a league job (notifications), or whose work can be left undone by a crash (ratings: a
catch-up lost after its writer committed), registers `sweep_register(fn)`: the worker's reaper
calls `fn()` every few seconds to pick that work up again.
"""

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class JobKind:
    name: str
    label: str  # what the progress page calls it: "Re-rating the league"
    handler: Callable  # handler(job, progress) -> JSON-able result
    page: Callable  # page(job) -> the URL that shows the outcome


_KINDS: dict[str, JobKind] = {}
_ACCESS: list[Callable] = []
_SWEEPS: list[Callable] = []


def kind_register(name: str, *, label: str, handler: Callable, page: Callable) -> JobKind:
    """Register a kind of job; the same kind registered again with other parts fails loudly."""
    kind = JobKind(name, label, handler, page)
    known = _KINDS.get(name)
    if known is not None and known != kind:
        raise ValueError(f"Job kind {name!r} is already registered ({known.label}).")
    if len(name) > 20:
        raise ValueError(f"Job kind {name!r} is longer than the 20 characters a job row keeps.")
    _KINDS[name] = kind
    return kind


def kind_get(name: str) -> JobKind:
    try:
        return _KINDS[name]
    except KeyError:
        known = ", ".join(sorted(_KINDS)) or "none"
        raise LookupError(f"No job kind {name!r} is registered (known: {known}).") from None


def kinds() -> dict[str, JobKind]:
    return dict(_KINDS)


def league_access_register(check: Callable) -> None:
    _ACCESS[:] = [check]


def league_access(user, job):
    """The job's league as `user` may see it (Http404 / PermissionDenied otherwise)."""
    if not _ACCESS:
        raise LookupError("No app registered who may follow a job.")
    return _ACCESS[0](user, job)


def sweep_register(sweep: Callable) -> None:
    """Have `db_worker`'s reaper call `sweep()` every few seconds (once per function)."""
    if sweep not in _SWEEPS:
        _SWEEPS.append(sweep)


def sweeps() -> list[Callable]:
    return list(_SWEEPS)
