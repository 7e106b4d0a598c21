"""Registration and check-in through the pages: a player registers from the event page (and
lands on the waitlist when it is full), the TO's registration page and its settings (bad
input refused, nothing changed), check-in by the QR's page and by the per-registration link,
double taps, and the QR code on the event page and the projector while check-in is open."""

import pytest
from django.test import Client
from django.urls import reverse

from notifications.models import Delivery, NotificationSettings
from tests.factories import PlayerFactory, TournamentFactory, UserFactory
from tournaments.models import Registration
from tournaments.services.entries import entry_register
from tournaments.services.registration import (
    check_in_open,
    registration_join,
    registration_settings_set,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(league):
    event = TournamentFactory(league=league, name="Friday cEDH", slug="friday-cedh")
    return registration_settings_set(
        tournament=event, open=True, cap=2, deadline=None, note="Fee 10 · doors 18:30"
    )


def player_client(event, name: str) -> tuple[Client, object]:
    user = UserFactory(username=name.lower())
    player = PlayerFactory(organization=event.league.organization, name=name, user=user)
    client = Client()
    client.force_login(user)
    return client, player


def said(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def join(client, event):
    return client.post(reverse("event_join", args=[event.slug]), follow=True)


def test_a_player_registers_from_the_event_page_then_the_waitlist(event):
    ann, _ = player_client(event, "Ann")
    page = ann.get(reverse("event_detail", args=[event.slug]))
    assert b"Fee 10 \xc2\xb7 doors 18:30" in page.content
    assert b">Register</button>" in page.content
    assert said(join(ann, event)) == ["You are registered for Friday cEDH."]
    assert said(join(ann, event)) == ["Ann is already registered."]  # a double tap
    bob, _ = player_client(event, "Bob")
    join(bob, event)
    cat, _ = player_client(event, "Cat")
    page = cat.get(reverse("event_detail", args=[event.slug]))
    section = page.content.decode().split('id="registration-title"')[1].split("</section>")[0]
    assert "Join the waitlist" in section and "2 of 2 seats" in section, section
    answer = join(cat, event)
    assert said(answer) == ["The event is full: you are number 1 on the waitlist."]
    assert b"You are number 1 on the waitlist" in answer.content
    # Ann leaves: Cat moves up.
    ann.post(reverse("event_leave", args=[event.slug]))
    assert Registration.objects.get(player__name="Cat").status == "seated"


def test_an_account_with_no_player_of_the_store_is_told_how_to_claim_or_join(event):
    client = Client()
    client.force_login(UserFactory(username="stan"))
    page = client.get(reverse("event_detail", args=[event.slug]))
    assert b"Your account is not linked to your player yet" in page.content
    assert b"The name you play under" in page.content
    # Without a name, the account has no player to register: refused.
    assert client.post(reverse("event_join", args=[event.slug])).status_code == 403
    assert not Registration.objects.exists()


def test_a_visitor_is_asked_to_log_in(event, client):
    page = client.get(reverse("event_detail", args=[event.slug]))
    assert b"to register" in page.content and b"Log in</a>" in page.content


def test_the_to_page_lists_seats_and_waitlist_and_marks_paid(event, organizer_client):
    for name in ("Ann", "Bob", "Cat"):
        registration_join(
            tournament=event,
            player=PlayerFactory(organization=event.league.organization, name=name),
        )
    url = reverse("event_registration", args=[event.slug])
    page = organizer_client.get(url)
    assert page.status_code == 200
    assert [r.player.name for r in page.context["seated"]] == ["Ann", "Bob"]
    assert [r.player.name for r in page.context["waiting"]] == ["Cat"]
    ann = Registration.objects.get(player__name="Ann")
    paid = reverse("registration_paid", args=[event.slug, ann.pk])
    assert said(organizer_client.post(paid, {"paid": "1"}, follow=True)) == ["Ann marked paid."]
    assert said(organizer_client.post(paid, {"paid": "1"}, follow=True)) == [
        "Ann is already marked paid."
    ]
    ann.refresh_from_db()
    assert ann.paid


@pytest.mark.parametrize(
    "data, field, message",
    [
        ({"cap": "1"}, "cap", "Ensure this value is greater than or equal to 2."),
        ({"cap": "lots"}, "cap", "Enter a whole number."),
        ({"deadline": "Friday"}, "deadline", "Enter a valid date/time."),
        ({"note": "x" * 1001}, "note", "Ensure this value has at most 1000 characters"),
    ],
)
def test_bad_settings_are_refused_on_their_field_and_change_nothing(
    event, organizer_client, data, field, message
):
    url = reverse("registration_settings", args=[event.slug])
    answer = organizer_client.post(url, {"open": "on", "cap": "8", "note": "new"} | data)
    assert answer.status_code == 400
    assert message in " ".join(answer.context["form"].errors[field])
    event.refresh_from_db()
    assert (event.registration_cap, event.registration_note) == (2, "Fee 10 · doors 18:30")


def test_check_in_by_the_qr_page_and_by_the_link_then_the_close(event, organizer_client, client):
    ann_client, _ann = player_client(event, "Ann")
    join(ann_client, event)
    bob = PlayerFactory(organization=event.league.organization, name="Bob")
    bob_registration = registration_join(tournament=event, player=bob)
    cat = PlayerFactory(organization=event.league.organization, name="Cat")
    registration_join(tournament=event, player=cat)  # waitlisted, never comes
    opened = organizer_client.post(reverse("check_in_open", args=[event.slug]), follow=True)
    assert said(opened) == ["Check-in is open: players scan the code or use their link."]
    assert said(
        organizer_client.post(reverse("check_in_open", args=[event.slug]), follow=True)
    ) == ["Check-in is already open."]
    # The QR code on the event page and the projector opens the check-in page.
    page = client.get(reverse("event_detail", args=[event.slug]))
    assert b'<svg viewBox="0 0' in page.content and b'class="segno"' in page.content
    projector = client.get(reverse("event_projector", args=[event.slug]))
    assert b'class="segno"' in projector.content
    assert b"/events/friday-cedh/check-in/" in projector.content
    # Ann, logged in, checks in from the QR's page.
    url = reverse("event_check_in", args=[event.slug])
    assert b"check in</button>" in ann_client.get(url).content
    assert said(ann_client.post(url, follow=True)) == ["Ann, you are checked in."]
    assert said(ann_client.post(url, follow=True)) == ["Ann is already checked in."]
    # Bob, no account, by his link; a wrong link is a 404.
    link = reverse("registration_check_in", args=[event.slug, bob_registration.token])
    assert b"<strong>Bob</strong>" in client.get(link).content
    assert said(client.post(link, follow=True)) == ["Bob, you are checked in."]
    bad = reverse("registration_check_in", args=[event.slug, "not-a-token"])
    assert client.get(bad).status_code == 404
    # The TO closes the check-in: nobody seated is missing; Cat stays waiting.
    closed = organizer_client.post(reverse("check_in_close", args=[event.slug]), follow=True)
    assert said(closed) == [
        "Check-in closed. Removed (did not check in): nobody. Seated from the waitlist: nobody."
    ]
    paired = organizer_client.post(reverse("event_pair", args=[event.slug]), follow=True)
    assert "Round 1 is paired" in said(paired)[0]


def test_pairing_waits_for_the_check_in_to_close(event, organizer_client):
    for name in ("Ann", "Bob"):
        registration_join(
            tournament=event,
            player=PlayerFactory(organization=event.league.organization, name=name),
        )
    check_in_open(tournament=event)
    console = organizer_client.get(reverse("event_run", args=[event.slug])).content.decode()
    assert "Check-in is open: 2 not checked in (Ann, Bob)." in console
    answer = organizer_client.post(reverse("event_pair", args=[event.slug]), follow=True)
    assert "Check-in is still open: close it first" in " ".join(said(answer))
    assert not event.rounds.exists()


def test_the_event_form_chooses_its_league_among_the_stores(league, organizer_client):
    """A Modern night created from the Commander league's page feeds the Modern league."""
    from tests.factories import LeagueFactory
    from tournaments.models import Tournament

    modern = LeagueFactory(organization=league.organization, name="Modern", slug="modern")
    elsewhere = LeagueFactory(name="Another store's league", slug="elsewhere")
    url = reverse("event_create", args=[league.slug])
    form = organizer_client.get(url).content.decode()
    assert f'<option value="{league.pk}" selected>' in form and ">Modern</option>" in form
    data = {"name": "Modern night", "date": "2026-11-27", "top_cut": "0", "first_round": "random"}
    refused = organizer_client.post(url, data | {"league": elsewhere.pk})
    assert refused.status_code == 400
    assert "Select a valid choice" in " ".join(refused.context["form"].errors["league"])
    assert not Tournament.objects.exists()
    organizer_client.post(url, data | {"league": modern.pk, "round_minutes": "50"})
    assert Tournament.objects.get().league == modern


def test_the_to_removing_a_registered_player_seats_the_first_on_the_waitlist(
    event, organizer_client, settings
):
    """Issue 30 #11: the seat a TO freed stayed empty while players waited."""
    settings.GUILDHALL_MAIL_DELIVERS = True
    clients = {}
    for name in ("Ann", "Bob", "Cat", "Dan"):
        clients[name], player = player_client(event, name)
        NotificationSettings.objects.create(user=player.user, email_waitlist_promoted=True)
        join(clients[name], event)
    ann = Registration.objects.get(player__name="Ann")
    remove = reverse("entry_remove", args=[event.slug, ann.entry_id])
    answer = organizer_client.post(remove, follow=True)
    assert said(answer) == [
        "Ann is no longer registered for Friday cEDH. Cat moved up from the waitlist."
    ]
    statuses = dict(Registration.objects.values_list("player__name", "status"))
    assert statuses == {"Ann": "cancelled", "Bob": "seated", "Cat": "seated", "Dan": "waitlisted"}
    cat = Registration.objects.get(player__name="Cat")
    assert cat.entry is not None and cat.entry.tournament == event
    (mail,) = Delivery.objects.filter(kind=Delivery.Kind.PROMOTED)
    assert mail.user == cat.player.user
    # A second tap finds Ann gone and moves nobody else up.
    again = organizer_client.post(remove, follow=True)
    assert said(again) == ["That entry is no longer registered."]
    assert Registration.objects.get(player__name="Dan").status == "waitlisted"
    assert Delivery.objects.filter(kind=Delivery.Kind.PROMOTED).count() == 1


def test_leaving_says_what_happened_and_the_waitlist_button_says_leave(event):
    """Issue 31 #10: "your seat went to the waitlist" when nobody was waiting, and a
    waitlisted player's "Unregister" button."""
    ann, _ = player_client(event, "Ann")
    bob, _ = player_client(event, "Bob")
    join(ann, event)
    join(bob, event)
    leave = reverse("event_leave", args=[event.slug])
    said_to_bob = said(bob.post(leave, follow=True))
    assert said_to_bob == [
        "You are unregistered; your seat is free for the next player to register."
    ]
    join(bob, event)
    cat, _ = player_client(event, "Cat")
    join(cat, event)  # the waitlist
    page = cat.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert ">Leave the waitlist</button>" in page and ">Unregister</button>" not in page
    assert (
        ">Unregister</button>"
        in ann.get(reverse("event_detail", args=[event.slug])).content.decode()
    )
    said_to_ann = said(ann.post(leave, follow=True))
    assert said_to_ann == [
        "You are unregistered; your seat went to the first player on the waitlist."
    ]
    dan, _ = player_client(event, "Dan")
    join(dan, event)  # the waitlist again
    assert said(dan.post(leave, follow=True)) == ["You left the waitlist of Friday cEDH."]


def test_the_tos_page_before_anyone_registers_says_what_fills_it(event, organizer_client):
    page = organizer_client.get(reverse("event_registration", args=[event.slug])).content.decode()
    boxes = [b.split("</div>")[0] for b in page.split('<div class="empty-state">')[1:]]
    assert boxes == [
        "<strong>Nobody has registered online yet</strong>Players register from the event"
        "'s page: share its link or the code above.",
        "<strong>Nobody is waiting</strong>Once every seat is taken, players who register "
        "online wait here, first come first served.",
    ]
    registration_settings_set(tournament=event, open=False, cap=None, deadline=None, note="")
    page = organizer_client.get(reverse("event_registration", args=[event.slug])).content.decode()
    assert "Open online registration below" in page and "Without a seat limit" in page


def test_a_walk_in_past_the_cap_reads_as_more_than_the_seats(event, organizer_client):
    """Issue 31 #10: "3 in of 2" after a walk-in past a full event."""
    for name in ("Ann", "Bob"):
        join(player_client(event, name)[0], event)
    entry_register(tournament=event, name="Walt", create_player=True)
    page = organizer_client.get(reverse("event_registration", args=[event.slug])).content.decode()
    assert "3 in of 2" not in page and "3 in: 2 seats and 1 more" in page
    visitor = player_client(event, "Vic")[0]
    public = visitor.get(reverse("event_detail", args=[event.slug])).content.decode()
    assert "3 of 2 seats" not in public and "All 2 seats taken and 1 more player in" in public


def test_after_round_1_the_tos_page_has_no_check_in_code_and_nobody_reads_as_waiting(
    event, organizer_client
):
    """Issue 43: after the start the Registration page still showed the check-in code, and a
    player the TO had typed in from the waitlist under "Waitlist"."""
    for name in ("Ann", "Bob", "Cat"):
        join(player_client(event, name)[0], event)
    entry_register(tournament=event, name="Cat")  # from the waitlist, by the TO's desk
    url = reverse("event_registration", args=[event.slug])
    before = organizer_client.get(url)
    assert b'class="segno"' in before.content  # before round 1 the TO may print it
    assert [r.player.name for r in before.context["seated"]] == ["Ann", "Bob", "Cat"]
    assert before.context["waiting"] == []
    registration_join(
        tournament=event, player=PlayerFactory(organization=event.league.organization, name="Dan")
    )
    organizer_client.post(reverse("event_pair", args=[event.slug]))
    page = organizer_client.get(url)
    text = page.content.decode()
    assert b'class="segno"' not in page.content and "/check-in/" not in text
    assert "Round 1 is paired: check-in is over." in text
    assert "Ann" in text.split("<h3>Seated")[1].split("</section>")[0]
    waitlist = text.split('<section class="card waitlist-card">')[1].split("</section>")[0]
    assert "Not seated" in waitlist and "Dan" in waitlist and "waiting" not in waitlist
    assert "· 1 waiting" not in text.split("</h2>")[0]


def test_a_waiting_players_page_says_no_place_once_seated_or_the_event_has_started(
    event, organizer_client, client
):
    for name in ("Ann", "Bob"):
        join(player_client(event, name)[0], event)
    cat_client, _ = player_client(event, "Cat")
    join(cat_client, event)
    dan = registration_join(
        tournament=event, player=PlayerFactory(organization=event.league.organization, name="Dan")
    )
    cat = Registration.objects.get(player__name="Cat")
    link = reverse("registration_check_in", args=[event.slug, cat.token])
    assert "number 1 on the waitlist" in client.get(link).content.decode()
    entry_register(tournament=event, name="Cat")
    page = client.get(link).content.decode()
    assert "on the waitlist" not in page and "<strong>Cat</strong> · registered" in page
    mine = cat_client.get(reverse("event_check_in", args=[event.slug])).content.decode()
    assert "on the waitlist" not in mine
    organizer_client.post(reverse("event_pair", args=[event.slug]))
    dan_page = client.get(reverse("registration_check_in", args=[event.slug, dan.token]))
    text = dan_page.content.decode()
    assert "on the waitlist" not in text and "no seat: round 1 is paired" in text


def test_closing_check_in_says_the_waitlist_got_the_seat_a_walk_in_did_not_take(
    event, organizer_client
):
    """Issue 43's evening on the TO's page: full, Cat waiting and here, a walk-in past the
    cap, Bob absent: the close seats Cat; a second tap says it is closed."""
    regs = {}
    for name in ("Ann", "Bob", "Cat"):
        regs[name] = registration_join(
            tournament=event,
            player=PlayerFactory(organization=event.league.organization, name=name),
        )
    check_in_open(tournament=event)
    phone = Client()  # the players' own phones, by their links
    for name in ("Ann", "Cat"):
        phone.post(reverse("registration_check_in", args=[event.slug, regs[name].token]))
    entry_register(tournament=event, name="Walt", create_player=True)
    close = reverse("check_in_close", args=[event.slug])
    closed = organizer_client.post(close, follow=True)
    assert said(closed) == [
        "Check-in closed. Removed (did not check in): Bob. Seated from the waitlist: Cat."
    ]
    assert "3 in: 2 seats and 1 more" in closed.content.decode()
    assert said(organizer_client.post(close, follow=True)) == ["Check-in is not open."]
    cat = phone.get(reverse("registration_check_in", args=[event.slug, regs["Cat"].token]))
    assert "<strong>Cat</strong> · registered" in cat.content.decode()
