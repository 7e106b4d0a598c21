"""A series across stores: its host invites other stores, each invited store's owner accepts or
declines, a store may leave; the host links a player with no account to another store's player.

Only the invited store's owner decides on its invitation (`invitation_decide` refuses anyone
else, superusers included: joining a series publishes the store's events' names, dates and
standings, which is the owner's call). A store that leaves keeps its past events in the
series' seasons (marked on its pages); its events after the day it leaves stop counting, and
the seasons are re-scored at once. Every change is one transaction filed in the History of
the store that made it. Bad input raises `SeasonError` naming the field; nothing changes.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from audit.services import log_action
from audit.summary import N_, Summary
from leagues.models import Organization, Player, Role

from .actions import Action
from .models import Season, SeasonEvent, Series, SeriesLink, SeriesMember
from .services import SeasonError, _replay, season_events_set

Status = SeriesMember.Status


def _acting(by):
    return by if by is not None and by.is_authenticated else None


@transaction.atomic
def series_create(*, organization: Organization, name: str, by=None) -> Series:
    """A new series hosted by `organization` (which takes part in it from the start)."""
    name = name.strip()
    if not name:
        raise SeasonError(code="no_name", field="name", message=_("A series needs a name."))
    if len(name) > 120:
        raise SeasonError(code="too_long", field="name", message=_("At most 120 characters."))
    Organization.objects.select_for_update().filter(pk=organization.pk).exists()
    if Series.objects.filter(organization=organization, name__iexact=name).exists():
        raise SeasonError(
            code="name_taken",
            field="name",
            message=_("%(store)s already hosts a series %(name)s.")
            % {"store": organization.name, "name": repr(name)},
        )
    base = slugify(name)[:50] or "series"
    slug, n = base, 1
    while Series.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    series = Series.objects.create(
        organization=organization, name=name, slug=slug, created_by=_acting(by)
    )
    SeriesMember.objects.create(
        series=series,
        organization=organization,
        status=Status.ACCEPTED,
        invited_by=_acting(by),
        decided_by=_acting(by),
        decided_at=timezone.now(),
    )
    log_action(
        organization,
        Action.SERIES_CREATE,
        series,
        Summary(N_("Series %(series)s created"), series=name),
        after={"name": name},
        by=by,
    )
    return series


def _series_locked(series: Series) -> Series:
    return Series.objects.select_for_update().select_related("organization").get(pk=series.pk)


@transaction.atomic
def series_invite(*, series: Series, organization: Organization, by=None) -> SeriesMember:
    """Invite a store (again, after it declined or left). A store already invited or taking
    part is said so (`code="twice"`): a second press changes nothing."""
    series = _series_locked(series)
    member = SeriesMember.objects.filter(series=series, organization=organization).first()
    if member is not None and member.status in (Status.INVITED, Status.ACCEPTED):
        raise SeasonError(
            code="twice",
            field="organization",
            message=(
                _("%(store)s is already invited to %(series)s.")
                if member.status == Status.INVITED
                else _("%(store)s is already taking part in %(series)s.")
            )
            % {"store": organization.name, "series": series.name},
        )
    if member is None:
        member = SeriesMember(series=series, organization=organization)
    member.status = Status.INVITED
    member.invited_by = _acting(by)
    member.invited_at = timezone.now()
    member.decided_by, member.decided_at, member.left_at = None, None, None
    member.save()
    log_action(
        series.organization,
        Action.SERIES_INVITE,
        member,
        Summary(N_("%(store)s invited to %(series)s"), store=organization.name, series=series.name),
        after={"store": organization.slug},
        by=by,
    )
    return member


def is_owner(user, organization_id: int) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and user.memberships.filter(organization_id=organization_id, role=Role.OWNER).exists()
    )


@transaction.atomic
def invitation_decide(*, member: SeriesMember, accept: bool, by) -> SeriesMember:
    """The invited store's owner accepts or declines. Anyone else is refused
    (`code="not_owner"`); an invitation already decided the same way is said so
    (`code="twice"`), decided the other way or withdrawn is refused (`code="decided"`)."""
    member = (
        SeriesMember.objects.select_for_update(of=("self",))
        .select_related("series", "organization")
        .get(pk=member.pk)
    )
    if not is_owner(by, member.organization_id):
        raise SeasonError(
            code="not_owner",
            field="decision",
            message=_("Only an owner of %(store)s answers its invitation to %(series)s.")
            % {"store": member.organization.name, "series": member.series.name},
        )
    wanted = Status.ACCEPTED if accept else Status.DECLINED
    if member.status == wanted:
        raise SeasonError(
            code="twice",
            field="decision",
            message=(
                _("%(store)s has already accepted the invitation.")
                if accept
                else _("%(store)s has already declined the invitation.")
            )
            % {"store": member.organization.name},
        )
    if member.status != Status.INVITED:
        raise SeasonError(
            code="decided",
            field="decision",
            message=_("This invitation is no longer open (%(status)s).")
            % {"status": member.get_status_display()},
        )
    member.status = wanted
    member.decided_by = by
    member.decided_at = timezone.now()
    member.save(update_fields=["status", "decided_by", "decided_at"])
    log_action(
        member.organization,
        Action.SERIES_ACCEPT if accept else Action.SERIES_DECLINE,
        member,
        Summary(
            N_("Invitation to %(series)s accepted")
            if accept
            else N_("Invitation to %(series)s declined"),
            series=member.series.name,
        ),
        after={"series": member.series.slug, "status": wanted},
        by=by,
    )
    return member


@transaction.atomic
def series_leave(*, member: SeriesMember, by=None) -> list[str]:
    """The store leaves the series: its events dated before today stay counted (marked as a
    store that left), the later ones stop counting; the seasons are re-scored. The host does
    not leave its own series. The names of the events that stopped counting."""
    member = (
        SeriesMember.objects.select_for_update(of=("self",))
        .select_related("series", "organization")
        .get(pk=member.pk)
    )
    series = member.series
    if member.organization_id == series.organization_id:
        raise SeasonError(
            code="host",
            field="organization",
            message=_("The host store does not leave its series."),
        )
    if member.status != Status.ACCEPTED:
        raise SeasonError(
            code="twice" if member.status == Status.LEFT else "not_taking_part",
            field="organization",
            message=_("%(store)s is not taking part in %(series)s.")
            % {"store": member.organization.name, "series": series.name},
        )
    today = timezone.localdate()
    removed = []
    for season in Season.objects.select_for_update().filter(series=series).order_by("pk"):
        later = SeasonEvent.objects.filter(
            season=season,
            tournament__league__organization_id=member.organization_id,
            tournament__date__gte=today,
        )
        names = list(later.values_list("tournament__name", flat=True))
        if names:
            later.delete()
            removed += names
            _replay(season)
    member.status = Status.LEFT
    member.left_at = timezone.now()
    member.save(update_fields=["status", "left_at"])
    log_action(
        member.organization,
        Action.SERIES_LEAVE,
        member,
        Summary(N_("Left %(series)s"), series=series.name),
        after={"series": series.slug, "events_removed": removed},
        by=by,
    )
    return removed


def _people_stores(series: Series) -> set[int]:
    return set(
        SeriesMember.objects.filter(
            series=series, status__in=(Status.ACCEPTED, Status.LEFT)
        ).values_list("organization_id", flat=True)
    )


@transaction.atomic
def series_link(*, series: Series, player: Player, same_as: Player, by=None) -> SeriesLink:
    """The host says `player` (who has no account) is `same_as`, a player of another store of
    the series; its seasons are re-scored at once. A player with an account is one person by
    that account already, and two players of one store are one store's to merge."""
    series = _series_locked(series)
    stores = _people_stores(series)
    for p in (player, same_as):
        if p.organization_id not in stores:
            raise SeasonError(
                code="not_in_series",
                field="player" if p is player else "same_as",
                message=_("%(player)s is not a player of a store of %(series)s.")
                % {"player": p.name, "series": series.name},
            )
    if player.user_id is not None:
        raise SeasonError(
            code="has_account",
            field="player",
            message=_("%(player)s has an account: their stores' players are one person already.")
            % {"player": player.name},
        )
    if player.organization_id == same_as.organization_id:
        raise SeasonError(
            code="same_store",
            field="same_as",
            message=_("Both players are of the same store: link players of two stores."),
        )
    existing = SeriesLink.objects.filter(series=series, player=player).first()
    if existing is not None and existing.same_as_id == same_as.pk:
        raise SeasonError(
            code="twice",
            field="player",
            message=_("%(player)s is already linked.") % {"player": player.name},
        )
    if existing is not None:
        existing.delete()
    link = SeriesLink.objects.create(
        series=series, player=player, same_as=same_as, linked_by=_acting(by)
    )
    for season in Season.objects.select_for_update().filter(series=series).order_by("pk"):
        _replay(season)
    log_action(
        series.organization,
        Action.SERIES_LINK,
        link,
        Summary(
            # Translators: the History: two stores' players are one person in a series.
            N_("%(series)s: %(player)s (%(store)s) is %(same_as)s (%(same_as_store)s)"),
            series=series.name,
            player=player.name,
            store=player.organization.name,
            same_as=same_as.name,
            same_as_store=same_as.organization.name,
        ),
        after={"player": player.pk, "same_as": same_as.pk},
        by=by,
    )
    return link


@transaction.atomic
def series_unlink(*, link: SeriesLink, by=None) -> None:
    series = _series_locked(link.series)
    before = {"player": link.player_id, "same_as": link.same_as_id}
    pk = link.pk
    summary = Summary(
        N_("%(series)s: %(player)s and %(same_as)s apart again"),
        series=series.name,
        player=link.player.name,
        same_as=link.same_as.name,
    )
    SeriesLink.objects.filter(pk=pk).delete()
    for season in Season.objects.select_for_update().filter(series=series).order_by("pk"):
        _replay(season)
    log_action(
        series.organization, Action.SERIES_UNLINK, ("serieslink", pk), summary, before, by=by
    )


def series_events_set(*, season: Season, organization: Organization, choices, by=None) -> int:
    """A store's own events in a series' season (seasons.services.season_events_set)."""
    return season_events_set(season=season, choices=choices, organization=organization, by=by)
