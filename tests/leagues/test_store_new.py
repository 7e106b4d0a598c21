"""A site's first store made from the site (issue 43): the superuser creates it and invites
its owner by e-mail; the invitee signs up (or logs in) and owns it; the superuser opens every
page of the store meanwhile, where a store with no owner and no league used to answer 404."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEntry
from leagues.models import Membership, Organization, Role, StaffInvitation
from tests.factories import OrganizationFactory, UserFactory, organizer_of

pytestmark = pytest.mark.django_db

NEW = reverse("store_new")


@pytest.fixture
def root(client):
    user = UserFactory(username="root", is_superuser=True, is_staff=True)
    client.force_login(user)
    return client


def create(client, follow=False, **fields):
    data = {"name": "Goblin Forge Games", "slug": "", "owner_email": "gwen@example.com"}
    return client.post(NEW, {**data, **fields}, follow=follow)


def link_in(response) -> str:
    found = re.search(r'value="(http://testserver/organizations/[^"]+)"', response.content.decode())
    return found[1].removeprefix("http://testserver")


def test_the_superuser_creates_a_store_and_its_owner_signs_up_from_the_mail(
    root, django_capture_on_commit_callbacks
):
    home = root.get("/").content.decode()
    assert f'href="{NEW}"' in home
    assert root.get(NEW).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        shown = create(root)
    assert shown.status_code == 200
    store = Organization.objects.get()
    assert (store.name, store.slug) == ("Goblin Forge Games", "goblin-forge-games")
    assert "/stores/goblin-forge-games/" in shown.content.decode()
    path = link_in(shown)
    (sent,) = mail.outbox
    assert sent.to == ["gwen@example.com"] and "as Owner" in sent.body and path in sent.body
    invitation = StaffInvitation.objects.get()
    assert (invitation.organization, invitation.role) == (store, Role.OWNER)
    assert AuditEntry.objects.filter(organization=store, action="store.create").exists()

    # Gwen has no account: the link asks her to log in, and the log-in page leads to sign-up
    # with the link kept, so she lands back on it.
    gwen = Client()
    login = gwen.get(path)
    assert login.status_code == 302 and "next=" in login["Location"]
    page = gwen.get(login["Location"]).content.decode()
    signup = re.search(r'href="(/accounts/signup/\?next=[^"]*)"', page)[1]
    response = gwen.post(
        signup.replace("&amp;", "&"),
        {
            "email": "gwen@example.com",
            "username": "gwen",
            "password1": "a-long-pass-phrase-42",
            "password2": "a-long-pass-phrase-42",
        },
    )
    assert response.status_code == 302
    if response["Location"] == reverse("account_email_verification_sent"):
        # The site sends mail, so it checks the address first; confirming logs her in and
        # takes her back to the invitation.
        confirm = re.search(
            r"http://testserver(/accounts/confirm-email/[^\s]+/)", mail.outbox[-1].body
        )
        response = gwen.post(confirm[1])
        assert response.status_code == 302
    assert response["Location"] == path
    assert "Accept" in gwen.get(path).content.decode()
    joined = gwen.post(path, follow=True)
    assert "You are now Owner of Goblin Forge Games" in joined.content.decode()
    assert Membership.objects.get(organization=store).role == Role.OWNER
    assert gwen.post(path).status_code == 302  # a second tap: told it is done
    assert Membership.objects.filter(organization=store).count() == 1
    assert gwen.get(reverse("store_profile", args=[store.slug])).status_code == 200


def test_the_superuser_opens_every_page_of_a_new_store(root):
    create(root, owner_email="")
    store = Organization.objects.get()
    for name in (
        "store_page",
        "store_profile",
        "store_series",
        "store_events",
        "audit_log",
        "organization_players",
        "store_notifications",
        "league_new",
    ):
        assert root.get(reverse(name, args=[store.slug])).status_code == 200, name
    assert f'href="{reverse("store_page", args=[store.slug])}"' in root.get("/").content.decode()


def test_create_pressed_twice_makes_one_store_and_one_invitation(
    root, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert create(root).status_code == 200
        again = create(root, follow=True)
    assert "already created" in again.content.decode()
    assert Organization.objects.count() == 1 and StaffInvitation.objects.count() == 1
    assert len(mail.outbox) == 1


@pytest.mark.parametrize(
    ("fields", "field", "said"),
    [
        ({"name": "  "}, "name", "Give the store a name"),
        ({"owner_email": "gwen at example"}, "owner_email", "is not an e-mail address"),
        ({"slug": "Goblin Forge!"}, "slug", "cannot be the store"),
        ({"slug": "taken"}, "slug", "/stores/taken/ is another store"),
    ],
)
def test_a_bad_new_store_says_which_field_and_writes_nothing(root, fields, field, said):
    OrganizationFactory(name="Taken", slug="taken")
    response = create(root, **fields)
    assert response.status_code == 400
    page = response.content.decode()
    assert f'href="#id_{field}"' in page and said in page.replace("&#x27;", "'")
    assert Organization.objects.count() == 1 and not StaffInvitation.objects.exists()


def test_only_the_superuser_creates_stores(client, organization):
    assert client.get(NEW).status_code == 302  # log in first
    owner = organizer_of(organization, role=Role.OWNER)
    client.force_login(owner)
    assert client.get(NEW).status_code == 403
    assert create(client).status_code == 403
    assert Organization.objects.count() == 1


def test_an_expired_or_used_owner_invitation_says_so(root, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        path = link_in(create(root))
    gwen, other = UserFactory(username="gwen"), UserFactory(username="other")
    invitation = StaffInvitation.objects.get()
    invitation.expires_at = timezone.now() - timedelta(minutes=1)
    invitation.save(update_fields=["expires_at"])
    visitor = Client()
    visitor.force_login(gwen)
    page = visitor.get(path)
    assert page.status_code == 410 and "This invitation expired" in page.content.decode()
    visitor.post(path)
    assert not Membership.objects.exists()
    invitation.expires_at = timezone.now() + timedelta(days=1)
    invitation.save(update_fields=["expires_at"])
    visitor.post(path)
    assert Membership.objects.get().user == gwen
    late = Client()
    late.force_login(other)
    page = late.get(path)
    assert page.status_code == 410 and "already used" in page.content.decode()
