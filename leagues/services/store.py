"""Setting a store up from its own pages: the store itself (made by the site's superusers,
who invite its first owner by e-mail), its profile, its leagues and its staff.

One function per use case, each one transaction that locks the store's row first, so two
owners saving at once, or a role change racing a removal, are serialised and the rule "a
store always keeps an owner" is checked against what is stored now. Bad input raises
`LeagueError` with the field and the reason, and nothing is written. A repeated press finds
what the first one did: a second "Create league" from the same form (`entry_key`) returns the
league it made, a second "Invite" to an address with an invitation waiting raises
`StaffAlreadyInvited`, a second "Create the store" within minutes finds the store it made
(`organization_create` returns it with False). Every write records an audit entry for the
store's History page.

The league's rating system is chosen by `ratings` (an app above this one), which calls
`league_create` and sets the system in the same transaction (ratings.league_new).
"""

import logging
import secrets
import zoneinfo
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from audit.services import log_action
from audit.summary import N_, Summary
from core.languages import recipient_language

from ..actions import Action
from ..domain.colour import AccentProblem, accent_clean
from ..domain.images import LogoProblem, logo_check
from ..models import League, Membership, Organization, Role, StaffInvitation
from .claims import ClaimAlreadyDone
from .common import LeagueError, slug_new

log = logging.getLogger(__name__)

NAME_MAX = Organization._meta.get_field("name").max_length
SHORT_NAME_MAX = Organization._meta.get_field("short_name").max_length
ADDRESS_MAX = 300
LEAGUE_NAME_MAX = League._meta.get_field("name").max_length
GAME_LABEL_MAX = League._meta.get_field("game_label").max_length


class StaffAlreadyInvited(ClaimAlreadyDone):
    """An invitation to this address is already waiting (a double press): nothing changed."""


@lru_cache(maxsize=1)
def time_zones() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows, sorted (the profile's choices)."""
    return tuple(sorted(zoneinfo.available_timezones()))


def _role_phrase(role: str) -> Summary:
    """A role's label in a History summary, read in the reader's language: its msgid is the
    label's English (`Role`'s labels are plain `gettext_lazy`)."""
    with translation.override("en"):
        return Summary(str(Role(role).label))


def _lock_store(organization: Organization) -> Organization:
    return Organization.objects.select_for_update().get(pk=organization.pk)


# --- the store itself -------------------------------------------------------------------------

SLUG_MAX = Organization._meta.get_field("slug").max_length
SLUG_SHAPE = _lazy("lower-case letters, digits and hyphens")
TWIN_MINUTES = 10  # a second "Create the store" this soon, same name, same person: a double press


def organization_slug_new(*, name: str) -> str:
    """An unused slug for a new store, made from its name ("goblin-forge-games", then "-2").
    A store's name is on its public page, so numbering against every store tells nothing.
    Call it inside the transaction that saves the store."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('guildhall-store-slug'))")
    base = (slugify(name) or "store")[: SLUG_MAX - 7].strip("-") or "store"
    taken = set(Organization.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    return candidate


@dataclass(frozen=True)
class StoreCreated:
    organization: Organization
    created: bool  # False: a second press found the store the first one made
    invited: "Invited | None"  # the owner's invitation (None: no address given, or pressed twice)


def _slug_clean(slug: str) -> str:
    slug = (slug or "").strip().strip("/").lower()
    if slug.startswith("stores/"):
        slug = slug.removeprefix("stores/")
    if not slug:
        return ""
    if slugify(slug) != slug or len(slug) > SLUG_MAX:
        raise LeagueError(
            _(
                "“%(slug)s” cannot be the store's address: use %(shape)s (goblin-forge), at "
                "most %(max)s characters, or leave it empty."
            )
            % {"slug": slug[:80], "shape": SLUG_SHAPE, "max": SLUG_MAX},
            field="slug",
            code="bad_slug",
        )
    if Organization.objects.filter(slug=slug).exists():
        raise LeagueError(
            _(
                "/stores/%(slug)s/ is another store's address: choose another, or leave it "
                "empty and one is made from the name."
            )
            % {"slug": slug},
            field="slug",
            code="slug_taken",
        )
    return slug


def _store_name_clean(name: str) -> str:
    """A store's name, its spaces folded; refused when empty or too long (the one rule for a
    new store and a renamed one)."""
    name = " ".join((name or "").split())
    if not name:
        raise LeagueError(_("Give the store a name."), field="name", code="empty")
    if len(name) > NAME_MAX:
        raise LeagueError(
            _("A store's name may be %(max)s characters at most; this one is %(length)s.")
            % {"max": NAME_MAX, "length": len(name)},
            field="name",
            code="too_long",
        )
    return name


@transaction.atomic
def organization_create(
    *, name: str, slug: str = "", owner_email: str = "", site_url: str, by
) -> StoreCreated:
    """A new store, made from the site by a superuser, and the invitation of its first owner
    (`owner_email`; none when empty): a one-time link, mailed, that makes whoever accepts it
    the store's owner. Nothing is written when any field is refused."""
    if by is None or not (by.is_active and by.is_superuser):
        raise LeagueError(_("Only the site's administrators create stores."), code="not_superuser")
    name = _store_name_clean(name)
    owner_email = (owner_email or "").strip()
    if owner_email:
        try:
            owner_email = _email_clean(owner_email)
        except LeagueError as error:
            raise LeagueError(error.message, field="owner_email", code=error.code) from None
    with connection.cursor() as cursor:  # two presses at once: the second waits, finds the first
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('guildhall-store-new'), %s)", [by.pk])
    twin = _store_just_created(name=name, by=by)
    if twin is not None:
        return StoreCreated(organization=twin, created=False, invited=None)
    slug = _slug_clean(slug) or organization_slug_new(name=name)
    store = Organization.objects.create(name=name, slug=slug)
    after = {"name": store.name, "slug": store.slug}
    summary = Summary(N_("Store %(store)s created"), store=store.name)
    log_action(store, Action.STORE_CREATE, store, summary, None, after, by)
    invited = None
    if owner_email:
        invited = staff_invite(
            organization=store, email=owner_email, role=Role.OWNER, site_url=site_url, by=by
        )
    return StoreCreated(organization=store, created=True, invited=invited)


def _store_just_created(*, name: str, by) -> Organization | None:
    """The store of this name `by` created in the last minutes (what a double press finds)."""
    since = timezone.now() - timedelta(minutes=TWIN_MINUTES)
    return (
        Organization.objects.filter(
            name__iexact=name,
            created_at__gte=since,
            audit_entries__action=Action.STORE_CREATE,
            audit_entries__actor=by,
        )
        .order_by("-pk")
        .first()
    )


# --- the profile ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogoUpload:
    """A new logo as uploaded: its bytes (checked by the service) and the file's name."""

    data: bytes  # the file, or its first LOGO_MAX_BYTES + 1 bytes when it is bigger
    size: int | None = None  # the whole file's size (None: len(data))


def _profile(organization: Organization) -> dict:
    return {
        "name": organization.name,
        "short_name": organization.short_name,
        "address": organization.address,
        "time_zone": organization.time_zone,
        "logo": organization.logo_version if organization.logo_type else None,
        "accent": organization.accent,
        "language": organization.language,
    }


#: The codes a store's language may be ('' for English: core.languages).
STORE_LANGUAGES = frozenset(code for code, _name in settings.LANGUAGES)


@transaction.atomic
def organization_profile_update(
    *,
    organization: Organization,
    name: str,
    address: str = "",
    time_zone: str = "",
    logo: LogoUpload | None = None,
    logo_remove: bool = False,
    accent: str | None = None,
    short_name: str | None = None,
    language: str | None = None,
    by=None,
) -> Organization:
    """Change the store's name, address, time zone, logo (or remove the logo), accent colour,
    short name and language (None: unchanged; '': Guildhall's own colour, the whole name,
    English). The store's language is what its pages are read in by visitors who chose none,
    and its mails to accounts that chose none (core.languages)."""
    name = _store_name_clean(name)
    if short_name is not None:
        short_name = " ".join(short_name.split())
        if len(short_name) > SHORT_NAME_MAX:
            raise LeagueError(
                _(
                    "A short name may be %(max)s characters at most, to fit a phone's header; "
                    "this one is %(length)s."
                )
                % {"max": SHORT_NAME_MAX, "length": len(short_name)},
                field="short_name",
                code="too_long",
            )
    address = (address or "").strip().replace("\r\n", "\n")
    if len(address) > ADDRESS_MAX:
        raise LeagueError(
            _("The address may be %(max)s characters at most; this one is %(length)s.")
            % {"max": ADDRESS_MAX, "length": len(address)},
            field="address",
            code="too_long",
        )
    time_zone = (time_zone or "").strip()
    if time_zone and time_zone not in time_zones():
        raise LeagueError(
            _("“%(zone)s” is not a time zone: pick one from the list, e.g. Europe/Paris.")
            % {"zone": time_zone[:64]},
            field="time_zone",
            code="unknown_zone",
        )
    if accent is not None:
        try:
            accent = accent_clean(accent)
        except AccentProblem as problem:
            raise LeagueError(str(problem), field="accent", code="unreadable_accent") from None
    if language is not None:
        language = language.strip()
        if language and language not in STORE_LANGUAGES:
            raise LeagueError(
                _(
                    "Language of the store's pages: “%(code)s” is not a language Guildhall "
                    "speaks; pick one from the list."
                )
                % {"code": language[:20]},
                field="language",
                code="unknown_language",
            )
    content_type = None
    if logo is not None:
        try:
            content_type = logo_check(logo.data, logo.size)
        except LogoProblem as problem:
            raise LeagueError(str(problem), field="logo", code="bad_logo") from None

    store = _lock_store(organization)
    before = _profile(store)
    store.name, store.address, store.time_zone = name, address, time_zone
    fields = ["name", "address", "time_zone"]
    if accent is not None:
        store.accent = accent
        fields.append("accent")
    if short_name is not None:
        store.short_name = short_name
        fields.append("short_name")
    if language is not None:
        store.language = language
        fields.append("language")
    if content_type is not None:
        store.logo, store.logo_type = logo.data, content_type
        store.logo_version += 1
        fields += ["logo", "logo_type", "logo_version"]
    elif logo_remove and store.logo_type:
        store.logo, store.logo_type = None, ""
        store.logo_version += 1
        fields += ["logo", "logo_type", "logo_version"]
    after = _profile(store)
    if after == before:
        return store  # nothing changed: no entry
    store.save(update_fields=fields)
    summary = Summary(N_("Profile of %(store)s changed"), store=store.name)
    log_action(store, Action.STORE_PROFILE, store, summary, before, after, by)
    return store


# --- leagues ----------------------------------------------------------------------------------


def league_entry_key_new() -> str:
    """The one-time token a "new league" form carries (see `league_create`)."""
    return secrets.token_urlsafe(24)


@transaction.atomic
def league_create(
    *,
    organization: Organization,
    name: str,
    game_label: str = "",
    is_public: bool = True,
    starts_on: date | None = None,
    ends_on: date | None = None,
    entry_key: str | None = None,
    by=None,
) -> tuple[League, bool]:
    """A new league of the store, and True; or, for a form posted again with the same
    `entry_key`, the league that form already made, and False."""
    name = " ".join((name or "").split())
    if not name:
        raise LeagueError(_("Give the league a name."), field="name", code="empty")
    if len(name) > LEAGUE_NAME_MAX:
        raise LeagueError(
            _("A league's name may be %(max)s characters at most; this one is %(length)s.")
            % {"max": LEAGUE_NAME_MAX, "length": len(name)},
            field="name",
            code="too_long",
        )
    game_label = " ".join((game_label or "").split())
    if len(game_label) > GAME_LABEL_MAX:
        raise LeagueError(
            _("The game / format may be %(max)s characters at most.") % {"max": GAME_LABEL_MAX},
            field="game_label",
            code="too_long",
        )
    if starts_on and ends_on and ends_on < starts_on:
        raise LeagueError(
            _("The league cannot end (%(ends)s) before it starts (%(starts)s).")
            % {"ends": f"{ends_on:%Y-%m-%d}", "starts": f"{starts_on:%Y-%m-%d}"},
            field="ends_on",
            code="ends_before_start",
        )
    entry_key = (entry_key or "")[:64] or None
    store = _lock_store(organization)
    if entry_key is not None:
        made = League.objects.filter(organization=store, entry_key=entry_key).first()
        if made is not None:
            return made, False
    league = League.objects.create(
        organization=store,
        name=name,
        slug=slug_new(
            model=League, organization=store, name=name, scope="organization", fallback="league"
        ),
        game_label=game_label,
        is_public=bool(is_public),
        starts_on=starts_on,
        ends_on=ends_on,
        entry_key=entry_key,
    )
    after = {
        "name": league.name,
        "slug": league.slug,
        "game_label": league.game_label,
        "public": league.is_public,
        "starts_on": starts_on.isoformat() if starts_on else None,
        "ends_on": ends_on.isoformat() if ends_on else None,
    }
    summary = Summary(N_("League %(league)s created"), league=league.name)
    log_action(league, Action.LEAGUE_CREATE, league, summary, None, after, by)
    return league, True


# --- staff ------------------------------------------------------------------------------------


def _role_check(role: str, field: str = "role") -> Role:
    if role not in Role.values:
        labels = ", ".join(str(label) for label in Role.labels)
        raise LeagueError(
            _("Choose a role: %(roles)s.") % {"roles": labels}, field=field, code="unknown_role"
        )
    return Role(role)


def _email_clean(email: str) -> str:
    email = (email or "").strip()
    if not email:
        raise LeagueError(_("Type the e-mail address to invite."), field="email", code="empty")
    try:
        validate_email(email)
    except ValidationError:
        raise LeagueError(
            _("“%(email)s” is not an e-mail address: check what you typed.")
            % {"email": email[:100]},
            field="email",
            code="bad_email",
        ) from None
    return email


@dataclass(frozen=True)
class Invited:
    invitation: StaffInvitation
    link: str  # the one-time link, shown once to the owner and mailed


def invitation_path(token: str, organization: Organization) -> str:
    return reverse("staff_join", kwargs={"org": organization.slug, "token": token})


def _invitation_recipient(email: str):
    """The account behind an invited address, if there is one (its language writes the mail)."""
    return get_user_model().objects.filter(email__iexact=email, is_active=True).first()


def _invitation_mail(*, invitation: StaffInvitation, link: str, store_name: str, by_name: str):
    """Send the invitation in its recipient's language (the account's behind the address,
    else the store's); a mail that cannot go is logged (the owner has the link on screen)."""
    store = invitation.organization
    expires = timezone.localtime(invitation.expires_at, store_time_zone(store))
    user = _invitation_recipient(invitation.email)
    with translation.override(recipient_language(user, store.language)):
        role = invitation.get_role_display()
        values = {
            "by": by_name,
            "store": store_name,
            "role": role,
            "until": f"{expires:%Y-%m-%d %H:%M %Z}",
            "link": link,
        }
        body = (
            _(
                "Hello,\n\n%(by)s invites you to join %(store)s on Guildhall as %(role)s.\n\n"
                "Open this link to accept (log in or sign up first; it works once, until "
                "%(until)s):\n\n%(link)s\n\n"
                "If you did not expect this, ignore this mail: nothing happens until the link "
                "is opened and accepted.\n"
            )
            % values
        )
        subject = _("[Guildhall] Join %(store)s as %(role)s") % values
    try:
        send_mail(subject, body, None, [invitation.email])
    except Exception:  # the mail server said no or is unreachable: the link is on screen
        log.exception("the invitation mail to %s could not be sent", invitation.email)


@transaction.atomic
def staff_invite(
    *, organization: Organization, email: str, role: str, site_url: str, by=None
) -> Invited:
    """Invite `email` to the store's staff as `role`: an invitation with a one-time link,
    mailed once the transaction commits. `site_url` is the address the site was reached at
    ("https://store.example"), so the link leads back to the site that sent it."""
    email = _email_clean(email)
    role = _role_check(role)
    store = _lock_store(organization)
    member = (
        Membership.objects.filter(organization=store, user__email__iexact=email)
        .select_related("user")
        .first()
    )
    if member is not None:
        raise LeagueError(
            _(
                "%(name)s (%(email)s) is already %(role)s of %(store)s: change their role in "
                "the list instead."
            )
            % {
                "name": member.user.get_username(),
                "email": email,
                "role": member.get_role_display(),
                "store": store.name,
            },
            field="email",
            code="already_staff",
        )
    now = timezone.now()
    waiting = StaffInvitation.objects.filter(
        organization=store,
        email__iexact=email,
        accepted_at__isnull=True,
        cancelled_at__isnull=True,
    ).first()
    if waiting is not None and waiting.expires_at > now:
        zone = store_time_zone(store)
        raise StaffAlreadyInvited(
            _(
                "%(email)s was already invited as %(role)s on %(when)s; that link works until "
                "%(until)s. Cancel it to send another."
            )
            % {
                "email": waiting.email,
                "role": waiting.get_role_display(),
                "when": f"{timezone.localtime(waiting.created_at, zone):%Y-%m-%d %H:%M}",
                "until": f"{timezone.localtime(waiting.expires_at, zone):%Y-%m-%d}",
            }
        )
    if waiting is not None:  # expired: it gives way to the new one
        waiting.cancelled_at = now
        waiting.save(update_fields=["cancelled_at"])
    token = secrets.token_urlsafe(32)
    invitation = StaffInvitation.objects.create(
        organization=store,
        email=email,
        role=role,
        key_hash=StaffInvitation.hash_key(token),
        invited_by=by,
        created_at=now,
        expires_at=now + timedelta(days=StaffInvitation.VALID_FOR_DAYS),
    )
    summary = Summary(
        N_("%(email)s invited as %(role)s"), email=email, role=_role_phrase(invitation.role)
    )
    after = {"email": email, "role": role}  # never the link: all managers read the trail
    log_action(store, Action.STAFF_INVITE, invitation, summary, None, after, by)
    link = site_url.rstrip("/") + invitation_path(token, store)
    by_name = by.get_username() if by is not None else store.name
    transaction.on_commit(
        lambda: _invitation_mail(
            invitation=invitation, link=link, store_name=store.name, by_name=by_name
        )
    )
    return Invited(invitation=invitation, link=link)


@transaction.atomic
def invitation_cancel(*, organization: Organization, invitation_id: int, by=None) -> None:
    """Cancel a waiting invitation: its link stops working."""
    store = _lock_store(organization)
    invitation = StaffInvitation.objects.filter(organization=store, pk=invitation_id).first()
    if invitation is None or not invitation.is_open:
        raise ClaimAlreadyDone(_("This invitation is no longer waiting: nothing to cancel."))
    invitation.cancelled_at = timezone.now()
    invitation.save(update_fields=["cancelled_at"])
    summary = Summary(N_("Invitation of %(email)s cancelled"), email=invitation.email)
    before = {"email": invitation.email, "role": invitation.role}
    log_action(store, Action.STAFF_INVITE_CANCEL, invitation, summary, before, None, by)


def invitation_find(*, organization_slug: str, token: str) -> StaffInvitation | None:
    """The invitation behind a link, whatever its state; None for a link that never was."""
    if not token or len(token) > 100:
        return None
    return (
        StaffInvitation.objects.select_related("organization", "invited_by")
        .filter(organization__slug=organization_slug, key_hash=StaffInvitation.hash_key(token))
        .first()
    )


def invitation_problem(invitation: StaffInvitation, user) -> str | None:
    """Why `user` cannot accept `invitation` now, as a sentence; None when they can."""
    if invitation.cancelled_at is not None:
        return _("This invitation was cancelled. Ask the store for a new one.")
    if invitation.accepted_at is not None:
        if invitation.accepted_by_id == user.pk:
            return None  # their own second tap: accepted already, shown as done
        return _("This invitation was already used. Ask the store for a new one.")
    if invitation.is_expired:
        return _("This invitation expired on %(date)s. Ask the store for a new one.") % {
            "date": f"{timezone.localtime(invitation.expires_at):%Y-%m-%d}"
        }
    member = Membership.objects.filter(organization_id=invitation.organization_id, user=user)
    member = member.first()
    if member is not None:
        return _("You are already %(role)s of %(store)s; ask its owner to change your role.") % {
            "role": member.get_role_display(),
            "store": invitation.organization.name,
        }
    return None


@transaction.atomic
def invitation_accept(*, organization_slug: str, token: str, user) -> Membership:
    """`user` accepts the invitation behind the link: they join the store with its role.
    A second tap by the same account raises StaffAlreadyInvited's parent (already done)."""
    found = invitation_find(organization_slug=organization_slug, token=token)
    if found is None:
        raise LeagueError(_("This invitation link is not valid."), field="token", code="unknown")
    store = _lock_store(found.organization)
    invitation = StaffInvitation.objects.select_for_update().get(pk=found.pk)
    invitation.organization = store
    if invitation.accepted_at is not None and invitation.accepted_by_id == user.pk:
        raise ClaimAlreadyDone(_("You already joined %(store)s.") % {"store": store.name})
    problem = invitation_problem(invitation, user)
    if problem:
        raise LeagueError(problem, code="not_acceptable")
    try:
        with transaction.atomic():
            membership = Membership.objects.create(
                organization=store, user=user, role=invitation.role
            )
    except IntegrityError:  # cannot happen under the store lock; said plainly if it does
        raise LeagueError(
            _("You are already on the staff of %(store)s.") % {"store": store.name}
        ) from None
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    summary = Summary(
        N_("%(account)s joined as %(role)s"),
        account=user.get_username(),
        role=_role_phrase(membership.role),
    )
    after = {"account": user.get_username(), "role": membership.role, "email": invitation.email}
    log_action(store, Action.STAFF_JOIN, membership, summary, None, after, user)
    return membership


def _membership_locked(store: Organization, membership_id: int) -> Membership:
    membership = (
        Membership.objects.select_for_update()
        .select_related("user")
        .filter(organization=store, pk=membership_id)
        .first()
    )
    if membership is None:
        raise ClaimAlreadyDone(_("This person is no longer on the store's staff."))
    return membership


def _other_owners(store: Organization, membership: Membership) -> int:
    return (
        Membership.objects.filter(organization=store, role=Role.OWNER)
        .exclude(pk=membership.pk)
        .count()
    )


@transaction.atomic
def staff_role_set(
    *, organization: Organization, membership_id: int, role: str, by=None
) -> Membership:
    """Give a member of the store's staff another role; the last owner stays an owner."""
    role = _role_check(role)
    store = _lock_store(organization)
    membership = _membership_locked(store, membership_id)
    name = membership.user.get_username()
    if membership.role == role:
        raise ClaimAlreadyDone(
            _("%(name)s is already %(role)s.")
            % {"name": name, "role": membership.get_role_display()}
        )
    if membership.role == Role.OWNER and not _other_owners(store, membership):
        raise LeagueError(
            _(
                "%(name)s is the store's only owner: make someone else owner first, so the "
                "store always has one."
            )
            % {"name": name},
            field="role",
            code="last_owner",
        )
    before = membership.role
    membership.role = role
    membership.save(update_fields=["role"])
    summary = Summary(N_("%(account)s is now %(role)s"), account=name, role=_role_phrase(role))
    old, new = {"account": name, "role": before}, {"account": name, "role": role}
    log_action(store, Action.STAFF_ROLE, membership, summary, old, new, by)
    return membership


@transaction.atomic
def staff_remove(*, organization: Organization, membership_id: int, by=None) -> str:
    """Take someone off the store's staff (their account stays); never the last owner.
    Returns their username."""
    store = _lock_store(organization)
    membership = _membership_locked(store, membership_id)
    name = membership.user.get_username()
    if membership.role == Role.OWNER and not _other_owners(store, membership):
        raise LeagueError(
            _(
                "%(name)s is the store's only owner and cannot be removed: make someone else "
                "owner first."
            )
            % {"name": name},
            code="last_owner",
        )
    before = {"account": name, "role": membership.role}
    pk = membership.pk
    membership.delete()
    summary = Summary(N_("%(account)s removed from the staff"), account=name)
    log_action(store, Action.STAFF_REMOVE, ("membership", pk), summary, before, None, by)
    return name


def store_time_zone(organization: Organization) -> zoneinfo.ZoneInfo:
    """The store's time zone as an object (the site's when it chose none or an unknown one)."""
    try:
        return zoneinfo.ZoneInfo(organization.time_zone or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo(settings.TIME_ZONE)
