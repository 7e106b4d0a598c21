"""Writes of an achievement league: its achievements and points, a player's claim after a
game, a podmate's answer, the organizer's award and settling. Each is one transaction filed
in the History (`audit.services.log_action`, under the league).

A claim locks the player's row first (`select_for_update`): two taps, or two phones, of one
player are serialised, so the frequency rule (`domain.scoring.frequency_conflict`, over the
claims the player holds: waiting, disputed, confirmed) sees the first claim when it checks
the second; the partial unique constraint `claim_once_per_game` makes "never twice in one
game" true in the database as well. A claim, a confirmation, a decline and a withdrawal are
the player's own and only at a game they played; a player sends at most `CLAIM_LIMIT`
claims in `CLAIM_WINDOW` (`RateLimited`, 429). Repeating what is already done changes
nothing and says so (`AlreadyDone`); a claim no longer open to the tap is a conflict
(`ClaimClosed`, 409) naming what it is now.
"""

from datetime import date, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from audit.actors import acting_user
from audit.services import log_action
from audit.summary import N_, Day, Nn_, Summary
from core.errors import ConflictError, DomainError
from leagues.models import Game, GameResult, League, Player
from seasons.models import Season

from .actions import Action
from .domain import scoring as domain
from .domain.scoring import AchievementError, FrequencyRefused, Held, Per
from .models import Achievement, Claim, Scoring

CLAIM_LIMIT = 8  # claims a player sends in CLAIM_WINDOW: a night's achievements fit
CLAIM_WINDOW = timedelta(minutes=10)


class AlreadyDone(DomainError):
    """A repeated tap: nothing changed."""

    default_code = "already_done"


class ClaimClosed(ConflictError):
    default_code = "claim_closed"


class RateLimited(DomainError):
    status = 429
    default_code = "rate_limited"


# -- The organizers' definitions --------------------------------------------------------------


def _achievement_data(a: Achievement) -> dict:
    return {
        "name": a.name,
        "description": a.description,
        "points": a.points,
        "how often": domain.RULES[Per(a.per)],  # English: the History translates it (actions)
        "active": a.active,
    }


@transaction.atomic
def achievement_save(
    *,
    league: League,
    name: str,
    points: int,
    per: str,
    description: str = "",
    active: bool = True,
    achievement: Achievement | None = None,
    by=None,
) -> Achievement:
    """Add an achievement to the league, or change one (retire it: `active=False`)."""
    domain.achievement_check(name=name, points=points, per=per)
    League.objects.select_for_update().filter(pk=league.pk).exists()
    taken = Achievement.objects.filter(league=league, name__iexact=name.strip())
    if achievement is not None:
        taken = taken.exclude(pk=achievement.pk)
    if taken.exists():
        raise AchievementError(
            code="name_taken",
            field="name",
            message=_("%(league)s already has an achievement %(name)s.")
            % {"league": league.name, "name": repr(name.strip())},
        )
    fields = {
        "name": name.strip(),
        "description": description.strip(),
        "points": points,
        "per": per,
        "active": active,
    }
    if achievement is None:
        achievement = Achievement.objects.create(league=league, **fields)
        log_action(
            league,
            Action.ACHIEVEMENT_CREATE,
            achievement,
            Summary(
                Nn_(
                    "Achievement %(achievement)s added (%(n)s point, %(rule)s)",
                    "Achievement %(achievement)s added (%(n)s points, %(rule)s)",
                ),
                achievement=achievement.name,
                n=achievement.points,
                rule=Summary(domain.RULES[Per(achievement.per)]),  # the model's label's msgid
            ),
            after=_achievement_data(achievement),
            by=by,
        )
        return achievement
    achievement = Achievement.objects.select_for_update().get(pk=achievement.pk, league=league)
    before = _achievement_data(achievement)
    for key, value in fields.items():
        setattr(achievement, key, value)
    achievement.save()
    after = _achievement_data(achievement)
    if after != before:
        what = (
            N_("Achievement %(achievement)s retired")
            if before["active"] and not active
            else N_("Achievement %(achievement)s changed")
        )
        log_action(
            league,
            Action.ACHIEVEMENT_CHANGE,
            achievement,
            Summary(what, achievement=achievement.name),
            before=before,
            after=after,
            by=by,
        )
    return achievement


def scoring_of(league: League) -> domain.Scoring:
    row = Scoring.objects.filter(league=league).first()
    if row is None:
        return domain.Scoring()
    return domain.Scoring(per_game=row.per_game, placings=tuple(row.placings))


@transaction.atomic
def scoring_set(*, league: League, per_game: int, placings: list[int], by=None) -> Scoring:
    """The points the league pays besides its achievements (checked by `domain.Scoring`)."""
    domain.Scoring(per_game=per_game, placings=tuple(placings))
    League.objects.select_for_update().filter(pk=league.pk).exists()
    row, _created = Scoring.objects.get_or_create(league=league)
    before = {"per game": row.per_game, "by placing": list(row.placings)}
    row.per_game, row.placings = per_game, list(placings)
    row.save()
    after = {"per game": row.per_game, "by placing": list(row.placings)}
    if after != before:
        log_action(
            league,
            Action.SCORING_CHANGE,
            row,
            Summary(
                N_("Points per game %(per_game)s, by placing %(placings)s"),
                per_game=per_game,
                placings=list(placings) or Summary(N_("none")),
            ),
            before=before,
            after=after,
            by=by,
        )
    return row


# -- Claims -----------------------------------------------------------------------------------


def _seasons(league_id: int) -> list[domain.SeasonDates]:
    return [
        domain.SeasonDates(pk, start, end)
        for pk, start, end in Season.objects.filter(league_id=league_id).values_list(
            "pk", "starts_on", "ends_on"
        )
    ]


def _held(achievement: Achievement, player: Player) -> list[Held]:
    rows = Claim.objects.filter(
        achievement=achievement, player=player, status__in=Claim.HELD
    ).values_list("pk", "game_id", "night")
    return [Held(achievement.pk, player.pk, game, night, pk) for pk, game, night in rows]


def _shown_day(value: date) -> str:
    """The day in a message, in the reader's language."""
    return date_format(value, "GH_DAY_SHORT")


def _check_frequency(achievement: Achievement, player: Player, game_id, night: date) -> None:
    new = Held(achievement.pk, player.pk, game_id, night)
    found = domain.frequency_conflict(
        achievement.per, new, _held(achievement, player), _seasons(achievement.league_id)
    )
    if found is None:
        return
    names = {
        "achievement": achievement.name,
        "rule": achievement.rule,
        "player": player.name,
        "day": _shown_day(found.night),
    }
    if found.game is None:
        text = _(
            "%(achievement)s is earned %(rule)s: %(player)s already holds it for %(day)s "
            "(an award)."
        )
    elif found.game == game_id and game_id:
        text = _("%(achievement)s is earned %(rule)s: %(player)s already holds it for this game.")
    else:
        text = _(
            "%(achievement)s is earned %(rule)s: %(player)s already holds it for the game of "
            "%(day)s."
        )
    raise FrequencyRefused(code="frequency", field="achievement", message=text % names)


def _lock_player(player: Player) -> Player:
    return Player.objects.select_for_update().get(pk=player.pk)


def _check_rate(player: Player) -> None:
    recent = Claim.objects.filter(
        player=player,
        source=Claim.Source.CLAIM,
        created_at__gte=timezone.now() - CLAIM_WINDOW,
    ).count()
    if recent >= CLAIM_LIMIT:
        minutes = int(CLAIM_WINDOW.total_seconds() // 60)
        raise RateLimited(
            message=_(
                "That is %(count)s claims from you in %(minutes)s minutes: wait a little, or "
                "ask the organizer."
            )
            % {"count": recent, "minutes": minutes}
        )


def _pod(game: Game) -> dict[int, str]:
    return dict(GameResult.objects.filter(game=game).values_list("player_id", "player__name"))


def _claim_data(claim: Claim) -> dict:
    return {
        "achievement": claim.achievement.name,
        "points": claim.achievement.points,
        "player": claim.player.name,
        "night": claim.night.isoformat(),
        "game": claim.game_id,
        "status": claim.status,  # the code: the History labels it in its reader's language
    }


def _log(claim: Claim, action: str, summary: Summary, *, before=None, by=None) -> None:
    log_action(
        claim.achievement.league,
        action,
        claim,
        summary,
        before=before,
        after=_claim_data(claim),
        by=by,
    )


@transaction.atomic
def claim_submit(*, game: Game, player: Player, achievement: Achievement, by=None) -> Claim:
    """`player` claims `achievement` in `game`, which they played; a podmate confirms it."""
    player = _lock_player(player)
    achievement = Achievement.objects.select_related("league").get(pk=achievement.pk)
    if achievement.league_id != game.league_id:
        raise AchievementError(
            code="other_league",
            field="achievement",
            message=_("That achievement is not this league's."),
        )
    if not achievement.active:
        raise AchievementError(
            code="retired",
            field="achievement",
            message=_("%(achievement)s is retired: it is no longer earned.")
            % {"achievement": achievement.name},
        )
    pod = _pod(game)
    if player.pk not in pod:
        raise AchievementError(
            code="not_in_game",
            field="game",
            message=_("You did not play this game: claim achievements in your own games."),
        )
    if len(pod) < 2:
        raise AchievementError(
            code="no_podmate",
            field="game",
            message=_("Nobody else played this game to confirm it."),
        )
    same = Claim.objects.filter(
        achievement=achievement, player=player, game=game, status__in=Claim.HELD
    ).first()
    if same is not None:
        raise AlreadyDone(
            message=_("You already claimed %(achievement)s for this game (%(status)s).")
            % {"achievement": achievement.name, "status": same.get_status_display()}
        )
    _check_rate(player)
    _check_frequency(achievement, player, game.pk, game.played_on)
    claim = Claim.objects.create(
        achievement=achievement,
        player=player,
        game=game,
        night=game.played_on,
        user=acting_user(by),
    )
    _log(
        claim,
        Action.CLAIM,
        Summary(
            N_("%(player)s claimed %(achievement)s (%(points)s) in the game of %(day)s"),
            player=player.name,
            achievement=achievement.name,
            points=achievement.points,
            day=Day(game.played_on),
        ),
        by=by,
    )
    return claim


def _lock_claim(claim: Claim | int) -> Claim:
    """Lock the claim's row, then read it with its relations. Two queries: a row locked
    after waiting is re-read by PostgreSQL, but not the rows joined to it (a podmate who
    answered meanwhile would read as nobody)."""
    pk = claim if isinstance(claim, int) else claim.pk
    list(Claim.objects.select_for_update().filter(pk=pk).values_list("pk"))
    return Claim.objects.select_related("achievement__league", "player", "answered_by").get(pk=pk)


def _answer(claim: Claim, podmate: Player, *, confirm: bool, by=None) -> Claim:
    claim = _lock_claim(claim)
    if claim.player_id == podmate.pk:
        raise AchievementError(
            code="own_claim",
            message=_(
                "You cannot confirm or decline your own claim: another player of your pod does."
            ),
        )
    if claim.game_id is None or podmate.pk not in _pod(claim.game):
        raise AchievementError(
            code="not_podmate",
            message=_("Only a player of the same game confirms or declines a claim."),
        )
    wanted = Claim.Status.CONFIRMED if confirm else Claim.Status.DISPUTED
    if claim.status != Claim.Status.PENDING:
        if claim.status == wanted and claim.answered_by_id == podmate.pk:
            raise AlreadyDone(
                message=_("You already confirmed it.") if confirm else _("You already declined it.")
            )
        names = {
            "player": claim.player.name,
            "achievement": claim.achievement.name,
            "status": claim.get_status_display(),
        }
        if claim.answered_by_id and claim.status != Claim.Status.WITHDRAWN:
            text = _("%(player)s's %(achievement)s is no longer waiting: %(status)s by %(by)s.")
            names["by"] = claim.answered_by.name
        else:
            text = _("%(player)s's %(achievement)s is no longer waiting: %(status)s.")
        raise ClaimClosed(message=text % names)
    before = _claim_data(claim)
    claim.status = wanted
    claim.answered_by, claim.answered_at = podmate, timezone.now()
    claim.save(update_fields=["status", "answered_by", "answered_at"])
    _log(
        claim,
        Action.CONFIRM if confirm else Action.DECLINE,
        Summary(
            N_("%(podmate)s confirmed %(player)s's %(achievement)s")
            if confirm
            else N_("%(podmate)s declined %(player)s's %(achievement)s"),
            podmate=podmate.name,
            player=claim.player.name,
            achievement=claim.achievement.name,
        ),
        before=before,
        by=by,
    )
    return claim


@transaction.atomic
def claim_confirm(*, claim: Claim | int, podmate: Player, by=None) -> Claim:
    """A player of the same game confirms the claim: it counts."""
    return _answer(claim, podmate, confirm=True, by=by)


@transaction.atomic
def claim_decline(*, claim: Claim | int, podmate: Player, by=None) -> Claim:
    """A player of the same game says no: the claim is disputed, for the organizer."""
    return _answer(claim, podmate, confirm=False, by=by)


@transaction.atomic
def claim_withdraw(*, claim: Claim | int, player: Player, by=None) -> Claim:
    """The claimer takes back a claim not yet confirmed."""
    claim = _lock_claim(claim)
    if claim.player_id != player.pk:
        raise AchievementError(code="not_yours", message=_("Only its claimer withdraws a claim."))
    if claim.status == Claim.Status.WITHDRAWN:
        raise AlreadyDone(message=_("You already withdrew it."))
    if claim.status not in (Claim.Status.PENDING, Claim.Status.DISPUTED):
        # Confirmed or refused: a sentence each (a state put into one agrees with nothing).
        raise ClaimClosed(
            message=_("It is confirmed: ask the organizer to change it.")
            if claim.status == Claim.Status.CONFIRMED
            else _("The organizer refused it: ask the organizer to change it.")
        )
    before = _claim_data(claim)
    claim.status = Claim.Status.WITHDRAWN
    claim.save(update_fields=["status"])
    _log(
        claim,
        Action.WITHDRAW,
        Summary(
            N_("%(player)s withdrew their claim of %(achievement)s"),
            player=player.name,
            achievement=claim.achievement.name,
        ),
        before=before,
        by=by,
    )
    return claim


@transaction.atomic
def claim_settle(*, claim: Claim | int, accept: bool, by=None) -> Claim:
    """The organizer decides a waiting or disputed claim: it counts, or it is refused. A
    claim they refused may be accepted later (and the other way round), once settled."""
    claim = _lock_claim(claim)
    wanted = Claim.Status.CONFIRMED if accept else Claim.Status.REJECTED
    if claim.status == wanted and claim.decided_at is not None:
        raise AlreadyDone(
            message=_("It already counts.") if accept else _("It is already refused.")
        )
    if claim.status == Claim.Status.WITHDRAWN:
        raise ClaimClosed(message=_("Its claimer withdrew it: nothing to settle."))
    if accept and claim.status == Claim.Status.REJECTED:
        # It comes back: the frequency rule applies as to a new claim.
        _lock_player(claim.player)
        _check_frequency_except(claim)
    before = _claim_data(claim)
    claim.status = wanted
    claim.decided_by, claim.decided_at = acting_user(by), timezone.now()
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    _log(
        claim,
        Action.SETTLE,
        Summary(
            N_("%(player)s's %(achievement)s accepted by the organizer")
            if accept
            else N_("%(player)s's %(achievement)s refused by the organizer"),
            player=claim.player.name,
            achievement=claim.achievement.name,
        ),
        before=before,
        by=by,
    )
    return claim


def _check_frequency_except(claim: Claim) -> None:
    new = Held(claim.achievement_id, claim.player_id, claim.game_id, claim.night, claim.pk)
    found = domain.frequency_conflict(
        claim.achievement.per,
        new,
        _held(claim.achievement, claim.player),
        _seasons(claim.achievement.league_id),
    )
    if found is not None:
        raise FrequencyRefused(
            message=_(
                "%(achievement)s is earned %(rule)s: %(player)s already holds it for %(day)s."
            )
            % {
                "achievement": claim.achievement.name,
                "rule": claim.achievement.rule,
                "player": claim.player.name,
                "day": _shown_day(found.night),
            }
        )


@transaction.atomic
def award(
    *,
    league: League,
    player: Player,
    achievement: Achievement,
    game: Game | None = None,
    night: date | None = None,
    by=None,
) -> Claim:
    """The organizer (or a TO) gives `player` the achievement, in `game` or on `night`: it
    counts at once. A claim of the same game still waiting or disputed is accepted instead
    (never two claims for one game)."""
    player = _lock_player(player)
    achievement = Achievement.objects.select_related("league").get(pk=achievement.pk)
    if achievement.league_id != league.pk or player.organization_id != league.organization_id:
        raise AchievementError(
            code="other_league", message=_("That achievement or player is not this league's.")
        )
    if not achievement.active:
        raise AchievementError(
            code="retired",
            field="achievement",
            message=_("%(achievement)s is retired: it is no longer earned.")
            % {"achievement": achievement.name},
        )
    if game is not None:
        if game.league_id != league.pk or player.pk not in _pod(game):
            raise AchievementError(
                code="not_in_game",
                field="game",
                message=_("%(player)s did not play that game.") % {"player": player.name},
            )
        night = game.played_on
    if night is None:
        raise AchievementError(code="no_night", field="night", message=_("Say which night."))
    if achievement.per == Per.GAME and game is None:
        raise AchievementError(
            code="game_needed",
            field="game",
            message=_("%(achievement)s is earned once per game: choose the game.")
            % {"achievement": achievement.name},
        )
    if game is not None:
        same = Claim.objects.filter(
            achievement=achievement, player=player, game=game, status__in=Claim.HELD
        ).first()
        if same is not None and same.status == Claim.Status.CONFIRMED:
            raise AlreadyDone(
                message=_("%(player)s already has %(achievement)s for that game.")
                % {"player": player.name, "achievement": achievement.name}
            )
        if same is not None:
            return claim_settle(claim=same, accept=True, by=by)
    _check_frequency(achievement, player, game.pk if game else None, night)
    now = timezone.now()
    claim = Claim.objects.create(
        achievement=achievement,
        player=player,
        game=game,
        night=night,
        source=Claim.Source.AWARD,
        status=Claim.Status.CONFIRMED,
        user=acting_user(by),
        decided_by=acting_user(by),
        decided_at=now,
    )
    _log(
        claim,
        Action.AWARD,
        Summary(
            N_("%(achievement)s (%(points)s) awarded to %(player)s for %(day)s"),
            achievement=achievement.name,
            points=achievement.points,
            player=player.name,
            day=Day(night),
        ),
        by=by,
    )
    return claim
