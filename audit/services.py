"""Writes to the audit trail: record an entry, undo one through the handler its app registered.

`log_action` (the call shape of pretix's `LoggingMixin.log_action(action, data, user)`) is
called inside the transaction of the change it describes, in one line: where the entry is
filed (a tournament, a league, or a row of an organization) and what it is about (a row)
give the ids, the action and summary say what happened; `audit_record` writes the row from
the ids. The summary is an `audit.summary.Summary`, a sentence kept before translation, so the
History reads in each reader's language (an event's entries after the event's name, added on
read); a plain `str` is kept as English text, as the entries written before were.
`audit_undo` locks the entry, refuses what cannot be undone, and calls the undo its action
registered (`audit.registry`); that handler puts the `before` back through its app's
own service and records an entry that `reverts` this one.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from .actors import acting_user, actor_label
from .errors import UndoRefused
from .models import AuditEntry
from .registry import action_get
from .summary import Summary


def audit_record(
    *,
    organization_id: int,
    action: str,
    object_type: str,
    object_id: int | None,
    before: dict | None = None,
    after: dict | None = None,
    league_id: int | None = None,
    tournament_id: int | None = None,
    tournament_name: str = "",
    summary: Summary | str = "",
    by=None,
    via: str = "",
    reverts: AuditEntry | None = None,
) -> AuditEntry:
    """Write one entry of the audit log; call it inside the transaction of the change."""
    entry = AuditEntry(
        organization_id=organization_id,
        league_id=league_id,
        tournament_id=tournament_id,
        tournament_name=tournament_name[:200],
        actor=acting_user(by),
        actor_label=actor_label(by, via)[:200],
        action=action,
        object_type=object_type,
        object_id=object_id,
        before=before,
        after=after,
        reverts=reverts,
    )
    entry.summary_set(summary)
    entry.save(force_insert=True)
    return entry


# A row's type as the History names it, where that is not its model's name.
OBJECT_TYPES = {"resultreport": "report", "importbatch": "import", "staffinvitation": "invitation"}


def log_action(
    scope,
    action: str,
    about,
    summary: Summary | str,
    before: dict | None = None,
    after: dict | None = None,
    by=None,
    *,
    via: str = "",
    reverts: AuditEntry | None = None,
) -> AuditEntry:
    """One audit entry, filed under `scope` and about the row `about`.

    `scope` is a tournament (its league, organization and name are filed, and its name
    starts the summary as it is read), a league (with its organization), an organization,
    or another row of one (its `organization_id`). `about` is a row (its type, OBJECT_TYPES
    or its model's name, and its id) or a pair (type, id) for a row already deleted.
    `before` and `after` are the data the History shows and an undo puts back; `by` the
    user (or API token) acting, `via` how ("import", "player's link")."""
    kind = scope._meta.model_name
    if kind == "tournament":
        where = {
            "organization_id": scope.league.organization_id,
            "league_id": scope.league_id,
            "tournament_id": scope.pk,
            "tournament_name": scope.name,
        }
    elif kind == "league":
        where = {"organization_id": scope.organization_id, "league_id": scope.pk}
    elif kind == "organization":
        where = {"organization_id": scope.pk}
    else:
        where = {"organization_id": scope.organization_id}
    if isinstance(about, tuple):
        object_type, object_id = about
    else:
        name = about._meta.model_name
        object_type, object_id = OBJECT_TYPES.get(name, name), about.pk
    return audit_record(
        **where,
        action=action,
        object_type=object_type,
        object_id=object_id,
        before=before,
        after=after,
        summary=summary,
        by=by,
        via=via,
        reverts=reverts,
    )


@transaction.atomic
def audit_undo(*, entry: AuditEntry, by=None) -> AuditEntry:
    """Undo a correction, a deletion or a drop from the log and return the new entry, which
    `reverts` this one.

    Refused (UndoRefused, nothing written) for an entry whose action registered no undo, one
    already undone, or when its handler finds the thing changed again since.
    """
    entry = AuditEntry.objects.select_for_update().get(pk=entry.pk)
    action = action_get(entry.action)
    if action is None or action.undo is None:
        raise UndoRefused(
            _("Only a correction, a deletion or a drop can be undone."), code="not_undoable"
        )
    if AuditEntry.objects.filter(reverts=entry).exists():
        raise UndoRefused(_("This change was already undone."), code="already_undone")
    action.undo(entry=entry, by=by)
    undo = AuditEntry.objects.filter(reverts=entry).first()
    if undo is None:  # the handler found nothing to change (it already reads as before)
        raise UndoRefused(_("Nothing to undo: it is already as it was before."), code="no_change")
    return undo
