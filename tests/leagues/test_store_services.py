"""A store set up without the admin: the services behind its pages (leagues.services.store
and ratings.setup). Bad input names its field and writes nothing; a repeated press does
what the first one did and nothing more; a store always keeps an owner."""

import pytest
from django.core import mail

from audit.models import AuditEntry
from leagues import services
from leagues.models import League, Membership, Organization, Role, StaffInvitation
from ratings.domain.base import ParamError
from ratings.models import LeagueRating
from ratings.setup import league_create_rated
from tests.factories import LeagueFactory, UserFactory, organizer_of
from tests.leagues.domain.test_images import GIF_5X7, png

pytestmark = pytest.mark.django_db
SITE = "http://shop.example:31080"


@pytest.fixture
def owner(organization):
    return organizer_of(organization, role=Role.OWNER, username="owen")


def rows() -> dict:
    return {
        "leagues": League.objects.count(),
        "ratings": LeagueRating.objects.count(),
        "members": list(Membership.objects.order_by("pk").values_list("user_id", "role")),
        "invitations": StaffInvitation.objects.count(),
        "audit": AuditEntry.objects.count(),
        "stores": list(
            Organization.objects.values_list("name", "address", "time_zone", "logo_version")
        ),
    }


# --- the profile ------------------------------------------------------------------------------


def test_profile_saves_name_address_zone_and_logo(organization, owner):
    services.organization_profile_update(
        organization=organization,
        name="  Dragon's   Den Games ",
        address="12 High Street\r\nLeeds",
        time_zone="Europe/London",
        logo=services.LogoUpload(data=png(3, 2)),
        by=owner,
    )
    organization.refresh_from_db()
    assert organization.name == "Dragon's Den Games"
    assert organization.address == "12 High Street\nLeeds"
    assert organization.time_zone == "Europe/London"
    assert bytes(organization.logo) == png(3, 2)
    assert (organization.logo_type, organization.logo_version) == ("image/png", 1)
    entry = AuditEntry.objects.get(action="store.profile")
    assert entry.before["name"] == "Dragon's Den" and entry.after["time_zone"] == "Europe/London"
    # The same again changes nothing and records nothing.
    services.organization_profile_update(
        organization=organization,
        name="Dragon's Den Games",
        address="12 High Street\nLeeds",
        time_zone="Europe/London",
        by=owner,
    )
    assert AuditEntry.objects.filter(action="store.profile").count() == 1


def test_a_new_logo_replaces_and_removing_clears(organization, owner):
    for data in (png(3, 2), GIF_5X7):
        services.organization_profile_update(
            organization=organization,
            name=organization.name,
            logo=services.LogoUpload(data=data),
            by=owner,
        )
    organization.refresh_from_db()
    assert (organization.logo_type, organization.logo_version) == ("image/gif", 2)
    services.organization_profile_update(
        organization=organization, name=organization.name, logo_remove=True, by=owner
    )
    organization.refresh_from_db()
    assert organization.logo is None and organization.logo_type == ""
    assert organization.logo_version == 3  # a cached copy of the old logo is not reused


@pytest.mark.parametrize(
    ("changes", "field", "says"),
    [
        ({"name": "   "}, "name", "Give the store a name"),
        ({"name": "x" * 121}, "name", "120 characters at most; this one is 121"),
        ({"address": "a" * 301}, "address", "300 characters at most"),
        ({"time_zone": "Mars/Olympus"}, "time_zone", "“Mars/Olympus” is not a time zone"),
        ({"logo": services.LogoUpload(data=b"<svg/>")}, "logo", "SVG is not accepted"),
        ({"logo": services.LogoUpload(data=png(9000, 9))}, "logo", "9000 x 9 pixels"),
    ],
)
def test_bad_profile_input_names_the_field_and_changes_nothing(
    organization, owner, changes, field, says
):
    before = rows()
    values = {"name": "New name", "address": "Somewhere", "time_zone": "Europe/Paris"}
    with pytest.raises(services.LeagueError, match=says) as refused:
        services.organization_profile_update(
            organization=organization, **{**values, **changes}, by=owner
        )
    assert refused.value.field == field
    assert rows() == before


# --- leagues ----------------------------------------------------------------------------------


def test_a_new_league_with_its_rating_system(organization, owner):
    league, created = league_create_rated(
        organization=organization,
        name="Friday  Commander",
        game_label="Commander",
        is_public=False,
        system="elo",
        params={"k": 24},
        entry_key="form-1",
        by=owner,
    )
    assert created
    assert (league.name, league.game_label, league.is_public) == (
        "Friday Commander",
        "Commander",
        False,
    )
    assert league.slug == "dragons-den-friday-commander"
    settings = LeagueRating.objects.get(league=league)
    assert settings.system == "elo" and settings.params["k"] == 24
    entry = AuditEntry.objects.get(action="league.create")
    assert entry.league_id == league.pk and entry.actor == owner


def test_the_same_form_posted_twice_makes_one_league(organization, owner):
    values = dict(organization=organization, name="Tuesday cEDH", system="openskill", by=owner)
    first, created = league_create_rated(**values, entry_key="same-form")
    again, created_again = league_create_rated(**values, entry_key="same-form")
    assert (created, created_again) == (True, False)
    assert again == first
    assert League.objects.count() == 1 and LeagueRating.objects.count() == 1
    # Another form (another key) with the same name is another league, numbered.
    other, _ = league_create_rated(**values, entry_key="other-form")
    assert other.slug == "dragons-den-tuesday-cedh-2"


@pytest.mark.parametrize(
    ("changes", "error", "field"),
    [
        ({"name": ""}, services.LeagueError, "name"),
        ({"name": "n" * 121}, services.LeagueError, "name"),
        ({"game_label": "g" * 81}, services.LeagueError, "game_label"),
        ({"system": "glicko"}, ParamError, "rating_system"),
        ({"params": {"k": -5}}, ParamError, "k"),
    ],
)
def test_a_bad_new_league_writes_nothing(organization, owner, changes, error, field):
    before = rows()
    values = {"name": "Friday", "system": "elo", "params": {}, **changes}
    with pytest.raises(error) as refused:
        league_create_rated(organization=organization, by=owner, **values)
    assert refused.value.field == field
    assert rows() == before


def test_a_league_cannot_end_before_it_starts(organization, owner):
    import datetime

    with pytest.raises(services.LeagueError, match="cannot end") as refused:
        services.league_create(
            organization=organization,
            name="Winter",
            starts_on=datetime.date(2027, 2, 1),
            ends_on=datetime.date(2027, 1, 1),
            by=owner,
        )
    assert refused.value.field == "ends_on"
    assert not League.objects.exists()


# --- staff ------------------------------------------------------------------------------------


def test_an_invitation_is_mailed_with_a_link_back_to_the_site(
    organization, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invited = services.staff_invite(
            organization=organization,
            email="Judy@Example.com",
            role="judge",
            site_url=SITE + "/",
            by=owner,
        )
    assert invited.link.startswith(f"{SITE}/organizations/dragons-den/join/")
    (sent,) = mail.outbox
    assert sent.to == ["Judy@Example.com"]
    assert invited.link in sent.body and "Judge / TO" in sent.subject
    token = invited.link.rstrip("/").rsplit("/", 1)[1]
    stored = StaffInvitation.objects.get()
    assert stored.key_hash == StaffInvitation.hash_key(token)
    assert token not in str(list(AuditEntry.objects.values_list("after", flat=True)))


def test_inviting_twice_makes_one_invitation_and_one_mail(
    organization, owner, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.staff_invite(
            organization=organization, email="judy@example.com", role="judge", site_url=SITE
        )
        with pytest.raises(services.StaffAlreadyInvited, match="already invited"):
            services.staff_invite(
                organization=organization, email="JUDY@example.com", role="judge", site_url=SITE
            )
    assert StaffInvitation.objects.count() == 1
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    ("email", "role", "field", "says"),
    [
        ("", "judge", "email", "Type the e-mail address"),
        ("judy at example", "judge", "email", "is not an e-mail address"),
        ("judy@example.com", "emperor", "role", "Choose a role"),
        ("owen@example.com", "judge", "email", "already Owner"),
    ],
)
def test_a_bad_invitation_says_why(organization, owner, email, role, field, says):
    before = rows()
    with pytest.raises(services.LeagueError, match=says) as refused:
        services.staff_invite(
            organization=organization, email=email, role=role, site_url=SITE, by=owner
        )
    assert refused.value.field == field
    assert rows() == before


def _invite(organization, role="judge", email="judy@example.com") -> str:
    invited = services.staff_invite(
        organization=organization, email=email, role=role, site_url=SITE
    )
    return invited.link.rstrip("/").rsplit("/", 1)[1]


def test_accepting_makes_a_membership_once(organization, owner):
    token = _invite(organization)
    judy = UserFactory(username="judy")
    membership = services.invitation_accept(
        organization_slug=organization.slug, token=token, user=judy
    )
    assert (membership.user, membership.role) == (judy, Role.JUDGE)
    with pytest.raises(services.ClaimAlreadyDone, match="already joined"):
        services.invitation_accept(organization_slug=organization.slug, token=token, user=judy)
    # The link was for one person: a second account cannot use it.
    with pytest.raises(services.LeagueError, match="already used"):
        services.invitation_accept(
            organization_slug=organization.slug, token=token, user=UserFactory()
        )
    assert Membership.objects.filter(organization=organization).count() == 2


def test_expired_and_cancelled_links_do_not_work(organization, owner):
    from datetime import timedelta

    from django.utils import timezone

    token = _invite(organization)
    StaffInvitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(services.LeagueError, match="expired"):
        services.invitation_accept(
            organization_slug=organization.slug, token=token, user=UserFactory()
        )
    # An expired invitation gives way to a new one for the same address.
    fresh = _invite(organization)
    services.invitation_cancel(
        organization=organization, invitation_id=StaffInvitation.objects.first().pk, by=owner
    )
    with pytest.raises(services.LeagueError, match="cancelled"):
        services.invitation_accept(
            organization_slug=organization.slug, token=fresh, user=UserFactory()
        )
    assert Membership.objects.filter(organization=organization).count() == 1


def test_a_link_of_one_store_does_not_open_another(organization, owner):
    token = _invite(organization)
    other = LeagueFactory().organization
    with pytest.raises(services.LeagueError, match="not valid"):
        services.invitation_accept(organization_slug=other.slug, token=token, user=UserFactory())


def test_roles_change_and_staff_leave_but_the_last_owner_stays(organization, owner):
    olive = organizer_of(organization, role=Role.ORGANIZER, username="olive")
    olive_membership = Membership.objects.get(user=olive)
    owner_membership = Membership.objects.get(user=owner)
    with pytest.raises(services.LeagueError, match="only owner") as refused:
        services.staff_role_set(
            organization=organization, membership_id=owner_membership.pk, role="judge"
        )
    assert refused.value.field == "role"
    with pytest.raises(services.LeagueError, match="only owner"):
        services.staff_remove(organization=organization, membership_id=owner_membership.pk)
    # With a second owner, the first may step down and leave.
    services.staff_role_set(
        organization=organization, membership_id=olive_membership.pk, role="owner", by=owner
    )
    with pytest.raises(services.ClaimAlreadyDone):
        services.staff_role_set(
            organization=organization, membership_id=olive_membership.pk, role="owner"
        )
    services.staff_role_set(
        organization=organization, membership_id=owner_membership.pk, role="judge", by=olive
    )
    assert (
        services.staff_remove(
            organization=organization, membership_id=owner_membership.pk, by=olive
        )
        == "owen"
    )
    assert list(Membership.objects.values_list("user__username", "role")) == [("olive", "owner")]
    with pytest.raises(services.ClaimAlreadyDone, match="no longer"):
        services.staff_remove(organization=organization, membership_id=owner_membership.pk)
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"staff.role", "staff.remove"} <= actions


def test_another_stores_member_cannot_be_changed_through_this_store(organization, owner):
    elsewhere = LeagueFactory().organization
    stranger = organizer_of(elsewhere, role=Role.ORGANIZER)
    membership = Membership.objects.get(user=stranger)
    with pytest.raises(services.ClaimAlreadyDone):
        services.staff_remove(organization=organization, membership_id=membership.pk)
    assert Membership.objects.filter(pk=membership.pk).exists()
