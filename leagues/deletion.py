"""What deleting a row would take with it, said before anything is deleted.

`delete_preview(obj)` runs Django's own deletion collector (the admin's `NestedObjects`, the
same walk `obj.delete()` makes) without deleting: it returns every row that would go with
`obj`, counted per kind, the rows that protect it (a player who has results, an entry that
has sat at a table), and the rows that stay but lose their link to it (SET_NULL: a tournament
table keeps its result when its league game is deleted). Confirmation pages on the site and
in the admin show this, and tests compare it with what a delete really removes.
"""

from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.admin.utils import NestedObjects
from django.db import router
from django.db.models import Model
from django.utils.translation import gettext as _


@dataclass(frozen=True)
class Count:
    """`number` rows of one kind, e.g. Count("game results", 4, "game result", its noun):
    read in the reader's language and plural forms (Polish has three) by the model's own
    `counted` noun (`ngettext_lazy("%(n)s game result", "%(n)s game results", "n")`, which
    each project model declares and a test holds them to); else its English verbose names."""

    plural: str  # its English verbose_name_plural (what tests and logs compare)
    number: int
    name: str = ""
    counted: object = None

    def __str__(self) -> str:
        counted = self.counted
        if counted is not None:
            return counted % {"n": self.number}
        return f"{self.number} {self.name if self.number == 1 else self.plural}"


@dataclass(frozen=True)
class Unlinked:
    """`number` rows of a kind that stay, with `field` emptied (they pointed at a deleted row)."""

    count: Count
    field: str

    def __str__(self) -> str:
        return _("Kept, with the %(field)s left empty: %(count)s") % {
            "field": self.field,
            "count": self.count,
        }


@dataclass(frozen=True)
class DeletePreview:
    obj: Model
    deleted: tuple[Count, ...]  # the object's own kind first, then the rest by name
    protected: tuple[Model, ...]  # rows that refuse the delete; empty when it may go ahead
    unlinked: tuple[Unlinked, ...]
    notes: tuple[str, ...]  # what else changes, or stays on purpose (see NOTES)
    rows: frozenset[tuple[str, object]]  # (model label, pk) of every row that would go

    @property
    def allowed(self) -> bool:
        return not self.protected

    @property
    def with_it(self) -> tuple[Count, ...]:
        """What goes besides the object itself (the first entry of `deleted` counts it)."""
        return self.deleted[1:]

    def count_of(self, model: type[Model]) -> int:
        label = model._meta.label
        return sum(1 for row_label, _count in self.rows if row_label == label)

    def protected_summary(self) -> str:
        """ "3 results (Ann #1, ...), 1 entry (Ann in Friday Swiss)" for a refusal message."""
        by_kind: dict[type[Model], list[Model]] = {}
        for row in self.protected:
            by_kind.setdefault(type(row), []).append(row)
        parts = []
        for model, rows in sorted(by_kind.items(), key=lambda item: item[0]._meta.label):
            names = ", ".join(sorted(str(r) for r in rows)[:5])
            more = ", …" if len(rows) > 5 else ""
            parts.append(f"{_count(model, len(rows))} ({names}{more})")
        return "; ".join(parts)

    def refusal(self) -> str:
        """Why the object cannot be deleted, in the users' words."""
        return _(
            "“%(name)s” cannot be deleted: other records depend on it (%(rows)s). "
            "Delete or correct those first."
        ) % {"name": self.obj, "rows": self.protected_summary()}


def _count(model: type[Model], number: int) -> Count:
    meta = model._meta
    counted = getattr(model, "counted", None)
    return Count(str(meta.verbose_name_plural), number, str(meta.verbose_name), counted)


def delete_preview(obj: Model) -> DeletePreview:
    """What `obj.delete()` would remove, refuse over, or leave unlinked. Writes nothing."""
    collector = NestedObjects(using=router.db_for_write(type(obj), instance=obj))
    collector.collect([obj])
    own = type(obj)
    deleted = [_count(own, len(collector.model_objs[own]))]
    for model, objs in sorted(
        collector.model_objs.items(), key=lambda item: str(item[0]._meta.verbose_name)
    ):
        if model is not own and objs:
            deleted.append(_count(model, len(objs)))
    rows = frozenset(
        (model._meta.label, o.pk) for model, objs in collector.model_objs.items() for o in objs
    )
    unlinked = []
    for (field, value), batches in collector.field_updates.items():
        if value is not None:
            continue
        pks = {o.pk for batch in batches for o in _instances(batch)}
        if pks:
            unlinked.append(Unlinked(_count(field.model, len(pks)), str(field.verbose_name)))
    protected = tuple(sorted(collector.protected, key=lambda o: (o._meta.label, str(o))))
    note = NOTES.get(own._meta.label)
    return DeletePreview(
        obj=obj,
        deleted=tuple(deleted),
        protected=protected,
        unlinked=tuple(unlinked),
        notes=tuple(note(obj)) if note and not protected else (),
        rows=rows,
    )


# --- what the collector cannot see ---------------------------------------------------------


def _game_notes(game) -> list[str]:
    return [
        _(
            "The ratings of %(league)s are recalculated from %(date)s on, as if this game had "
            "never been played."
        )
        % {"league": game.league, "date": f"{game.played_on:%Y-%m-%d}"}
    ]


# Model label → what to say besides the rows: effects outside the deletion cascade. The apps
# above add theirs with `delete_note_register` from their AppConfig.ready().
NOTES = {"leagues.Game": _game_notes}


def delete_note_register(label: str, notes) -> None:
    """`notes(obj) -> [sentence]` for rows of the model `label` ("app.Model") being deleted."""
    known = NOTES.get(label)
    if known is not None and known is not notes:
        raise ValueError(f"{label} already has its deletion notes.")
    NOTES[label] = notes


def _instances(batch) -> Iterable[Model]:
    return batch if isinstance(batch, list | tuple | set) else batch.all()
