"""Qualification: the top of a season (a store's or a series') invited to a final event in
one action, each registered for it and told by mail.

The top N are the season table's players ranked N or better (a tie at the edge takes
everyone tied). Each person is registered with the final's store's player for them: their
own player there, else (a person with an account) the player their account has there, made
for them as joining online makes it; a person with no account and no player at that store
cannot be registered by anyone's guess and is listed for the organizer instead. Pressing
again registers nobody twice and mails nobody twice (`AlreadyDone`, the mail's key).
"""

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

from audit.services import log_action
from audit.summary import N_, Summary
from core.errors import DomainError
from leagues.models import Player
from leagues.services.claims import player_join
from notifications.services import qualified_record
from tournaments.errors import AlreadyDone, TournamentError
from tournaments.models import Tournament
from tournaments.services.registration import registration_invite

from .actions import Action
from .models import Season, SeasonEvent, SeasonStanding
from .services import SeasonError, _replay, series_people


@dataclass
class Qualified:
    registered: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (name, why)
    mailed: int = 0


def final_choices(season: Season):
    """The events a season's top may be invited to: the host store's (a series') or the
    league's store's events that have not started."""
    organization_id = (
        season.series.organization_id if season.series_id else season.league.organization_id
    )
    return Tournament.objects.filter(
        league__organization_id=organization_id, status=Tournament.Status.REGISTRATION
    ).order_by("date", "pk")


def _people(season: Season, standings: list[SeasonStanding]) -> dict[int, list[Player]]:
    """Each standing's player -> every store player of the same person (a series counts a
    person once, by account or the host's link)."""
    if not season.series_id:
        return {s.player_id: [s.player] for s in standings}
    player_ids = {
        finish[0]
        for finishes in season.events.values_list("finishes", flat=True)
        for finish in finishes
    }
    person = series_people(series_id=season.series_id, player_ids=player_ids)
    members: dict[int, list[int]] = {}
    for pk, rep in person.items():
        members.setdefault(rep, []).append(pk)
    players = Player.objects.in_bulk([pk for pks in members.values() for pk in pks])
    return {
        s.player_id: [players[pk] for pk in sorted(members.get(s.player_id, [s.player_id]))]
        for s in standings
    }


def _player_at(final: Tournament, players: list[Player]) -> tuple[Player | None, str]:
    organization = final.league.organization
    for p in players:
        if p.organization_id == organization.pk:
            return p, ""
    user_ids = {p.user_id for p in players if p.user_id is not None}
    if not user_ids:
        return None, _("has no account and is not a player of %(store)s: link them") % {
            "store": organization.name
        }
    user_id = min(user_ids)
    mine = Player.objects.filter(organization=organization, user_id=user_id).first()
    if mine is not None:
        return mine, ""
    user = next(p.user for p in players if p.user_id == user_id)
    try:
        with transaction.atomic():
            return player_join(user=user, organization=organization, name=players[0].name), ""
    except DomainError as error:  # a player of that name, or one named like them, is there
        return None, _("%(refusal)s Link them to the player %(store)s has.") % {
            "refusal": error.message,
            "store": organization.name,
        }


@transaction.atomic
def qualification_invite(*, season: Season, final: Tournament, top: int, by=None) -> Qualified:
    """Register the season's top `top` for `final` and mail each (see the module)."""
    if not final_choices(season).filter(pk=final.pk).exists():
        raise SeasonError(
            code="not_a_final",
            field="final",
            message=_("%(event)s is not an event of the season's store that is still to play.")
            % {"event": final.name},
        )
    if top < 1 or top > 512:
        raise SeasonError(code="top", field="top", message=_("Invite the top 1 to 512."))
    season = Season.objects.select_for_update(of=("self",)).get(pk=season.pk)
    private = SeasonEvent.objects.filter(season=season, tournament__league__is_public=False)
    if season.series_id and private.exists():
        _replay(season)  # a table stored before its league was made private: without it now
    standings = list(
        SeasonStanding.objects.filter(season=season, rank__lte=top)
        .select_related("player__user")
        .order_by("position")
    )
    if not standings:
        raise SeasonError(
            code="empty",
            field="top",
            message=_("%(season)s has nobody in its table yet.") % {"season": season.name},
        )
    people = _people(season, standings)
    done = Qualified()
    for standing in standings:
        name = standing.player.name
        player, why = _player_at(final, people[standing.player_id])
        if player is None:
            done.skipped.append((name, why))
            continue
        try:
            registration = registration_invite(tournament=final, player=player, by=by)
        except AlreadyDone:
            done.already.append(name)
            registration = final.registrations.filter(player=player).first()
        except TournamentError as error:
            raise SeasonError(code=error.code, field="final", message=str(error)) from None
        else:
            done.registered.append(name)
        if registration is not None:
            done.mailed += qualified_record(
                registration=registration, season=season.name, rank=standing.rank, top=top
            )
    if done.registered:
        log_action(
            final,
            Action.QUALIFY,
            season,
            Summary(
                N_("Top %(top)s of %(season)s invited: %(players)s"),
                top=top,
                season=season.name,
                players=done.registered,
            ),
            after={"registered": done.registered, "skipped": [n for n, _ in done.skipped]},
            by=by,
        )
    return done
