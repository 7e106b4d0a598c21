"""What the audit trail may record and how each action is undone, filled in by the apps.

An entry's `action` is a string such as "game.correct". The app that owns the action
registers it with its label (and, when it can be undone, the action its undo records and the
function that undoes it) from its `AppConfig.ready()`; the audit app itself names no action.
A scope ("tournament") lets the History page narrow to a thing of an app above leagues.
The fields of a kind of entry (`fields_register`) say how the History shows the data its
entries keep before and after a change: each key's label and a coded value's own label, in
the reader's language.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Action:
    code: str
    label: str
    undone_as: str | None = None  # the action an undo of this one records
    undo: Callable | None = None  # undo(entry=..., by=...): writes the undo's own entry


_ACTIONS: dict[str, Action] = {}


def action_register(
    code: str, label: str, *, undone_as: str | None = None, undo: Callable | None = None
) -> None:
    """Declare one action; registering the same code twice with other details is a bug."""
    action = Action(code=code, label=label, undone_as=undone_as, undo=undo)
    known = _ACTIONS.get(code)
    if known is not None and known != action:
        raise ValueError(f"Audit action {code!r} is already registered differently.")
    _ACTIONS[code] = action


def action_get(code: str) -> Action | None:
    return _ACTIONS.get(code)


def action_label(code: str) -> str:
    action = _ACTIONS.get(code)
    return action.label if action is not None else code


def is_undoable(code: str) -> bool:
    action = _ACTIONS.get(code)
    return action is not None and action.undo is not None


@dataclass(frozen=True)
class Scope:
    """A kind of thing the History page can be narrowed to (an event), found by its slug."""

    get: Callable  # get(organization, slug) -> the thing (with .pk, .slug, .name, .league) or None
    choices: Callable  # choices(organization) -> the things to offer in the filter


_SCOPES: dict[str, Scope] = {}


def scope_register(name: str, *, get: Callable, choices: Callable) -> None:
    _SCOPES[name] = Scope(get=get, choices=choices)


def scope_get(name: str) -> Scope | None:
    return _SCOPES.get(name)


@dataclass(frozen=True)
class Field:
    """One field the entries of a kind keep in `before`/`after`, as the History shows it:
    its label and, for a coded value, each code's label (lazy texts: read in the reader's
    language); or `show`, which writes a stored value itself (a note kept before
    translation)."""

    label: str
    choices: Mapping[str, str] | None = None
    show: Callable | None = None


_FIELDS: dict[str, dict[str, Field]] = {}


def fields_register(object_type: str, fields: Mapping[str, object]) -> None:
    """The fields of `object_type`'s entries ("registration", "call"), by key: a label, or a
    pair (label, choices), `choices` a model's `TextChoices.choices`, a dict of code -> label
    or a function that writes the stored value. A key not registered is shown by its
    name."""
    table = _FIELDS.setdefault(object_type, {})
    for key, value in fields.items():
        label, choices = value if isinstance(value, tuple) else (value, None)
        if callable(choices):
            table[key] = Field(label, show=choices)
        else:
            table[key] = Field(label, dict(choices) if choices is not None else None)


def fields_get(object_type: str) -> dict[str, Field]:
    return _FIELDS.get(object_type, {})
