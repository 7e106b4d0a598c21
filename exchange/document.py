"""The document's common ground, for every app's part of it (exchange/leagues.py,
tournaments.py...): its name and version, the error that names a JSON path, reading a JSON
value where it sits (`Node`) into an unsaved row checked as the model checks it (`build`),
and the state of one import (`Importer`: the players by name, the slugs taken, the counts).
The format itself is described in docs/operations.md ("The organization export format").
"""

import datetime
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import DomainError
from core.links import LinkError, link_clean
from leagues.models import GameResult, League, Player
from seasons.models import Season
from tournaments.models import Entry, Round, Seat, Tournament

FORMAT = "guildhall-organization"
VERSION = 1

# Fields added after version 1 was first written. A document written before drawn games, the
# game-win floor and the 1v1 bye setting lacks them: no drawn games, and the event as it was
# computed and paired then (`exchange.tournaments.before_rules`); without the bye rule or
# requested byes, their defaults.
OPTIONAL_FIELDS = {
    "created_at",
    "registration_open",
    "registration_cap",
    "registration_deadline",
    "registration_note",
    "check_in",
    "deck_deadline",
    "deck_visibility",
    "deck_name",
    "decklist_url",
    "decklist_text",
    "game_draws",
    "gw_floor",
    "bye_pairing",
    "bye_rule",
    "cut_seats",
    "requested_bye",
    "extra_seat",
    "self_report",
    "address",
    "time_zone",
    "accent",
    "short_name",
    "language",
    "sees_private_leagues",
    "start_time",
    "place",
    "entry_fee",
    "fee_currency",
    "deck_updated_at",
    "extra_minutes",
    "decklist_format",
    "decklist_required",
    "deck_commander_ids",
    "deck_identity",
    "deck_cards",
    "deck_problems",
    "deck_legal",
    "stage",
}

# What the document leaves out, and why: every other column of an exported model is written
# Numbers the database's check constraints count from 1 (checked here to name the path).
FROM_ONE = {
    GameResult: ("placement", "seat"),
    Entry: ("joined_round",),
    Round: ("number",),
    Seat: ("position", "place"),
}
# Links a person gave the site, read with the deck form's own rule (core.links): whatever the
# site stored, an older row's space in it included, imports (written as %20, as the form now
# writes it), rather than being held to the model field's stricter check.
LINKS = {Entry: {"decklist_url": "The decklist link"}}


class ExchangeError(DomainError):
    """Input that cannot be imported; `field` (also `path`) is where in the JSON document
    (JSONPath), and `str()` names it before the message: "$.players[2].name: too long"."""

    default_code = "bad_document"
    message_follows_field = True

    def __init__(self, *, field: str, message: str, code: str | None = None):
        super().__init__(message=message, field=field, code=code)
        self.path = field


def plain(value):
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def fields(obj: models.Model, names: Iterable[str]) -> dict:
    return {name: plain(getattr(obj, name)) for name in names}


_MISSING = object()


class Node:
    """A JSON object or value with its path, for messages that say where the problem is."""

    def __init__(self, value, path: str):
        self.value = value
        self.path = path

    def error(self, message: str, key: str | None = None) -> ExchangeError:
        return ExchangeError(
            field=self._sub(key) if key is not None else self.path,
            message=message,
        )

    def _sub(self, key) -> str:
        return f"{self.path}[{key}]" if isinstance(key, int) else f"{self.path}.{key}"

    def get(self, key: str, default=_MISSING):
        if not isinstance(self.value, dict):
            raise self.error(_("must be an object"))
        if key not in self.value:
            if default is _MISSING:
                raise self.error(_('the key "%(key)s" is missing') % {"key": key})
            return default
        return self.value[key]

    def obj(self, key: str) -> "Node":
        node = Node(self.get(key), self._sub(key))
        if not isinstance(node.value, dict):
            raise node.error(_("must be an object"))
        return node

    def items(self, key: str) -> list["Node"]:
        value = self.get(key)
        path = self._sub(key)
        if not isinstance(value, list):
            raise ExchangeError(field=path, message=_("must be a list"))
        nodes = [Node(item, f"{path}[{i}]") for i, item in enumerate(value)]
        for node in nodes:
            if not isinstance(node.value, dict):
                raise node.error(_("must be an object"))
        return nodes

    def text(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str) or not value.strip():
            raise self.error(_("must be a non-empty string"), key)
        return value

    def integer(self, key: str, *, null: bool = False) -> int | None:
        value = self.get(key)
        if value is None and null:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(
                _("must be a whole number or null") if null else _("must be a whole number"), key
            )
        return value


def _read_value(node: Node, name: str, field: models.Field):
    """One model field's value from the document, converted, or ExchangeError."""
    if name in OPTIONAL_FIELDS and isinstance(node.value, dict) and name not in node.value:
        return field.get_default()  # the model's own (a database default: the database's)
    value = node.get(name)
    if value is None:
        if field.null:
            return None
        raise node.error(_("must not be null"), name)

    def bad(kind: str) -> ExchangeError:
        return node.error(
            _("must be %(kind)s, not %(value)s") % {"kind": kind, "value": repr(value)}, name
        )

    if isinstance(field, models.DateTimeField):
        try:
            parsed = datetime.datetime.fromisoformat(value)
        except (TypeError, ValueError):
            raise bad(_("a date and time (ISO 8601)")) from None
        return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed)
    if isinstance(field, models.TimeField):
        try:
            return datetime.time.fromisoformat(value)
        except (TypeError, ValueError):
            raise bad(_("a time of day (HH:MM)")) from None
    if isinstance(field, models.DateField):
        try:
            return datetime.date.fromisoformat(value)
        except (TypeError, ValueError):
            raise bad(_("a date (YYYY-MM-DD)")) from None
    if isinstance(field, models.DecimalField):
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise bad(_("a number"))
        try:
            return Decimal(str(value))
        except InvalidOperation:
            raise bad(_("a number")) from None
    if isinstance(field, models.BooleanField):
        if not isinstance(value, bool):
            raise bad(_("true or false"))
        return value
    if isinstance(field, models.IntegerField):
        if not isinstance(value, int) or isinstance(value, bool):
            raise bad(_("a whole number"))
        return value
    if isinstance(field, models.JSONField):
        return value
    if not isinstance(value, str):
        raise bad(_("a string"))
    return value


def build(model: type[models.Model], node: Node, names: Iterable[str], **relations):
    """An unsaved row of `model` from `names` in `node`, each field checked as the model
    would check it (length, choices, range); constraints spanning rows are checked apart."""
    values = {name: _read_value(node, name, model._meta.get_field(name)) for name in names}
    for name in FROM_ONE.get(model, ()):
        if values[name] is not None and values[name] < 1:
            raise node.error(
                _("must be 1 or more, not %(values)s") % {"values": values[name]}, name
            )
    links = LINKS.get(model, {})
    for name, label in links.items():
        if name in values:
            try:
                values[name] = link_clean(values[name], label=label, stored=True)
            except LinkError as error:
                raise node.error(error.message, name) from None
    obj = model(**values, **relations)
    exclude = [f.name for f in model._meta.fields if f.is_relation or f.name in links]
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except ValidationError as error:
        field, messages = next(iter(error.message_dict.items()))
        key = field if field in values else None
        raise node.error(" ".join(messages), key) from None
    return obj


def check_row_rules(obj: models.Model, node: Node) -> None:
    """The model's own constraints (few rows: organizations, leagues, tournaments)."""
    exclude = [f.name for f in obj._meta.fields if f.is_relation]
    try:
        obj.validate_constraints(exclude=exclude)
    except ValidationError as error:
        raise node.error(" ".join(error.messages)) from None


class Importer:
    """One import's state: the players by name (folded: names are unique ignoring case), the
    slugs taken so far, the seasons to replay once everything is in, and the counts."""

    def __init__(self, players: dict[str, Player]):
        self.players = players
        self.games = 0
        self.tournaments = 0
        self.season_list: list[Season] = []
        self.slugs: dict[type, dict[str, str]] = {League: {}, Tournament: {}}

    def player(self, node: Node, key: str = "player") -> Player:
        """The player `node[key]` names (ignoring case: names are unique that way)."""
        name = node.text(key)
        try:
            return self.players[name.lower()]
        except KeyError:
            raise node.error(_('no player "%(name)s" in $.players') % {"name": name}, key) from None

    def unique_slug(self, obj, node: Node) -> None:
        model = type(obj)
        seen = self.slugs[model]
        if obj.slug in seen:
            raise node.error(
                _('"%(slug)s" is already %(slug2)s') % {"slug": obj.slug, "slug2": seen[obj.slug]},
                "slug",
            )
        if model.objects.filter(slug=obj.slug).exists():
            # One sentence for a league and one for an event: the noun's article and gender
            # differ by language.
            text = (
                _('this site already has a league "%(slug)s"')
                if model is League
                else _('this site already has an event "%(slug)s"')
            )
            raise node.error(text % {"slug": obj.slug}, "slug")
        seen[obj.slug] = node.path

    def entry(self, node: Node, entries: dict[str, Entry], key: str = "player") -> Entry:
        """The entry, among an event's `entries` (by player name), of the player `node[key]`
        names."""
        player = self.player(node, key)
        if player.name not in entries:
            raise node.error(
                _('"%(name)s" is not in the tournament\'s entries') % {"name": player.name}, key
            )
        return entries[player.name]
