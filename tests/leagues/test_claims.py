"""Claiming a store's player: a claim the organizer answers, or a one-time code; the rules
(one player per store per account, several stores allowed), the audit trail, double taps and
two accounts racing for one player."""

import pytest
from django.db import IntegrityError
from django.urls import reverse

from audit.models import AuditEntry
from leagues import services
from leagues.models import ClaimCode, Player, PlayerClaim
from leagues.services.claims import CODE_LENGTH
from tests.concurrency import run_together
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    UserFactory,
    organizer_of,
)
from tests.forms import error_summary

pytestmark = pytest.mark.django_db


@pytest.fixture
def store():
    return OrganizationFactory(name="Den Games", slug="den")


@pytest.fixture
def ann(store):
    return PlayerFactory(organization=store, name="Ann Archer")


@pytest.fixture
def olive(store):
    return organizer_of(store, username="olive")


# --- codes ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("abcd-ef23", "ABCDEF23"), (" ABCD EF23 ", "ABCDEF23"), ("ABCDEF23", "ABCDEF23")],
)
def test_a_typed_code_is_read_however_it_was_typed(typed, stored):
    assert services.code_clean(typed) == stored


@pytest.mark.parametrize(
    ("typed", "code"),
    [("", "empty"), ("ABC", "malformed"), ("ABCDEF21", "malformed"), ("ABCD-EF2O", "malformed")],
)
def test_a_code_that_cannot_be_one_is_refused_with_a_reason(typed, code):
    # 1 and O are not in the alphabet (they read as I and 0 on a slip of paper).
    with pytest.raises(services.LeagueError) as refused:
        services.code_clean(typed)
    assert refused.value.code == code and refused.value.field == "code"


def test_a_code_links_the_account_once_and_is_recorded(store, ann, olive):
    pat = UserFactory(username="pat")
    issued = services.claim_code_issue(by=olive, player=ann)
    assert len(issued.code) == CODE_LENGTH

    player = services.claim_with_code(user=pat, code=services.code_format(issued.code).lower())

    assert player == ann
    ann.refresh_from_db()
    assert ann.user == pat
    issued.refresh_from_db()
    assert issued.used_by == pat and issued.used_at is not None
    actions = list(
        AuditEntry.objects.filter(object_type="player", object_id=ann.pk).values_list(
            "action", flat=True
        )
    )
    assert sorted(actions) == ["player.claim_code", "player.claim_code_use"]
    # The trail never holds the code itself: every manager of the store reads it.
    assert issued.code not in str(list(AuditEntry.objects.values_list("before", "after")))


def test_the_same_code_twice_by_its_owner_is_a_repeat_and_by_anyone_else_refused(ann, olive):
    pat, sam = UserFactory(username="pat"), UserFactory(username="sam")
    issued = services.claim_code_issue(by=olive, player=ann)
    services.claim_with_code(user=pat, code=issued.code)

    with pytest.raises(services.ClaimAlreadyDone):
        services.claim_with_code(user=pat, code=issued.code)
    with pytest.raises(services.LeagueError) as refused:
        services.claim_with_code(user=sam, code=issued.code)
    assert refused.value.code == "used"
    ann.refresh_from_db()
    assert ann.user == pat


def test_a_new_code_cancels_the_unused_one(ann, olive):
    first = services.claim_code_issue(by=olive, player=ann)
    second = services.claim_code_issue(by=olive, player=ann)
    assert first.code != second.code
    with pytest.raises(services.LeagueError) as refused:
        services.claim_with_code(user=UserFactory(), code=first.code)
    assert refused.value.code == "unknown"
    assert ClaimCode.objects.filter(player=ann).count() == 1


def test_no_code_for_a_player_who_has_an_account(ann, olive):
    ann.user = UserFactory()
    ann.save()
    with pytest.raises(services.LeagueError) as refused:
        services.claim_code_issue(by=olive, player=ann)
    assert refused.value.code == "claimed"


def test_one_player_per_store_per_account_but_several_stores(store, ann, olive):
    pat = UserFactory(username="pat")
    ann.user = pat
    ann.save()
    bob = PlayerFactory(organization=store, name="Bob Baker")
    code = services.claim_code_issue(by=olive, player=bob).code

    with pytest.raises(services.LeagueError) as refused:
        services.claim_with_code(user=pat, code=code)
    assert refused.value.code == "one_per_store"
    assert "Ann Archer" in refused.value.message

    other_store = OrganizationFactory(name="Cards Corner", slug="corner")
    elsewhere = PlayerFactory(organization=other_store, name="Ann A.")
    other_code = services.claim_code_issue(by=organizer_of(other_store), player=elsewhere)
    services.claim_with_code(user=pat, code=other_code.code)
    assert set(Player.objects.filter(user=pat)) == {ann, elsewhere}


def test_the_database_refuses_two_players_of_one_store_for_one_account(store, ann):
    pat = UserFactory()
    ann.user = pat
    ann.save()
    with pytest.raises(IntegrityError):
        PlayerFactory(organization=store, name="Bob Baker", user=pat)


# --- claims the organizer answers ----------------------------------------------------------------


def test_a_claim_waits_then_approval_links_and_refuses_the_other_claims(ann, olive):
    pat, sam = UserFactory(username="pat"), UserFactory(username="sam")
    mine = services.claim_request(user=pat, player=ann)
    theirs = services.claim_request(user=sam, player=ann)
    ann.refresh_from_db()
    assert ann.user is None  # nothing linked until the store answers

    services.claim_decide(by=olive, claim=mine, approve=True)

    ann.refresh_from_db()
    theirs.refresh_from_db()
    assert ann.user == pat
    assert theirs.status == PlayerClaim.Status.REFUSED
    with pytest.raises(services.ClaimAlreadyDone):
        services.claim_decide(by=olive, claim=mine, approve=True)


def test_claiming_twice_is_a_repeat_and_a_refused_claim_links_nothing(ann, olive):
    pat = UserFactory()
    claim = services.claim_request(user=pat, player=ann)
    with pytest.raises(services.ClaimAlreadyDone):
        services.claim_request(user=pat, player=ann)
    services.claim_decide(by=olive, claim=claim, approve=False)
    ann.refresh_from_db()
    assert ann.user is None
    assert PlayerClaim.objects.get().status == PlayerClaim.Status.REFUSED


@pytest.mark.django_db(transaction=True)
def test_two_accounts_entering_one_code_at_once_one_wins():
    store = OrganizationFactory()
    ann = PlayerFactory(organization=store, name="Ann Archer")
    code = services.claim_code_issue(by=organizer_of(store), player=ann).code
    pat, sam = UserFactory(username="pat"), UserFactory(username="sam")

    outcomes = run_together(
        lambda: services.claim_with_code(user=pat, code=code),
        lambda: services.claim_with_code(user=sam, code=code),
    )

    winners = [o for o in outcomes if isinstance(o, Player)]
    losers = [o for o in outcomes if isinstance(o, services.LeagueError)]
    assert len(winners) == 1 and len(losers) == 1, outcomes
    assert losers[0].code == "used"
    ann.refresh_from_db()
    assert ann.user in (pat, sam)
    assert AuditEntry.objects.filter(action="player.claim_code_use").count() == 1


@pytest.mark.django_db(transaction=True)
def test_eight_taps_of_approve_at_once_link_once():
    store = OrganizationFactory()
    olive = organizer_of(store)
    ann = PlayerFactory(organization=store, name="Ann Archer")
    claim = services.claim_request(user=UserFactory(), player=ann)

    outcomes = run_together(
        *[lambda: services.claim_decide(by=olive, claim=claim, approve=True)] * 8
    )

    assert sum(isinstance(o, PlayerClaim) for o in outcomes) == 1
    assert all(isinstance(o, (PlayerClaim, services.ClaimAlreadyDone)) for o in outcomes)
    assert AuditEntry.objects.filter(action="player.claim_approve").count() == 1


# --- the pages -----------------------------------------------------------------------------------


def test_this_is_me_from_the_public_player_page(client, store, ann, olive):
    league = LeagueFactory(organization=store, slug="friday")
    GameFactory(league=league, players=[ann, PlayerFactory(organization=store)])
    page = reverse("player_detail", args=[league.slug, ann.pk])
    pat = UserFactory(username="pat", email="pat@secret.example")
    client.force_login(pat)

    assert "This is me" in client.get(page).content.decode()
    client.post(reverse("player_claim", args=[league.slug, ann.pk]))
    text = client.get(page).content.decode()
    assert "This is me" not in text and "waiting for Den Games" in text

    olive_client = type(client)()
    olive_client.force_login(olive)
    store_page = olive_client.get(reverse("organization_players", args=["den"])).content.decode()
    assert "pat" in store_page and "Ann Archer" in store_page
    claim = PlayerClaim.objects.get()
    olive_client.post(reverse("claim_decide", args=["den", claim.pk]), {"decision": "approve"})

    # Anyone sees that the player has an account; nobody sees whose or its address.
    client.logout()
    text = client.get(page).content.decode()
    assert "claimed" in text
    assert "pat@secret.example" not in text and ">pat<" not in text


def test_the_organizer_makes_a_code_and_the_player_types_it(client, store, ann, olive):
    client.force_login(olive)
    shown = client.post(reverse("claim_code_issue", args=["den", ann.pk]))
    assert shown.status_code == 200
    code = ClaimCode.objects.get(player=ann).code
    assert services.code_format(code) in shown.content.decode()

    pat = UserFactory(username="pat")
    client.force_login(pat)
    bad = client.post(reverse("claim_with_code"), {"code": "ZZZZ-ZZZZ"})
    assert bad.status_code == 400
    assert "No player has this claim code" in bad.content.decode()
    assert 'href="#id_code"' in error_summary(bad.content.decode())
    ann.refresh_from_db()
    assert ann.user is None

    done = client.post(reverse("claim_with_code"), {"code": code.lower()})
    assert done.status_code == 302 and done["Location"] == reverse("my_guildhall")
    ann.refresh_from_db()
    assert ann.user == pat
