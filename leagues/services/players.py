"""Players of a store by name: cleaning a typed name, matching names ignoring case, and
creating the new players a person confirmed.

Every new player is checked here first (`players_new_check`), by `players_get_or_create`
(the game form, imports, the API, a TO's walk-in) and by `player_join` (the join form); the
admin's form asks the same check. A new name that only reads like a player the store has
("R\u0435g1", with a Cyrillic e, beside "Reg1") is refused with LookAlikeNames until the person
confirms it is someone else (leagues.domain.names)."""

from collections.abc import Iterable, Sequence

from django.db import connection
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from ..domain.csvformat import (
    NAME_MAX_LENGTH,
    clean_text,
    has_control_characters,
)
from ..domain.names import look_alikes
from ..models import Organization, Player
from .common import (
    LeagueError,
)


def player_name_clean(raw: str) -> str:
    name = clean_text(raw or "")
    if not name:
        raise LeagueError(_("A player needs a name."), field="name", code="empty_name")
    if len(name) > NAME_MAX_LENGTH:
        raise LeagueError(
            _("A name can be at most %(name_max_length)s characters.")
            % {"name_max_length": NAME_MAX_LENGTH},
            field="name",
            code="long_name",
        )
    if has_control_characters(name):
        raise LeagueError(
            _("The name contains control characters."), field="name", code="control_characters"
        )
    return name


class LookAlikeNames(LeagueError):
    """New names that read like players the store already has: nothing is created until the
    person confirms they are other people. `pairs` maps each new name to the look-alike."""

    default_code = "look_alike"

    def __init__(self, *, pairs: dict[str, str], message: str | None = None):
        if message is None:
            shown = "; ".join(f'"{new}" reads like {old}' for new, old in pairs.items())
            message = (
                f"{shown}: the same letters from another alphabet, or look-alike characters. "
                "Check the spelling; if it is really someone else, confirm the new name."
            )
        super().__init__(message, field="players", code="look_alike")
        self.pairs = pairs


def players_look_alike(
    *, organization: Organization, names: Sequence[str], exclude: int | None = None
) -> dict[str, str]:
    """Each of `names` that reads like a player of `organization` (or like another of
    `names`) without being the same name ignoring case, to the name it reads like. The
    player `exclude` (one being renamed) is left out."""
    stored = (
        Player.objects.filter(organization=organization)
        .exclude(pk=exclude)
        .values_list("name", flat=True)
    )
    return look_alikes(names, [*stored, *names])


def players_new_check(
    *,
    organization: Organization,
    names: Sequence[str],
    look_alikes_confirmed: bool,
    exclude: int | None = None,
) -> None:
    """Refuse to create players named `names` while one reads like another player and the
    person has not confirmed it (LookAlikeNames). Every path that creates players asks."""
    if look_alikes_confirmed or not names:
        return
    pairs = players_look_alike(organization=organization, names=names, exclude=exclude)
    if pairs:
        raise LookAlikeNames(pairs=pairs)


def names_folded(names: Iterable[str]) -> dict[str, str]:
    """Each name to lower(name) as the database computes it, the rule of the unique constraint.

    Python's str.lower() differs for a few letters ("İ" is "i̇" in Python but "i" in
    PostgreSQL), and matching with it would miss a player the constraint then refuses to
    create twice.
    """
    unique = list(dict.fromkeys(names))
    folded: dict[str, str] = {}
    with connection.cursor() as cursor:
        for start in range(0, len(unique), 500):
            chunk = unique[start : start + 500]
            cursor.execute("SELECT " + ", ".join(["lower(CAST(%s AS text))"] * len(chunk)), chunk)
            folded.update(zip(chunk, cursor.fetchone(), strict=True))
    return folded


def players_find(*, organization: Organization, names: Sequence[str]) -> dict[str, Player]:
    """Existing players of `organization` for `names`, keyed by each given name's .lower().

    Names match ignoring case the way the unique constraint does (see `names_folded`).
    """
    folded = names_folded(names)
    if not folded:
        return {}
    found = {
        p.lname: p
        for p in Player.objects.annotate(lname=Lower("name")).filter(
            organization=organization, lname__in=set(folded.values())
        )
    }
    return {name.lower(): found[key] for name, key in folded.items() if key in found}


def players_get_or_create(
    *, organization: Organization, names: Sequence[str], look_alikes_confirmed: bool = False
) -> tuple[dict[str, Player], list[Player]]:
    """Players for `names` (matched ignoring case), creating the missing ones in one insert.

    A missing name that reads like a player of the store is refused (LookAlikeNames) unless
    `look_alikes_confirmed`: nothing is created then."""
    cleaned = [player_name_clean(n) for n in names]
    folded = names_folded(cleaned)
    existing = players_find(organization=organization, names=cleaned)
    by_key = {folded[n]: existing[n.lower()] for n in cleaned if n.lower() in existing}
    to_create: dict[str, Player] = {}
    for name in cleaned:
        key = folded[name]
        if key not in by_key and key not in to_create:
            to_create[key] = Player(organization=organization, name=name)
    players_new_check(
        organization=organization,
        names=[p.name for p in to_create.values()],
        look_alikes_confirmed=look_alikes_confirmed,
    )
    # Another league of the same store may be adding the same newcomer right now (only the
    # league is locked): skip names that win that race, then read every player back.
    Player.objects.bulk_create(to_create.values(), ignore_conflicts=True)
    if to_create:
        missing = [p.name for p in to_create.values()]
        found = players_find(organization=organization, names=missing)
        by_key.update({folded[n]: found[n.lower()] for n in missing})
    created = [by_key[key] for key in to_create]
    return {name.lower(): by_key[folded[name]] for name in cleaned}, created
