"""Linking a person's account to a store's player: a claim the store approves, or a one-time
claim code the store hands out.

An account is at most one player of a store (the `player_one_per_account_per_org` constraint)
and may be players of several stores. Every write locks the player row first, so two claims,
two approvals or a code entered twice at once serialise; the loser is told what happened and
nothing more is written. Each write records an audit entry for the store.
"""

import secrets

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from audit.services import log_action
from audit.summary import N_, Summary

from ..actions import Action
from ..models import ClaimCode, Player, PlayerClaim
from ..permissions import player_is_visible
from .common import LeagueError
from .players import LookAlikeNames, player_name_clean, players_find, players_look_alike

# No 0/O, 1/I/L: a code is read off a slip of paper or a phone screen and typed on another.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


class ClaimAlreadyDone(LeagueError):
    """The claim, approval or code was already done (a double tap): nothing changed."""

    default_code = "already_done"


def code_format(code: str) -> str:
    """ABCD-EFGH: how a code is shown."""
    return f"{code[:4]}-{code[4:]}"


def code_clean(raw: str) -> str:
    """A typed code as stored: capitals, without spaces or dashes; refused when it cannot be one."""
    code = "".join(ch for ch in (raw or "").upper() if ch not in " -\t")
    if not code:
        raise LeagueError(_("Type the claim code the store gave you."), field="code", code="empty")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        raise LeagueError(
            _(
                "A claim code is %(code_length)s letters and digits, like ABCD-EF23: "
                "check what you typed."
            )
            % {"code_length": CODE_LENGTH},
            field="code",
            code="malformed",
        )
    return code


def _lock_player(player_id: int) -> Player:
    return Player.objects.select_for_update().select_related("organization").get(pk=player_id)


def _may_link(*, player: Player, user) -> None:
    """Refuse linking `user` to `player` when either is already linked in that store."""
    if player.user_id == user.pk:
        raise ClaimAlreadyDone(
            _("%(name)s is already your player at %(store)s.")
            % {"name": player.name, "store": player.organization}
        )
    if player.user_id is not None:
        raise LeagueError(
            _("%(name)s is already linked to another account. If that is wrong, ask %(store)s.")
            % {"name": player.name, "store": player.organization},
            code="claimed",
        )
    other = (
        Player.objects.filter(organization_id=player.organization_id, user=user)
        .exclude(pk=player.pk)
        .first()
    )
    if other is not None:
        raise LeagueError(
            _("Your account is already %(name)s at %(store)s: one account is one player per store.")
            % {"name": other.name, "store": player.organization},
            code="one_per_store",
        )


def _link(*, player: Player, user) -> None:
    player.user = user
    # The store made this link (approved the claim, or handed out the code): it vouches for
    # the account, which may see its private leagues (leagues.permissions).
    player.sees_private_leagues = True
    try:
        with transaction.atomic():
            player.save(update_fields=["user", "sees_private_leagues"])
    except IntegrityError:  # another player of this store was linked to the account meanwhile
        raise LeagueError(
            _("Your account is already a player of %(store)s.") % {"store": player.organization},
            code="one_per_store",
        ) from None


@transaction.atomic
def claim_request(*, user, player: Player) -> PlayerClaim:
    """`user` says they are `player`: a claim waits for the store's organizer."""
    player = _lock_player(player.pk)
    _may_link(player=player, user=user)
    waiting = PlayerClaim.objects.filter(
        player=player, user=user, status=PlayerClaim.Status.PENDING
    ).first()
    if waiting is not None:
        raise ClaimAlreadyDone(
            _("Your claim to be %(name)s is already waiting for %(store)s.")
            % {"name": player.name, "store": player.organization}
        )
    claim = PlayerClaim.objects.create(player=player, user=user)
    summary = Summary(
        N_("%(account)s says they are %(player)s"),
        account=user.get_username(),
        player=player.name,
    )
    after = {"claim": claim.pk, "account": user.get_username()}
    log_action(player, Action.CLAIM_REQUEST, player, summary, None, after, user)
    return claim


@transaction.atomic
def claim_decide(*, by, claim: PlayerClaim, approve: bool) -> PlayerClaim:
    """The organizer's answer. Approving links the player and refuses the player's other
    waiting claims (someone else said they were this player)."""
    player = _lock_player(claim.player_id)
    claim = PlayerClaim.objects.select_for_update().select_related("user").get(pk=claim.pk)
    if claim.status != PlayerClaim.Status.PENDING:
        raise ClaimAlreadyDone(
            _("This claim was already answered: %(status)s.")
            % {"status": claim.get_status_display().lower()}
        )
    now = timezone.now()
    if approve:
        if player.user_id is not None and player.user_id != claim.user_id:
            raise LeagueError(
                _(
                    "%(name)s is already linked to another account; refuse this claim, or "
                    "unlink the player in the admin first."
                )
                % {"name": player.name},
                code="claimed",
            )
        if player.user_id is None:
            _may_link(player=player, user=claim.user)
            _link(player=player, user=claim.user)
        claim.status = PlayerClaim.Status.APPROVED
        others = PlayerClaim.objects.filter(
            player=player, status=PlayerClaim.Status.PENDING
        ).exclude(pk=claim.pk)
        others.update(status=PlayerClaim.Status.REFUSED, decided_by=by, decided_at=now)
    else:
        claim.status = PlayerClaim.Status.REFUSED
    claim.decided_by = by
    claim.decided_at = now
    claim.save(update_fields=["status", "decided_by", "decided_at"])
    action = Action.CLAIM_APPROVE if approve else Action.CLAIM_REFUSE
    summary = Summary(
        N_("%(account)s's claim to be %(player)s approved")
        if approve
        else N_("%(account)s's claim to be %(player)s refused"),
        account=claim.user.get_username(),
        player=player.name,
    )
    after = {"claim": claim.pk, "account": claim.user.get_username(), "status": claim.status}
    log_action(player, action, player, summary, None, after, by)
    return claim


@transaction.atomic
def claim_code_issue(*, by, player: Player) -> ClaimCode:
    """A new one-time code for `player`, replacing their unused one (a lost slip stops working)."""
    player = _lock_player(player.pk)
    if player.user_id is not None:
        raise LeagueError(
            _("%(name)s is already linked to an account: no code is needed.")
            % {"name": player.name},
            code="claimed",
        )
    ClaimCode.objects.filter(player=player, used_at__isnull=True).delete()
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _i in range(CODE_LENGTH))
        if not ClaimCode.objects.filter(code=code).exists():
            break
    issued = ClaimCode.objects.create(player=player, code=code, created_by=by)
    after = {"code_id": issued.pk}  # never the code itself: the trail is read by all managers
    summary = Summary(N_("Claim code made for %(player)s"), player=player.name)
    log_action(player, Action.CLAIM_CODE_ISSUE, player, summary, None, after, by)
    return issued


@transaction.atomic
def claim_with_code(*, user, code: str) -> Player:
    """`user` types the code the store gave them: their account becomes that player."""
    code = code_clean(code)
    found = ClaimCode.objects.filter(code=code).values_list("player_id", flat=True).first()
    if found is None:
        raise LeagueError(
            _("No player has this claim code. Check it, or ask the store for a new one."),
            field="code",
            code="unknown",
        )
    player = _lock_player(found)
    # Read again under the player's lock: a new code made meanwhile deleted this one.
    issued = ClaimCode.objects.select_for_update().filter(code=code).first()
    if issued is None:
        raise LeagueError(
            _("This claim code was replaced by a newer one. Ask the store for it."),
            field="code",
            code="unknown",
        )
    if issued.used_at is not None:
        if issued.used_by_id == user.pk:
            raise ClaimAlreadyDone(
                _("You are already %(name)s at %(store)s.")
                % {"name": player.name, "store": player.organization}
            )
        raise LeagueError(
            _("This claim code was already used. Ask the store for a new one."),
            field="code",
            code="used",
        )
    try:
        _may_link(player=player, user=user)
    except LeagueError as error:
        error.field = error.field or "code"
        raise
    _link(player=player, user=user)
    issued.used_at = timezone.now()
    issued.used_by = user
    issued.save(update_fields=["used_at", "used_by"])
    PlayerClaim.objects.filter(player=player, status=PlayerClaim.Status.PENDING).update(
        status=PlayerClaim.Status.REFUSED, decided_at=issued.used_at
    )
    summary = Summary(
        N_("%(account)s is %(player)s (claim code)"),
        account=user.get_username(),
        player=player.name,
    )
    after = {"code_id": issued.pk, "account": user.get_username()}
    log_action(player, Action.CLAIM_CODE_USE, player, summary, None, after, user)
    return player


def _name_taken(*, user, organization, existing: Player | None) -> LeagueError:
    """The refusal of a name the store has. It names the player only when `user` may see
    them; a player seen only in a private league is not confirmed (nor their spelling)."""
    if existing is not None and player_is_visible(user, existing):
        message = _(
            "%(store)s already has a player named %(name)s. If that is you, open your page "
            "from the league's standings and press “This is me”, or ask the store for a claim "
            "code; if not, add something that tells you apart (a last initial)."
        ) % {"store": organization, "name": existing.name}
    else:
        message = _(
            "This name cannot be used at %(store)s: add something that tells you apart (a last "
            "initial, say). If the store already knows you under this name, ask it for a claim "
            "code."
        ) % {"store": organization}
    return LeagueError(message, field="name", code="name_taken")


def _look_alike_check(*, user, organization, name: str, confirmed: bool) -> None:
    """A name that reads like a player the store has: the person confirms they are someone
    else, when they may see that player; a player they may not see is not confirmed to
    exist, so the name is refused the way a taken name is."""
    pairs = players_look_alike(organization=organization, names=[name])
    if not pairs:
        return
    similar = players_find(organization=organization, names=[pairs[name]]).get(pairs[name].lower())
    if similar is None or not player_is_visible(user, similar):
        raise _name_taken(user=user, organization=organization, existing=similar)
    if confirmed:
        return
    raise LookAlikeNames(
        pairs=pairs,
        message=(
            _(
                '"%(name)s" reads like %(similar)s, a player of %(store)s (a letter from '
                "another alphabet, or a look-alike character). If that is you, press "
                "“This is me” on your page in the league's standings; if you are someone "
                "else, check “My name only looks like another player's” and register "
                "again."
            )
            % {"name": name, "similar": similar.name, "store": organization}
        ),
    )


@transaction.atomic
def player_join(*, user, organization, name: str, look_alike_confirmed: bool = False) -> Player:
    """A new player of `organization`, named `name`, linked to `user`'s account at once: for
    someone new to the store. A name the store already has is refused (that player is
    claimed, not made twice), as is an account that already is one of the store's players;
    a name that reads like one needs `look_alike_confirmed` (players_new_check's rule)."""
    name = player_name_clean(name)
    existing = players_find(organization=organization, names=[name]).get(name.lower())
    if existing is not None:
        raise _name_taken(user=user, organization=organization, existing=existing)
    mine = Player.objects.filter(organization=organization, user=user).first()
    if mine is not None:
        raise ClaimAlreadyDone(
            _("You are already %(name)s at %(store)s.") % {"name": mine.name, "store": organization}
        )
    _look_alike_check(
        user=user, organization=organization, name=name, confirmed=look_alike_confirmed
    )
    try:
        with transaction.atomic():
            # Anyone may join a public event: the store does not know who this is yet, so
            # the account sees none of its private leagues (leagues.permissions).
            player = Player.objects.create(
                organization=organization, name=name, user=user, sees_private_leagues=False
            )
    except IntegrityError:  # the same name or account, by a request that just committed
        raise LeagueError(
            _(
                "%(store)s already has this player, or your account is one of its "
                "players: reload the page."
            )
            % {"store": organization},
            field="name",
            code="name_taken",
        ) from None
    summary = Summary(
        N_("%(account)s joined as %(player)s"), account=user.get_username(), player=player.name
    )
    after = {"account": user.get_username(), "name": player.name}
    log_action(player, Action.PLAYER_JOIN, player, summary, None, after, user)
    return player
