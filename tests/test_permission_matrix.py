"""Who may do what, on every URL of the site: one matrix, checked against every URL pattern.

The test walks `get_resolver()` and fails on a URL pattern the matrix does not list, so a new
view cannot ship without someone deciding who may use it. Each listed URL is requested by
every role (relative to store A) against four leagues: A's public and private ones, and B's
public and private ones, each with players, a game, an import waiting for confirmation, a
1v1 event and a pod event with round 1 paired. The answers must match the matrix: OK, a
redirect to the login page, 403 (may see, may not change) or 404 (may not even see).

Every page a GET draws (200, HTML) is also read for docs/design.md's "Help is behind a ?": no
paragraph of `<main>` longer than 160 characters outside its "?" (`tests/prose.py` says which
places are exempt and why). It reads the responses this test fetches anyway, so the rule costs
no request of its own.

The admin's URL patterns are delegated to a second check that opens the list and add pages
of every registered ModelAdmin (`admin.site._registry`) as every role, and checks that store
organizers see only their own store's rows.

Then the rules about writes: a GET by a superuser of every URL writes no row of any table
(PostgreSQL's count of the rows this session wrote, before and after), nor does a superuser's
POST to a URL the matrix calls read-only; both are counted on the matrix's own requests, so
each (URL, role, method) is requested once. And a POST without a CSRF token is refused
everywhere except the API's token-authenticated POST, which refuses a session instead.

Each request that may write runs in a savepoint that is rolled back, so the world stays the
same for the next role.
"""

import copy
import datetime
from dataclasses import dataclass, field

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib import admin
from django.db import connection, transaction
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from achievements.services import achievement_save, claim_submit
from audit.models import AuditEntry
from jobs.models import Job
from leagues import jobs as league_jobs
from leagues import services as league_services
from leagues.admin import OrganizationScopedAdmin, organization_id_of
from leagues.models import ApiToken, Game, PlayerClaim, Role
from notifications.models import Delivery, StoreWebhook
from seasons.series import invitation_decide, series_create, series_invite
from seasons.services import season_create, season_events_set
from tests import pseudolocale
from tests.factories import (
    GameFactory,
    LeagueFactory,
    OrganizationFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    organizer_of,
)
from tests.prose import long_paragraphs
from tournaments.domain.result import Result
from tournaments.models import Registration, ResultReport, TournamentJudge
from tournaments.services.entries import entry_register
from tournaments.services.events import tournament_create
from tournaments.services.registration import registration_join, registration_settings_set
from tournaments.services.reports import report_submit
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db

# --- Outcomes, roles, scenes -------------------------------------------------------------------

OK = "ok"  # the view did its work (200, 201, a redirect onwards, or a refused form: 400, 409)
LOGIN = "login"  # sent to the login page
DENIED = 403  # may see it, may not do it
HIDDEN = 404  # may not know it exists
UNAUTHORIZED = 401  # the API wants a token

ROLES = [
    "anonymous",
    "stranger",  # logged in, linked to nothing
    "player",  # linked to a Player of store A, no membership
    "event_judge",  # TournamentJudge of A's private league's two events, no membership
    "judge",  # Membership judge / TO of store A
    "organizer",  # Membership organizer of store A
    "owner",  # Membership owner of store A
    "superuser",
    # Registered online for a public event of store A (the join form made their player):
    # the store has not vouched for them, so store A's private league stays closed.
    "joined_online",
    # A player of store B (linked by store B) who registered online for store A's event.
    "other_store_player",
]
# Store A's public and private league, store B's public and private league.
SCENES = ["a_pub", "a_priv", "b_pub", "b_priv"]


def _table(rows: dict[str, tuple]) -> dict[str, dict[str, object]]:
    assert set(rows) == set(ROLES), set(ROLES) ^ set(rows)
    return {role: dict(zip(SCENES, outcomes, strict=True)) for role, outcomes in rows.items()}


#                                 a_pub   a_priv  b_pub   b_priv
SEE_LEAGUE = _table(
    {
        "anonymous": (OK, HIDDEN, OK, HIDDEN),
        "stranger": (OK, HIDDEN, OK, HIDDEN),
        "player": (OK, OK, OK, HIDDEN),
        "event_judge": (OK, HIDDEN, OK, HIDDEN),  # judging an event opens no league page
        "judge": (OK, OK, OK, HIDDEN),
        "organizer": (OK, OK, OK, HIDDEN),
        "owner": (OK, OK, OK, HIDDEN),
        "superuser": (OK, OK, OK, OK),
        "joined_online": (OK, HIDDEN, OK, HIDDEN),
        "other_store_player": (OK, HIDDEN, OK, OK),
    }
)
SEE_EVENT = _table(
    {
        **{role: tuple(SEE_LEAGUE[role].values()) for role in ROLES},
        "event_judge": (OK, OK, OK, HIDDEN),  # ... but their own events' pages
    }
)
MANAGE_LEAGUE = _table(
    {
        "anonymous": (LOGIN, LOGIN, LOGIN, LOGIN),
        "stranger": (DENIED, HIDDEN, DENIED, HIDDEN),
        "player": (DENIED, DENIED, DENIED, HIDDEN),
        "event_judge": (DENIED, HIDDEN, DENIED, HIDDEN),
        "judge": (DENIED, DENIED, DENIED, HIDDEN),  # judges do not change league history
        "organizer": (OK, OK, DENIED, HIDDEN),
        "owner": (OK, OK, DENIED, HIDDEN),
        "superuser": (OK, OK, OK, OK),
        "joined_online": (DENIED, HIDDEN, DENIED, HIDDEN),
        "other_store_player": (DENIED, HIDDEN, DENIED, DENIED),
    }
)
CREATE_EVENT = _table(
    {
        **{role: tuple(MANAGE_LEAGUE[role].values()) for role in ROLES},
        "judge": (OK, OK, DENIED, HIDDEN),
    }
)
RUN_EVENT = _table(
    {
        **{role: tuple(CREATE_EVENT[role].values()) for role in ROLES},
        "event_judge": (DENIED, OK, DENIED, HIDDEN),
    }
)
# "Copy this event" makes new events: the store's staff, as creating one; an event's own judge
# sees the event but makes no new ones.
COPY_EVENT = _table(
    {
        **{role: tuple(CREATE_EVENT[role].values()) for role in ROLES},
        "event_judge": (DENIED, DENIED, DENIED, HIDDEN),
    }
)
# A store's page of upcoming public events: both stores have a public league, so anyone.
SEE_STORE = _table({role: (OK,) * 4 for role in ROLES})
# A player's own registration: the store's player linked to their account ("player" is linked
# to a player of store A); anyone else who may see the event is refused (403).
OWN_REGISTRATION = _table(
    {
        "anonymous": (LOGIN, LOGIN, LOGIN, LOGIN),
        "stranger": (DENIED, HIDDEN, DENIED, HIDDEN),
        "player": (OK, OK, DENIED, HIDDEN),
        "event_judge": (DENIED, DENIED, DENIED, HIDDEN),
        "judge": (DENIED, DENIED, DENIED, HIDDEN),
        "organizer": (DENIED, DENIED, DENIED, HIDDEN),
        "owner": (DENIED, DENIED, DENIED, HIDDEN),
        "superuser": (DENIED, DENIED, DENIED, DENIED),
        "joined_online": (OK, HIDDEN, DENIED, HIDDEN),
        "other_store_player": (OK, HIDDEN, OK, OK),
    }
)
# A player's own entry (their deck): "player" is entered in store A's public league's events.
OWN_ENTRY = _table(
    {
        **{role: tuple(OWN_REGISTRATION[role].values()) for role in ROLES},
        "player": (OK, DENIED, DENIED, HIDDEN),
        # Entered only in the open event, not in the scenes' events.
        "joined_online": (DENIED, HIDDEN, DENIED, HIDDEN),
        "other_store_player": (DENIED, HIDDEN, DENIED, DENIED),
    }
)
# A store's history (audit log) and its undo: its managers only; to everyone else the page
# does not exist, whatever the league's visibility, so a store's activity does not leak.
MANAGE_ORGANIZATION = _table(
    {
        **{role: (HIDDEN,) * 4 for role in ROLES},
        "organizer": (OK, OK, HIDDEN, HIDDEN),
        "owner": (OK, OK, HIDDEN, HIDDEN),
        "superuser": (OK, OK, OK, OK),
    }
)
# A store's setup pages (leagues.store_access): its page and "New league" for its owners and
# organizers; its profile and staff for its owners only. The store's other staff are told why
# (403); anyone else finds nothing (404); a visitor is sent to log in first.
STORE_SETUP = _table(
    {
        **{role: (HIDDEN,) * 4 for role in ROLES},
        "anonymous": (LOGIN,) * 4,
        "judge": (DENIED, DENIED, HIDDEN, HIDDEN),
        "organizer": (OK, OK, HIDDEN, HIDDEN),
        "owner": (OK, OK, HIDDEN, HIDDEN),
        "superuser": (OK, OK, OK, OK),
    }
)
STORE_OWNER = _table(
    {
        **{role: tuple(STORE_SETUP[role].values()) for role in ROLES},
        "organizer": (DENIED, DENIED, HIDDEN, HIDDEN),
    }
)
# The scenes' stores have no logo: the logo's address is a 404 for everyone (tests/leagues).
NO_LOGO = _table({role: (HIDDEN,) * 4 for role in ROLES})
# Posting a game to the API with a session and no token: refused for everyone (see the
# token tests below for what a token may do).
API_SESSION_POST = _table({role: (UNAUTHORIZED,) * 4 for role in ROLES})

# Series across stores (seasons.series_views). Store A hosts "Alpha Cup" and store B "Beta
# Cup", each with the other store taking part; the a_* scenes check A's series (and A's
# membership in B's), the b_* scenes B's. A series' pages are public; its host's managers
# run it (a series is public, so anyone else logged in is told why: 403).
SERIES_PUBLIC = _table({role: (OK,) * 4 for role in ROLES})
SERIES_HOST = _table(
    {
        **{role: (DENIED,) * 4 for role in ROLES},
        "anonymous": (LOGIN,) * 4,
        "organizer": (OK, OK, DENIED, DENIED),
        "owner": (OK, OK, DENIED, DENIED),
        "superuser": (OK,) * 4,
    }
)
# A store's answer to an invitation: its owner only; a superuser is refused too (it is the
# store's call to publish its events), told why by the service (403).
SERIES_DECIDE = _table(
    {
        **{role: tuple(STORE_SETUP[role].values()) for role in ROLES},
        "organizer": (DENIED, DENIED, HIDDEN, HIDDEN),
        "superuser": (DENIED,) * 4,
    }
)

# Pages outside any league: the same for every role.
ANYONE = {role: OK for role in ROLES}
LOGGED_IN = {**ANYONE, "anonymous": LOGIN}
# A new store and its first owner's invitation: the site's superusers only (issue 43).
SITE_ADMIN = {**{role: DENIED for role in ROLES}, "anonymous": LOGIN, "superuser": OK}
API_NOT_FOUND = {role: HIDDEN for role in ROLES}
NOWHERE = {role: HIDDEN for role in ROLES}
# allauth's Discord sign-up step sends whoever has no Discord log-in under way to the log-in
# page; its error page answers 401.
LOGIN_STAGE = {role: LOGIN for role in ROLES}
AUTH_ERROR = {role: UNAUTHORIZED for role in ROLES}
# A player's own achievement page: the signed-in account's player in the league's store
# ("player" is store A's, "joined_online" made one in store A, "other_store_player" is in both
# stores); a staff member or a superuser who is nobody's player there is told why (403).
OWN_PLAYER = _table(
    {
        "anonymous": (LOGIN, LOGIN, LOGIN, LOGIN),
        "stranger": (DENIED, HIDDEN, DENIED, HIDDEN),
        "player": (OK, OK, DENIED, HIDDEN),
        "event_judge": (DENIED, HIDDEN, DENIED, HIDDEN),
        "judge": (DENIED, DENIED, DENIED, HIDDEN),
        "organizer": (DENIED, DENIED, DENIED, HIDDEN),
        "owner": (DENIED, DENIED, DENIED, HIDDEN),
        "superuser": (DENIED, DENIED, DENIED, DENIED),
        "joined_online": (OK, HIDDEN, DENIED, HIDDEN),
        "other_store_player": (OK, HIDDEN, OK, OK),
    }
)
# "This is me": any logged-in account that may see the league's player page.
CLAIM_PLAYER = _table(
    {**{role: tuple(SEE_LEAGUE[role].values()) for role in ROLES}, "anonymous": (LOGIN,) * 4}
)


@dataclass(frozen=True)
class Rule:
    """How one URL pattern is checked: who gets what, on which object, by which methods."""

    expect: dict  # role -> outcome (site pages) or role -> scene -> outcome
    target: str  # "site", "league", "game", "import", "event", "organization", "audit", ...
    methods: tuple[str, ...] = ("GET",)
    writes: bool = False  # changes data: must refuse GET writes and POST without CSRF
    path: str | None = None  # for an unnamed pattern, the path to request
    extra: dict = field(default_factory=dict)
    # What a GET of a writing view answers a logged-in superuser, when it is not its form
    # (200): allauth sends a logged-in account on from its log-in and sign-up steps (302).
    get_status: frozenset | None = None


GET, POST, BOTH = ("GET",), ("POST",), ("GET", "POST")
SENT_ON = frozenset({302})

# Every URL pattern of the site except the admin's, by route. A new pattern fails
# test_every_url_pattern_is_in_the_matrix until it is added here.
MATRIX: dict[str, Rule] = {
    # Accounts (django.contrib.auth): the same for everyone.
    "accounts/login/": Rule(ANYONE, "site", BOTH, writes=True, get_status=SENT_ON),
    "accounts/logout/": Rule(ANYONE, "site", POST, writes=True, get_status=frozenset({200})),
    "accounts/password/change/": Rule(LOGGED_IN, "site", BOTH, writes=True),
    "accounts/password/set/": Rule(LOGGED_IN, "site", BOTH, writes=True, get_status=SENT_ON),
    "accounts/password/reset/": Rule(ANYONE, "site", BOTH, writes=True),
    "accounts/password/reset/done/": Rule(ANYONE, "site"),
    r"accounts/^password/reset/key/(?P<uidb36>[0-9A-Za-z]+)-(?P<key>.+)/$": Rule(
        ANYONE, "site", BOTH, writes=True, path="/accounts/password/reset/key/1-set-password/"
    ),
    "accounts/password/reset/key/done/": Rule(ANYONE, "site"),
    "accounts/signup/": Rule(ANYONE, "site", BOTH, writes=True, get_status=SENT_ON),
    "accounts/inactive/": Rule(ANYONE, "site"),
    "accounts/reauthenticate/": Rule(LOGGED_IN, "site", BOTH, writes=True),
    "accounts/email/": Rule(LOGGED_IN, "site", BOTH, writes=True),
    "accounts/confirm-email/": Rule(ANYONE, "site"),
    # A link from a confirmation mail: a wrong key shows "expired or invalid" (a POST of it 404s).
    r"accounts/^confirm-email/(?P<key>[-:\w]+)/$": Rule(
        ANYONE, "site", GET, writes=True, path="/accounts/confirm-email/no-such-key/"
    ),
    "accounts/login/code/confirm/": Rule(LOGGED_IN, "site", BOTH, writes=True, get_status=SENT_ON),
    # Discord: no application is configured in the tests, so its log-in does not exist.
    "accounts/discord/login/": Rule(NOWHERE, "site", BOTH),
    "accounts/discord/login/callback/": Rule(NOWHERE, "site"),
    "accounts/3rdparty/": Rule(LOGGED_IN, "site", BOTH, writes=True),
    "accounts/3rdparty/login/cancelled/": Rule(ANYONE, "site"),
    "accounts/3rdparty/login/error/": Rule(AUTH_ERROR, "site"),
    "accounts/3rdparty/signup/": Rule(LOGIN_STAGE, "site", BOTH, writes=True, get_status=SENT_ON),
    # allauth's old addresses, redirecting to the ones above.
    "accounts/social/login/cancelled/": Rule(
        ANYONE, "site", path="/accounts/social/login/cancelled/"
    ),
    "accounts/social/login/error/": Rule(ANYONE, "site", path="/accounts/social/login/error/"),
    "accounts/social/signup/": Rule(ANYONE, "site", path="/accounts/social/signup/"),
    "accounts/social/connections/": Rule(ANYONE, "site", path="/accounts/social/connections/"),
    # A player's own pages and claims.
    "me/": Rule(LOGGED_IN, "site"),
    "me/claim/": Rule(LOGGED_IN, "site", BOTH, writes=True),
    "me/language/": Rule(LOGGED_IN, "site", BOTH, writes=True),
    "leagues/<slug:slug>/players/<int:player_id>/claim/": Rule(
        CLAIM_PLAYER, "league", POST, writes=True
    ),
    "organizations/<slug:org>/players/": Rule(MANAGE_ORGANIZATION, "organization"),
    "organizations/<slug:org>/players/<int:player_id>/claim-code/": Rule(
        MANAGE_ORGANIZATION, "organization", POST, writes=True
    ),
    "organizations/<slug:org>/claims/<int:pk>/": Rule(
        MANAGE_ORGANIZATION, "claim", POST, writes=True, extra={"decision": "refuse"}
    ),
    # JSON API.
    "api/^leagues/(?P<slug>[-a-zA-Z0-9_]+)/scores/?$": Rule(SEE_LEAGUE, "league"),
    "api/^leagues/(?P<slug>[-a-zA-Z0-9_]+)/ratings/?$": Rule(SEE_LEAGUE, "league"),
    "api/^leagues/(?P<slug>[-a-zA-Z0-9_]+)/games/?$": Rule(
        API_SESSION_POST, "league", POST, writes=True
    ),
    "api/^openapi\\.json$": Rule(ANYONE, "site"),
    "api/^": Rule(API_NOT_FOUND, "site", path="/api/no-such-endpoint/"),
    # Ratings.
    "leagues/<slug:slug>/lab/": Rule(SEE_LEAGUE, "league"),
    "leagues/<slug:slug>/rating-settings/": Rule(MANAGE_LEAGUE, "league", BOTH, writes=True),
    # Tournaments.
    "leagues/<slug:slug>/events/": Rule(SEE_LEAGUE, "league"),
    "leagues/<slug:slug>/events/new/": Rule(CREATE_EVENT, "league", BOTH, writes=True),
    "events/<slug:slug>/": Rule(SEE_EVENT, "event"),
    "events/<slug:slug>/standings/": Rule(SEE_EVENT, "event"),
    "events/<slug:slug>/projector/": Rule(SEE_EVENT, "event"),
    "events/<slug:slug>/bracket/": Rule(SEE_EVENT, "event"),
    "events/<slug:slug>/players/<int:player_id>/": Rule(SEE_EVENT, "event"),
    "events/<slug:slug>/run/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/run/live/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/rounds/<int:number>/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/register/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/player-names/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/pair/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/finish/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/top-cut/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/rounds/<int:number>/end/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/rounds/<int:number>/next/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/rounds/<int:number>/clock/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/rounds/<int:number>/extension/": Rule(
        RUN_EVENT, "event", POST, writes=True
    ),
    "events/<slug:slug>/rounds/<int:number>/edit/": Rule(RUN_EVENT, "event", BOTH, writes=True),
    "events/<slug:slug>/entries/<int:entry_id>/actions/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/tables/<int:table_id>/seats/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/tables/<int:table_id>/order/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/entries/<int:entry_id>/drop/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/entries/<int:entry_id>/undrop/": Rule(
        RUN_EVENT, "event", POST, writes=True
    ),
    "events/<slug:slug>/entries/<int:entry_id>/bye/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/entries/<int:entry_id>/remove/": Rule(
        RUN_EVENT, "event", POST, writes=True
    ),
    "events/<slug:slug>/tables/<int:table_id>/report/": Rule(RUN_EVENT, "event", POST, writes=True),
    # Finding events: a store's upcoming events, the calendar file, time-place-fee, copies.
    "stores/<slug:org>/": Rule(SEE_STORE, "organization"),
    "events/<slug:slug>/calendar.ics": Rule(SEE_EVENT, "event"),
    "events/<slug:slug>/run/listing/": Rule(RUN_EVENT, "event", BOTH, writes=True),
    # Pairing the next round on the TO's phone without the server (issue 34): the page, the
    # snapshot it keeps, and the round sent back.
    "events/<slug:slug>/run/offline/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/run/offline/snapshot/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/run/offline/round/": Rule(RUN_EVENT, "event", POST, writes=True),
    # The paper pack: the round's sheets to print, for whoever runs the event (read only).
    "events/<slug:slug>/run/paper/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/run/paper/pairings/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/run/paper/seats/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/run/paper/slips/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/run/paper/standings/": Rule(RUN_EVENT, "event"),
    # Offline (tournaments/offline): the web app's service worker and manifest hold no data;
    # the event's state the TO's phone keeps is for whoever runs the event.
    "offline/sw.js": Rule(ANYONE, "site"),
    # What a search engine may index (config/robots.py): the same text for everyone.
    "robots.txt": Rule(ANYONE, "site"),
    # The footer's language switch (a cookie, and the account's choice) and each language's
    # catalogue of the scripts' strings (core/views.py).
    "i18n/setlang/": Rule(ANYONE, "site", POST, writes=True),
    "jsi18n/<str:lang>.js": Rule(ANYONE, "site", path="/jsi18n/de.js"),
    "offline/manifest.webmanifest": Rule(ANYONE, "site"),
    "events/<slug:slug>/run/offline/state/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/copy/": Rule(COPY_EVENT, "event", BOTH, writes=True),
    # Online registration and check-in.
    "events/<slug:slug>/run/registration/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/run/registration/settings/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/run/check-in/open/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/run/check-in/close/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/run/registrations/<int:registration_id>/paid/": Rule(
        RUN_EVENT, "event", POST, writes=True
    ),
    "events/<slug:slug>/join/": Rule(OWN_REGISTRATION, "event", POST, writes=True),
    "events/<slug:slug>/leave/": Rule(OWN_REGISTRATION, "event", POST, writes=True),
    "events/<slug:slug>/check-in/": Rule(SEE_EVENT, "event", BOTH, writes=True),
    "events/<slug:slug>/check-in/<str:token>/": Rule(SEE_EVENT, "event", BOTH, writes=True),
    # Decks.
    "leagues/<slug:slug>/decks/": Rule(SEE_LEAGUE, "league"),
    "events/<slug:slug>/my-deck/": Rule(OWN_ENTRY, "event", BOTH, writes=True),
    # The commander picker's suggestions: public card data, read only.
    "cards/commanders/": Rule(ANYONE, "site"),
    # A stored art crop (public, as the pages that show it; tests/cards/test_card_images.py):
    # the scenes store none, so an Oracle id's crop is a 404 for everyone here.
    r"^media/cards/art/(?P<name>[0-9a-f-]{36}\.(?:jpg|png))$": Rule(
        NOWHERE, "site", path="/media/cards/art/00000000-0000-4000-8000-000000000000.jpg"
    ),
    "events/<slug:slug>/entries/<int:entry_id>/deck/": Rule(RUN_EVENT, "event", BOTH, writes=True),
    "events/<slug:slug>/run/decks/": Rule(RUN_EVENT, "event", POST, writes=True),
    # Players' own results: the signed-in player's page (a player of the event only), the
    # same through a registration's link (whoever holds it and may see the event; the
    # scene's link is a waitlisted player's, who holds no seat), and the TO's pick.
    "events/<slug:slug>/me/": Rule(OWN_ENTRY, "event", BOTH, writes=True),
    # The signed-in player drops themselves (the address names no entry: their own only).
    "events/<slug:slug>/me/drop/": Rule(
        OWN_ENTRY, "event", BOTH, writes=True, extra={"confirm": "yes"}
    ),
    "events/<slug:slug>/me/<str:token>/": Rule(SEE_EVENT, "event", BOTH, writes=True),
    "events/<slug:slug>/reports/<int:report_id>/accept/": Rule(
        RUN_EVENT, "event", POST, writes=True
    ),
    # The judges' desk: calls, penalties and deck checks, for whoever runs the event (a call,
    # a check or a penalty named in the form; none named is a refused form, 400). A player
    # calls from their own page (signed in: their own entry only; by their link: whoever
    # holds it, the scene's being a waitlisted player's, told they hold no seat), and the TO
    # from a table's card.
    "events/<slug:slug>/judge/": Rule(RUN_EVENT, "event"),
    "events/<slug:slug>/judge/calls/": Rule(RUN_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/judge/penalties/": Rule(RUN_EVENT, "event", BOTH, writes=True),
    "events/<slug:slug>/judge/deck-checks/": Rule(RUN_EVENT, "event", BOTH, writes=True),
    "events/<slug:slug>/judge/call/": Rule(
        OWN_ENTRY, "event", POST, writes=True, extra={"reason": "ruling"}
    ),
    "events/<slug:slug>/judge/call/<str:token>/": Rule(SEE_EVENT, "event", POST, writes=True),
    "events/<slug:slug>/tables/<int:table_id>/judge-call/": Rule(
        RUN_EVENT, "event", POST, writes=True
    ),
    # Achievement leagues (achievements/): the leaderboard as the league; a player's own
    # games, where they claim and confirm; settling and awarding for whoever runs the store's
    # nights; the achievements and their points for the league's managers.
    "leagues/<slug:slug>/achievements/": Rule(SEE_LEAGUE, "league"),
    "leagues/<slug:slug>/achievements/me/": Rule(OWN_PLAYER, "league", BOTH, writes=True),
    "leagues/<slug:slug>/achievements/claims/": Rule(CREATE_EVENT, "league"),
    "leagues/<slug:slug>/achievements/claims/<int:claim_id>/settle/": Rule(
        CREATE_EVENT, "league", POST, writes=True, extra={"decision": "accept"}
    ),
    "leagues/<slug:slug>/achievements/award/": Rule(CREATE_EVENT, "league", BOTH, writes=True),
    "leagues/<slug:slug>/achievements/new/": Rule(MANAGE_LEAGUE, "league", BOTH, writes=True),
    "leagues/<slug:slug>/achievements/<int:pk>/edit/": Rule(
        MANAGE_LEAGUE, "achievement", BOTH, writes=True
    ),
    "leagues/<slug:slug>/achievements/points/": Rule(MANAGE_LEAGUE, "league", BOTH, writes=True),
    # Leagues.
    "": Rule(ANYONE, "site"),
    # The design system's style guide: development only (settings.STYLE_GUIDE), for anyone.
    **({"style-guide/": Rule(ANYONE, "site")} if settings.STYLE_GUIDE else {}),
    "leagues/<slug:slug>/": Rule(SEE_LEAGUE, "league"),
    "leagues/<slug:slug>/games/": Rule(SEE_LEAGUE, "league"),
    "leagues/<slug:slug>/players/<int:player_id>/": Rule(SEE_LEAGUE, "league"),
    "leagues/<slug:slug>/export.csv": Rule(SEE_LEAGUE, "league"),
    "leagues/<slug:slug>/games/new/": Rule(MANAGE_LEAGUE, "league", BOTH, writes=True),
    "leagues/<slug:slug>/games/new/row/": Rule(MANAGE_LEAGUE, "league", extra={"index": "1"}),
    "games/<int:pk>/edit/": Rule(MANAGE_LEAGUE, "game", BOTH, writes=True),
    "games/<int:pk>/delete/": Rule(MANAGE_LEAGUE, "game", BOTH, writes=True),
    "leagues/<slug:slug>/import/": Rule(MANAGE_LEAGUE, "league", BOTH, writes=True),
    "imports/<int:pk>/": Rule(MANAGE_LEAGUE, "import", BOTH, writes=True),
    # Background jobs: the progress fragment of the scene's import job (organizers only; a
    # re-rating's or the lab's progress is as public as its league: tests/jobs).
    "jobs/<int:pk>/": Rule(MANAGE_LEAGUE, "job", extra={}),
    "organizations/<slug:org>/history/": Rule(MANAGE_ORGANIZATION, "organization"),
    "organizations/<slug:org>/history/<int:pk>/undo/": Rule(
        MANAGE_ORGANIZATION, "audit", POST, writes=True
    ),
    # Notifications: an account's own e-mail choices; a store's webhook, its test message and
    # its recent deliveries (its owners and organizers only, like its players and history).
    "me/notifications/": Rule(LOGGED_IN, "site", BOTH, writes=True),
    "organizations/<slug:org>/notifications/": Rule(
        MANAGE_ORGANIZATION, "organization", BOTH, writes=True
    ),
    "organizations/<slug:org>/notifications/test/": Rule(
        MANAGE_ORGANIZATION, "organization", POST, writes=True
    ),
    "organizations/<slug:org>/notifications/<int:pk>/retry/": Rule(
        MANAGE_ORGANIZATION, "delivery", POST, writes=True
    ),
    # A store set up from its pages. The staff routes are checked with an id that is not one
    # of the store's memberships or invitations: the owner is told nothing is left to do.
    "organizations/new/": Rule(SITE_ADMIN, "site", BOTH, writes=True),
    "organizations/<slug:org>/store/": Rule(STORE_SETUP, "organization"),
    "organizations/<slug:org>/leagues/new/": Rule(STORE_SETUP, "organization", BOTH, writes=True),
    "organizations/<slug:org>/store/profile/": Rule(STORE_OWNER, "organization", BOTH, writes=True),
    "organizations/<slug:org>/store/invite/": Rule(
        STORE_OWNER, "organization", POST, writes=True, extra={"email": "new@example.com"}
    ),
    "organizations/<slug:org>/store/staff/<int:pk>/role/": Rule(
        STORE_OWNER, "organization", POST, writes=True, extra={"role": "judge"}
    ),
    "organizations/<slug:org>/store/staff/<int:pk>/remove/": Rule(
        STORE_OWNER, "organization", POST, writes=True
    ),
    "organizations/<slug:org>/store/invitations/<int:pk>/cancel/": Rule(
        STORE_OWNER, "organization", POST, writes=True
    ),
    "organizations/<slug:org>/logo/": Rule(NO_LOGO, "organization"),
    # Points seasons of a league (seasons/): read as the league is, changed by its managers.
    "leagues/<slug:slug>/seasons/": Rule(SEE_LEAGUE, "league"),
    "leagues/<slug:slug>/seasons/new/": Rule(MANAGE_LEAGUE, "league", BOTH, writes=True),
    "leagues/<slug:slug>/seasons/<int:pk>/": Rule(SEE_LEAGUE, "season"),
    "leagues/<slug:slug>/seasons/<int:pk>/export.csv": Rule(SEE_LEAGUE, "season"),
    "leagues/<slug:slug>/seasons/<int:pk>/players/<int:player_id>/": Rule(SEE_LEAGUE, "season"),
    "leagues/<slug:slug>/seasons/<int:pk>/types/": Rule(SEE_LEAGUE, "season"),
    "leagues/<slug:slug>/seasons/<int:pk>/edit/": Rule(MANAGE_LEAGUE, "season", BOTH, writes=True),
    "leagues/<slug:slug>/seasons/<int:pk>/events/": Rule(
        MANAGE_LEAGUE, "season", BOTH, writes=True
    ),
    "leagues/<slug:slug>/seasons/<int:pk>/types/new/": Rule(
        MANAGE_LEAGUE, "season", BOTH, writes=True
    ),
    "leagues/<slug:slug>/seasons/<int:pk>/types/<int:type_id>/": Rule(
        MANAGE_LEAGUE, "season", BOTH, writes=True
    ),
    "leagues/<slug:slug>/seasons/<int:pk>/types/<int:type_id>/remove/": Rule(
        MANAGE_LEAGUE, "season", POST, writes=True
    ),
    "leagues/<slug:slug>/seasons/<int:pk>/qualify/": Rule(
        MANAGE_LEAGUE, "season", BOTH, writes=True
    ),
    # Series across stores (seasons.series_views).
    "series/<slug:series>/": Rule(SERIES_PUBLIC, "series"),
    "series/<slug:series>/seasons/<int:pk>/": Rule(SERIES_PUBLIC, "series"),
    "series/<slug:series>/seasons/<int:pk>/export.csv": Rule(SERIES_PUBLIC, "series"),
    "series/<slug:series>/manage/": Rule(SERIES_HOST, "series"),
    "series/<slug:series>/invite/": Rule(
        SERIES_HOST, "series", POST, writes=True, extra={"store": "alpha"}
    ),
    "series/<slug:series>/links/": Rule(SERIES_HOST, "series", BOTH, writes=True),
    "series/<slug:series>/links/<int:pk>/remove/": Rule(SERIES_HOST, "series", POST, writes=True),
    "series/<slug:series>/seasons/new/": Rule(SERIES_HOST, "series", BOTH, writes=True),
    "series/<slug:series>/seasons/<int:pk>/qualify/": Rule(
        SERIES_HOST, "series", BOTH, writes=True
    ),
    "series/<slug:series>/seasons/<int:pk>/types/new/": Rule(
        SERIES_HOST, "series", BOTH, writes=True
    ),
    "series/<slug:series>/seasons/<int:pk>/types/<int:type_id>/": Rule(
        SERIES_HOST, "series", BOTH, writes=True
    ),
    "organizations/<slug:org>/series/": Rule(STORE_SETUP, "organization"),
    "organizations/<slug:org>/series/new/": Rule(STORE_SETUP, "organization", BOTH, writes=True),
    "organizations/<slug:org>/series/<int:pk>/accept/": Rule(
        SERIES_DECIDE, "series_member", POST, writes=True
    ),
    "organizations/<slug:org>/series/<int:pk>/decline/": Rule(
        SERIES_DECIDE, "series_member", POST, writes=True
    ),
    "organizations/<slug:org>/series/<int:pk>/leave/": Rule(
        STORE_OWNER, "series_member", POST, writes=True
    ),
    "organizations/<slug:org>/series/<int:pk>/seasons/<int:season_id>/events/": Rule(
        STORE_SETUP, "series_member", BOTH, writes=True
    ),
    # Likewise the scenes' stores have no accent colour: its stylesheet is a 404 for everyone.
    "organizations/<slug:org>/theme.css": Rule(NO_LOGO, "organization"),
    # An invitation's link: an unknown one is a 404 to every account (tests/leagues).
    "organizations/<slug:org>/join/<str:token>/": Rule(
        {**NOWHERE, "anonymous": LOGIN},
        "site",
        BOTH,
        writes=True,
        path="/organizations/alpha/join/no-such-invitation/",
        get_status=frozenset({404}),
    ),
}

# The one view that takes no CSRF token: it authenticates by API token and refuses a session.
TOKEN_AUTHENTICATED = {"api/^leagues/(?P<slug>[-a-zA-Z0-9_]+)/games/?$"}
# The API's catch-all answers every method with its JSON 404 (an API client gets JSON, not
# Django's HTML CSRF page, for a mistyped address); it has nothing to write.
CSRF_EXEMPT_NOT_FOUND = {"api/^"}

ADMIN_PREFIX = "admin/"


# --- Discovering the URL patterns ------------------------------------------------------------


def walk(patterns, prefix=""):
    """(route, pattern) for every URL pattern under `patterns`, recursively."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from walk(entry.url_patterns, prefix + str(entry.pattern))
        else:
            assert isinstance(entry, URLPattern)
            yield prefix + str(entry.pattern), entry


def site_routes() -> dict[str, URLPattern]:
    return dict(walk(get_resolver().url_patterns))


def admin_routes() -> set[str]:
    return {ADMIN_PREFIX + route for route, _ in walk(admin.site.get_urls())}


def test_every_url_pattern_is_in_the_matrix():
    """A URL pattern nobody has decided about fails here, so no view ships unprotected."""
    routes = site_routes()
    delegated = {route for route in routes if route.startswith(ADMIN_PREFIX)}
    # Everything under admin/ is the admin site's own: checked by the admin tests below.
    assert delegated == admin_routes()
    undecided = sorted(set(routes) - delegated - set(MATRIX))
    assert not undecided, f"URL patterns missing from the permission matrix: {undecided}"
    stale = sorted(set(MATRIX) - set(routes))
    assert not stale, f"The matrix lists patterns that no longer exist: {stale}"


def test_the_matrix_catches_a_new_view(settings):
    """The check above can fail: a project with one more view is refused."""
    from django.urls import clear_url_caches, path

    import config.urls

    class Urls:
        urlpatterns = [*config.urls.urlpatterns, path("new-view/", lambda request: None)]

    settings.ROOT_URLCONF = Urls
    clear_url_caches()
    try:
        with pytest.raises(AssertionError, match="new-view/"):
            test_every_url_pattern_is_in_the_matrix()
    finally:
        clear_url_caches()


# --- The world -------------------------------------------------------------------------------


@dataclass
class Scene:
    league: object
    player: object  # played the scene's game
    game: object
    batch: object
    events: dict  # "1v1" / "pods" -> Tournament with round 1 paired
    correction: object  # the audit entry of a correction of the scene's game (undoable)
    job: object  # a background job importing the scene's upload
    claim: object  # an account's claim to be one of the store's players, waiting
    delivery: object  # a channel message of the store that failed (for "Send again")
    season: object  # a points season counting the 1v1 event
    achievement: object  # an achievement of the league
    achievement_claim: object  # the scene's player's claim of it in the game, waiting
    # The store's series (hosted, with the other store taking part), a season of it, and the
    # store's membership in the other store's series with that series' season.
    series: object = None
    series_season: object = None
    membership: object = None
    membership_season: object = None
    # The ids `url_for` reads from the database, by format: the same for every route, and
    # every request's writes are rolled back, so read once per scene (`_scene_values`).
    values: dict = field(default_factory=dict)


def _scene(key: str, organization, public: bool) -> Scene:
    league = LeagueFactory(
        organization=organization, slug=key.replace("_", "-"), name=key, is_public=public
    )
    names = [f"{key} player {n}" for n in range(8)]
    players = [PlayerFactory(organization=organization, name=name) for name in names]
    game = GameFactory(league=league, players=players[:4])
    batch = league_services.import_batch_create(
        league=league, text=f"x,2026-11-20,{names[0]},{names[1]}\n", filename="games.csv"
    )
    events = {}
    for fmt, count in (("1v1", 4), ("pods", 8)):
        event = TournamentFactory(
            league=league, slug=f"{league.slug}-{fmt}", pods=fmt == "pods", name=f"{key} {fmt}"
        )
        for name in names[:count]:
            entry_register(tournament=event, name=name, create_player=True)
        # One player on the waitlist (registered online), for the registration pages.
        Registration.objects.create(
            tournament=event,
            player=PlayerFactory(organization=organization, name=f"{key} {fmt} waiting"),
            status="waitlisted",
        )
        first = round_pair(tournament=event).tables.order_by("number")[0]
        # A player's report waiting for confirmation, for the TO's "accept" (report_id).
        reporter = first.seats.order_by("position")[0].entry
        seated = first.seats.values_list("entry_id", flat=True)
        # A pod's winner alone; a match's 2-0.
        games = {e: 2 if e == reporter.pk else 0 for e in seated} if fmt == "1v1" else {}
        result = Result(winner=reporter.pk, game_wins=games)
        report_submit(table=first, entry=reporter, result=result)
        events[fmt] = event
    results = [
        league_services.ResultIn(player=r.player, place=r.placement, seat=r.seat)
        for r in game.results.all()
    ]
    league_services.game_update(
        game=game, results=results, played_on=game.played_on, notes="corrected"
    )
    correction = AuditEntry.objects.get(league=league, action="game.correct")
    job = Job.objects.create(
        kind=league_jobs.IMPORT_APPLY, league=league, import_batch=batch, key=f"matrix:{key}"
    )
    claim = PlayerClaim.objects.create(player=players[1], user=UserFactory(username=f"{key}-me"))
    StoreWebhook.objects.get_or_create(
        organization=organization, defaults={"url": "https://discord.com/api/webhooks/1/x"}
    )
    delivery = Delivery.objects.create(
        key=f"matrix:{key}",
        kind="test",
        channel="webhook",
        organization=organization,
        target="https://discord.com/api/webhooks/1/x",
        status="failed",
    )
    season = season_create(
        league=league,
        name=f"{key} season",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 12, 31),
        preset="store_points",
    )
    season_events_set(season=season, choices={events["1v1"].pk: season.event_types.get().pk})
    achievement = achievement_save(league=league, name="Knockout", points=2, per="game")
    achievement_claim = claim_submit(game=game, player=players[0], achievement=achievement)
    return Scene(
        achievement=achievement,
        achievement_claim=achievement_claim,
        season=season,
        claim=claim,
        delivery=delivery,
        league=league,
        player=players[0],
        game=game,
        batch=batch,
        events=events,
        correction=correction,
        job=job,
    )


@dataclass
class World:
    store_a: object
    store_b: object
    users: dict
    scenes: dict
    tokens: dict  # store key -> the plaintext of an API token of that store
    # Each role's signed-in client, and a superuser's that enforces CSRF: signed in once for
    # the module (`world`), not once per route. Each request's writes are rolled back and its
    # cookies put back (`_request`), so every route's requests find the same session.
    clients: dict = field(default_factory=dict)
    csrf_client: object = None


def build_world() -> World:
    store_a = OrganizationFactory(name="Alpha Games", slug="alpha")
    store_b = OrganizationFactory(name="Beta Cards", slug="beta")
    scenes = {
        "a_pub": _scene("a_pub", store_a, True),
        "a_priv": _scene("a_priv", store_a, False),
        "b_pub": _scene("b_pub", store_b, True),
        "b_priv": _scene("b_priv", store_b, False),
    }
    player_user = UserFactory(username="pat")
    scenes["a_pub"].player.user = player_user
    scenes["a_pub"].player.save(update_fields=["user"])
    event_judge = UserFactory(username="eve")
    for event in scenes["a_priv"].events.values():
        TournamentJudge.objects.create(tournament=event, user=event_judge)
    users = {
        "anonymous": None,
        "stranger": UserFactory(username="stan"),
        "player": player_user,
        "event_judge": event_judge,
        "judge": organizer_of(store_a, role=Role.JUDGE, username="judy"),
        "organizer": organizer_of(store_a, role=Role.ORGANIZER, username="olive"),
        "owner": organizer_of(store_a, role=Role.OWNER, username="owen"),
        "superuser": UserFactory(username="root", is_superuser=True, is_staff=True),
    }
    # Their addresses on record, as allauth keeps them for an account that signed up (its
    # e-mail page adds the row on a GET for an account made elsewhere).
    for user in users.values():
        if user is not None:
            EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    # Store B has its own staff and tokens, so every admin list has rows of both stores.
    owner_b = organizer_of(store_b, role=Role.OWNER, username="bea")
    users.update(_joined_online(store_a, scenes))
    _series(store_a, store_b, scenes, owners={"a": users["owner"], "b": owner_b})
    tokens = {
        "a": ApiToken.issue(organization=store_a, name="scorebot A")[1],
        "b": ApiToken.issue(organization=store_b, name="scorebot B")[1],
    }
    return World(store_a=store_a, store_b=store_b, users=users, scenes=scenes, tokens=tokens)


def _series(store_a, store_b, scenes, owners) -> None:
    """Each store hosts a series the other takes part in (invited, accepted by its owner)."""
    stores = {"a": store_a, "b": store_b}
    hosted, seasons, members = {}, {}, {}
    for key, other in (("a", "b"), ("b", "a")):
        hosted[key] = series_create(organization=stores[key], name=f"{stores[key].name} Cup")
        seasons[key] = season_create(
            series=hosted[key],
            name=f"{key} cup season",
            starts_on=datetime.date(2026, 1, 1),
            ends_on=datetime.date(2026, 12, 31),
            preset="store_points",
        )
        member = series_invite(series=hosted[key], organization=stores[other])
        members[other] = invitation_decide(member=member, accept=True, by=owners[other])
    for scene_key, scene in scenes.items():
        key, other = scene_key[0], "b" if scene_key[0] == "a" else "a"
        scene.series, scene.series_season = hosted[key], seasons[key]
        scene.membership, scene.membership_season = members[key], seasons[other]


def _joined_online(store_a, scenes) -> dict:
    """Two accounts that registered online, by the join form's service, for an open event
    of store A's public league: a new account, and a player store B linked (who sees store
    B's private league)."""
    league = scenes["a_pub"].league
    open_event = tournament_create(league=league, name="a_pub open", format="1v1")
    registration_settings_set(tournament=open_event, open=True, cap=16, deadline=None, note="")
    newcomer = UserFactory(username="nora")
    other = UserFactory(username="otto")
    PlayerFactory(organization=scenes["b_pub"].league.organization, name="Otto B", user=other)
    for user, name in ((newcomer, "Nora"), (other, "Otto")):
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
        player = league_services.player_join(user=user, organization=store_a, name=name)
        registration_join(tournament=open_event, player=player)
    return {"joined_online": newcomer, "other_store_player": other}


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> World:
    """One world for the module, built in a transaction rolled back after the last test;
    each test runs in a savepoint inside it, as pytest-django's `db` does."""
    with django_db_blocker.unblock(), transaction.atomic():
        world = build_world()
        # Outside any test's savepoint, so the sessions last the module.
        world.clients = {role: client_for(user) for role, user in world.users.items()}
        world.csrf_client = client_for(world.users["superuser"], enforce_csrf_checks=True)
        yield world
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def pseudo(world, django_db_blocker, tmp_path_factory) -> frozenset[str]:
    """The matrix's requests in the pseudo-locale (tests/pseudolocale.py): every page every
    role reaches is read for text that escaped translation, on the responses the matrix
    fetches anyway. Gives what people typed (the world's text), which is not counted."""
    folder = pseudolocale.built(str(tmp_path_factory.getbasetemp()))
    languages = [*settings.LANGUAGES, (pseudolocale.PSEUDO, "Pseudo")]
    with override_settings(LOCALE_PATHS=[folder, *settings.LOCALE_PATHS], LANGUAGES=languages):
        for client in world.clients.values():
            client.cookies[settings.LANGUAGE_COOKIE_NAME] = pseudolocale.PSEUDO
        with django_db_blocker.unblock():
            typed = pseudolocale.database_text()
        yield typed
        for client in world.clients.values():
            client.cookies.pop(settings.LANGUAGE_COOKIE_NAME, None)


# Pages not read for escaped text: the style guide is a developer's page (DEBUG only), in
# English on purpose.
NOT_TRANSLATED = {"style-guide/"}


def escaped_in_view(method: str, response, typed) -> list[str]:
    """The visible text of a page a GET drew that escaped translation, less the known ones
    (pseudolocale.KNOWN: each with what is missing)."""
    if method != "GET" or response.status_code != 200:
        return []
    if not response.get("Content-Type", "").startswith("text/html") or response.streaming:
        return []
    found = pseudolocale.untranslated(response.content.decode(), typed)
    return [text for text in found if text not in pseudolocale.KNOWN]


def client_for(user, **kwargs) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def url_for(route: str, rule: Rule, scene: Scene | None, fmt: str) -> str:
    """The address of `route`, its arguments filled from the scene's objects."""
    if rule.path is not None:
        return rule.path
    pattern = site_routes()[route]
    names = set(pattern.pattern.regex.groupindex)
    values = {"uidb64": "MQ", "token": "set-password", "number": 1}
    if scene is not None:
        event = scene.events[fmt]
        read = _scene_values(scene, fmt)
        pks = {
            "import": scene.batch.pk,
            "audit": scene.correction.pk,
            "job": scene.job.pk,
            "claim": scene.claim.pk,
            "delivery": scene.delivery.pk,
            "season": scene.season.pk,
            "series": scene.series_season.pk,
            "series_member": scene.membership.pk,
            "achievement": scene.achievement.pk,
        }
        values.update(
            org=scene.league.organization.slug,
            slug=event.slug if rule.target == "event" else scene.league.slug,
            pk=pks.get(rule.target, scene.game.pk),
            player_id=scene.player.pk,
            entry_id=read["entry_id"],
            table_id=read["table_id"],
            registration_id=read["registration_id"],
            report_id=read["report_id"],
            type_id=read["series_type_id" if rule.target == "series" else "type_id"],
            series=scene.series.slug,
            season_id=scene.membership_season.pk,
            claim_id=scene.achievement_claim.pk,
        )
        if rule.target == "event":
            values["token"] = read["token"]
    return reverse(pattern.name, kwargs={name: values[name] for name in names})


def _scene_values(scene: Scene, fmt: str) -> dict:
    """The ids of the scene's `fmt` event (its first entry, first table of round 1, its
    registration and its token, a result report) and its seasons' event types: read once."""
    if fmt not in scene.values:
        event = scene.events[fmt]
        registration = event.registrations.get()
        scene.values[fmt] = {
            "entry_id": event.entries.order_by("pk").first().pk,
            "table_id": event.rounds.get(number=1).tables.order_by("number").first().pk,
            "registration_id": registration.pk,
            "token": registration.token,
            "report_id": ResultReport.objects.filter(table__round__tournament=event).first().pk,
            "type_id": scene.season.event_types.get().pk,
            "series_type_id": scene.series_season and scene.series_season.event_types.get().pk,
        }
    return scene.values[fmt]


def cases(route: str, rule: Rule, world: World):
    """(label, {role: expected outcome}, url) for every object `route` is checked on."""
    if rule.target == "site":
        yield "site", rule.expect, url_for(route, rule, None, "")
        return
    formats = ("1v1", "pods") if rule.target == "event" else ("1v1",)
    for key in SCENES:
        expected = {role: rule.expect[role][key] for role in ROLES}
        for fmt in formats:
            label = f"{key} {fmt}" if rule.target == "event" else key
            yield label, expected, url_for(route, rule, world.scenes[key], fmt)


# --- Requests --------------------------------------------------------------------------------


def outcome(response):
    status = response.status_code
    if status in (301, 302):
        login = resolve_url(settings.LOGIN_URL)
        if response.url.startswith(login) or response.url.startswith("/admin/login/"):
            return LOGIN
        return OK
    if status in (DENIED, HIDDEN, UNAUTHORIZED):
        return status
    assert status < 500, f"server error {status}"
    return OK


def request_rolled_back(client: Client, method: str, url: str, data=None, **headers):
    """Send one request in a savepoint that is rolled back, and put the client's cookies
    back (a logout would otherwise end the session for the next request)."""
    response, _ = _request(client, method, url, data, watch=False, **headers)
    return response


def request_watched(client: Client, method: str, url: str, data=None, **headers):
    """`request_rolled_back`, and the tables the request wrote to before the rollback."""
    return _request(client, method, url, data, watch=True, **headers)


def _request(client, method, url, data, *, watch: bool, **headers):
    cookies = copy.deepcopy(client.cookies)
    changed = []
    with transaction.atomic():
        if watch:
            before = rows_written()
        response = getattr(client, method.lower())(url, data or {}, **headers)
        if watch:
            changed = changed_tables(before, rows_written())
        transaction.set_rollback(True)
    client.cookies = cookies
    return response, changed


# --- The matrix, URL by URL ------------------------------------------------------------------


@pytest.mark.parametrize("route", sorted(MATRIX))
def test_each_role_gets_what_the_matrix_says(world, pseudo, route):
    """Every role's request of every object of `route`, each made once; every check that
    reads a response reads that one: the matrix's outcome, the help paragraphs of the page a
    GET drew, the text of that page that escaped translation (the requests are made in the
    pseudo-locale), and a superuser's requests that must write nothing (a GET, and for a URL
    the matrix calls read-only a POST). All the failures are reported at once, by check."""
    rule = MATRIX[route]
    clients = world.clients
    wrong, helpful, wrote, escaped = [], {}, [], {}
    for index, (label, expected, url) in enumerate(cases(route, rule, world)):
        # The superuser's requests whose writes are counted (see "GET never writes" below).
        watched = {"GET"} | ({"POST"} if index == 0 and not rule.writes else set())
        for method in dict.fromkeys((*rule.methods, *sorted(watched))):
            for role in ROLES:
                in_matrix = method in rule.methods
                if role == "superuser" and method in watched:
                    response, changed = request_watched(clients[role], method, url, rule.extra)
                    wrote += superuser_wrote(rule, method, url, label, response, changed)
                elif in_matrix:
                    response = request_rolled_back(clients[role], method, url, rule.extra)
                else:
                    continue
                if not in_matrix:
                    continue
                got = outcome(response)
                if got != expected[role]:
                    wrong.append(f"{method} {url} ({label}) as {role}: {got}, not {expected[role]}")
                for text in help_in_view(method, response):
                    helpful.setdefault(f"{url}: {text[:80]}…", []).append(role)
                if route not in NOT_TRANSLATED:
                    for text in escaped_in_view(method, response, pseudo):
                        escaped.setdefault(f"{url}: {text!r}", []).append(role)
    report = []
    if wrong:
        report += ["Not what the matrix says:", *wrong]
    if wrote:
        report += ["A superuser's request the matrix says writes nothing wrote:", *wrote]
    # docs/design.md, "Help is behind a ?": checked on the pages this test already fetched.
    if helpful:
        report += ["A page's help paragraph outside its '?' (tests/prose.py):"]
        report += [f"{where} (as {', '.join(roles)})" for where, roles in helpful.items()]
    # Issue 45: every string a person reads goes through gettext (docs/translation.md).
    if escaped:
        report += ["Text outside the pseudo-locale's markers: not marked, or not extracted "
                   "(`make messages`):"]  # fmt: skip
        report += [f"{where} (as {', '.join(roles)})" for where, roles in escaped.items()]
    assert not report, "\n".join(report)


def help_in_view(method: str, response) -> list[str]:
    """The long help paragraphs (tests/prose.py) of a page a GET drew, in order."""
    if method != "GET" or response.status_code != 200:
        return []
    if not response.get("Content-Type", "").startswith("text/html") or response.streaming:
        return []
    text = response.content.decode()
    return long_paragraphs(text.replace(pseudolocale.OPEN, "").replace(pseudolocale.CLOSE, ""))


# --- GET never writes; writes need POST and a CSRF token -------------------------------------


# The shared cache's table (core.pagecache): a GET may store a rendered page or computed
# standings there, which is derived from the rows and changes nothing anyone entered.
DERIVED_TABLES = {
    cache["LOCATION"]
    for cache in settings.CACHES.values()
    if cache["BACKEND"].endswith("DatabaseCache")
}


def rows_written() -> dict[str, int]:
    """Rows inserted, updated or deleted so far in this transaction, by table: PostgreSQL's
    own count of this session's writes (`pg_stat_xact_user_tables`), which a rollback to a
    savepoint does not take back. Any write a request makes between two readings, even one
    that leaves a row as it was, shows as a difference. (A checksum of every table's rows,
    which this replaces, read the whole world twice a request: most of the GET test's time.)"""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_xact_user_tables"
        )
        return {table: count for table, count in cursor.fetchall() if table not in DERIVED_TABLES}


def changed_tables(before: dict, after: dict) -> list[str]:
    return sorted(
        table for table in before.keys() | after.keys() if before.get(table) != after.get(table)
    )


def test_the_write_count_sees_a_change(world):
    """The GET test below can fail: a request that updates one column is caught."""
    client = client_for(world.users["organizer"])
    url = reverse("game_delete", args=[world.scenes["a_pub"].game.pk])
    response, changed = request_watched(client, "POST", url)
    assert response.status_code == 302
    assert "leagues_game" in changed and "leagues_gameresult" in changed


def test_the_write_count_sees_an_update_to_the_same_value(world):
    """A write that leaves the row as it was is a write too (a checksum would miss it)."""
    game = world.scenes["a_pub"].game
    with transaction.atomic():
        before = rows_written()
        Game.objects.filter(pk=game.pk).update(notes=game.notes)
        assert changed_tables(before, rows_written()) == ["leagues_game"]
        transaction.set_rollback(True)


def superuser_wrote(rule: Rule, method: str, url: str, label: str, response, changed) -> list:
    """What is wrong with a superuser's watched request (`test_each_role_gets_what_the_matrix_says`
    makes it, once, with the matrix's own): a GET of any URL writes no row, and a view that
    writes either refuses GET or only shows its form; a POST to a URL the matrix calls
    read-only (`writes=False`) answers below 500 and writes no row either."""
    if method == "POST":
        wrong = (
            [f"POST {url} ({label}): {response.status_code}"] if response.status_code >= 500 else []
        )
        return wrong + ([f"POST {url} ({label}) changed {changed}"] if changed else [])
    wrong = [f"GET {url} ({label}) changed {changed}"] if changed else []
    if rule.writes:
        # (A player's own page refuses a superuser who is nobody's player: 403.)
        superuser = rule.expect["superuser"]
        outcomes = superuser.values() if isinstance(superuser, dict) else [superuser]
        refused = all(outcome == DENIED for outcome in outcomes)
        allowed = {405} if rule.methods == POST else {403} if refused else {200}
        allowed = rule.get_status or allowed
        if response.status_code not in allowed:
            wrong.append(f"GET {url} ({label}): {response.status_code}, not {allowed}")
    return wrong


def test_a_superusers_request_that_wrote_is_reported():
    """The matrix's test can fail on a write: a GET that changed a table, a writing view's GET
    that did its work, and a read-only URL's POST that wrote or answered 500 are each named."""
    page = HttpResponse()
    reading, writing = MATRIX["accounts/password/reset/done/"], MATRIX["accounts/logout/"]
    assert superuser_wrote(reading, "GET", "/leagues/", "site", page, []) == []
    assert superuser_wrote(reading, "GET", "/leagues/", "site", page, ["leagues_game"]) == [
        "GET /leagues/ (site) changed ['leagues_game']"
    ]
    done = HttpResponse(status=302)
    assert superuser_wrote(writing, "GET", "/x/", "site", done, []) == [
        "GET /x/ (site): 302, not frozenset({200})"
    ]
    broken = HttpResponse(status=500)
    assert superuser_wrote(reading, "POST", "/leagues/", "site", broken, ["leagues_game"]) == [
        "POST /leagues/ (site): 500",
        "POST /leagues/ (site) changed ['leagues_game']",
    ]


@pytest.mark.parametrize("route", sorted(MATRIX))
def test_a_post_without_a_csrf_token_is_refused(world, route):
    """Every URL refuses a session's POST without a CSRF token (403), before the view runs;
    the token-authenticated API refuses the session instead (401). Nothing is written."""
    rule = MATRIX[route]
    client = world.csrf_client
    label, _, url = next(cases(route, rule, world))
    response, changed = request_watched(client, "POST", url, rule.extra)
    expected = UNAUTHORIZED if route in TOKEN_AUTHENTICATED else DENIED
    if route in CSRF_EXEMPT_NOT_FOUND:
        expected = HIDDEN
    assert response.status_code == expected, f"POST {url} ({label})"
    assert changed == []


# --- The admin -------------------------------------------------------------------------------

STAFF_OF_A = ("organizer", "owner")
# Who may open each registered model's "add" page; the list page is open to owners and
# organizers for the store's own models (OrganizationScopedAdmin) and to superusers for all.
ADMIN_ADD = {
    "auth.Group": {"superuser"},
    "auth.User": {"superuser"},
    "axes.AccessAttempt": set(),
    "axes.AccessLog": set(),
    "axes.AccessFailureLog": set(),
    # allauth's: e-mail addresses and Discord links are the site's, not a store's.
    "account.EmailAddress": {"superuser"},
    "socialaccount.SocialApp": {"superuser"},
    "socialaccount.SocialAccount": {"superuser"},
    "socialaccount.SocialToken": {"superuser"},
    "django_tasks_database.DBTaskResult": set(),  # the queue's rows: superusers look, no one adds
    "leagues.Organization": {"superuser"},
    "leagues.Membership": {"owner", "superuser"},
    "leagues.Player": {"organizer", "owner", "superuser"},
    "leagues.League": {"organizer", "owner", "superuser"},
    "leagues.Game": {"organizer", "owner", "superuser"},
    "leagues.GameResult": set(),  # results are edited inside their game
    "leagues.ImportBatch": set(),  # uploads come from the import page
    "leagues.ApiToken": set(),  # issued by the api_token command
    "tournaments.Tournament": {"organizer", "owner", "superuser"},
    "tournaments.Round": set(),  # paired on the event's console
    "tournaments.Table": set(),
}
NOT_STAFF = (
    "anonymous",
    "stranger",
    "player",
    "event_judge",
    "joined_online",
    "other_store_player",
)


def admin_expected(label: str, model_admin, role: str, page: str):
    if role in NOT_STAFF:
        return LOGIN  # the admin sends whoever is not active staff to its login page
    if page == "add":
        return OK if role in ADMIN_ADD[label] else DENIED
    if role == "superuser":
        return OK
    store_model = isinstance(model_admin, OrganizationScopedAdmin)
    return OK if store_model and role in STAFF_OF_A else DENIED


def test_every_registered_model_admin_is_decided():
    labels = {model._meta.label for model in admin.site._registry}
    assert labels == set(ADMIN_ADD)


def test_admin_list_and_add_pages_by_role(world):
    clients = world.clients
    wrong = []
    for model, model_admin in admin.site._registry.items():
        label, info = model._meta.label, (model._meta.app_label, model._meta.model_name)
        for page in ("changelist", "add"):
            url = reverse("admin:{}_{}_{}".format(*info, page))
            for role in ROLES:
                got = outcome(request_rolled_back(clients[role], "GET", url))
                want = admin_expected(label, model_admin, role, page)
                if got != want:
                    wrong.append(f"{url} as {role}: {got}, not {want}")
    assert not wrong, "\n".join(wrong)


def _store_admins():
    return [
        (model, model_admin)
        for model, model_admin in admin.site._registry.items()
        if isinstance(model_admin, OrganizationScopedAdmin)
    ]


@pytest.mark.parametrize("role", ["organizer", "owner", "superuser"])
def test_admin_lists_show_only_the_stores_rows(world, role):
    """Owners and organizers of store A list store A's rows and nothing of store B; a
    superuser lists both (so the check can tell)."""
    client = client_for(world.users[role])
    for model, model_admin in _store_admins():
        info = (model._meta.app_label, model._meta.model_name)
        response = client.get(reverse("admin:{}_{}_changelist".format(*info)))
        assert response.status_code == 200
        rows = list(response.context["cl"].queryset)
        stores = {organization_id_of(row, model_admin.organization_path) for row in rows}
        expected = {world.store_a.pk, world.store_b.pk}
        if role != "superuser":
            expected = {world.store_a.pk}
        assert stores == expected, model._meta.label


@pytest.mark.parametrize("role", ["organizer", "superuser"])
def test_admin_change_pages_of_another_store_do_not_open(world, role):
    """A store B row's change page is "does not exist" for store A's organizer (a redirect
    to the admin's index), and opens for a superuser; store A's rows open for both."""
    client = client_for(world.users[role])
    for model, model_admin in _store_admins():
        info = (model._meta.app_label, model._meta.model_name)
        path = model_admin.organization_path
        for store, opens in ((world.store_a, True), (world.store_b, role == "superuser")):
            row = model._default_manager.filter(**{path: store.pk}).first()
            assert row is not None, (model._meta.label, store)
            url = reverse("admin:{}_{}_change".format(*info), args=[row.pk])
            response = client.get(url)
            if opens:
                assert response.status_code == 200, url
            else:
                assert response.status_code == 302, url
                assert response.url == reverse("admin:index")


def test_admin_posts_need_a_csrf_token(world):
    client = client_for(world.users["superuser"], enforce_csrf_checks=True)
    for model in admin.site._registry:
        info = (model._meta.app_label, model._meta.model_name)
        url = reverse("admin:{}_{}_changelist".format(*info))
        response, changed = request_watched(client, "POST", url, {"action": "delete_selected"})
        assert response.status_code == DENIED, url
        assert changed == []


# --- API tokens ------------------------------------------------------------------------------

# Store A's token on each league. Another store's private league is a 404 (its existence does
# not leak); another store's public league is a 403 (everyone may read it, so saying "not
# yours" tells nothing new, and says more than a 404 to a program that got the wrong token).
TOKEN_OF_A = {"a_pub": 201, "a_priv": 201, "b_pub": 403, "b_priv": 404}
TOKEN_OF_A_READS = {"a_pub": 200, "a_priv": 200, "b_pub": 200, "b_priv": 404}


def _post_game(world, key: str, token: str):
    url = reverse("api_games", kwargs={"slug": world.scenes[key].league.slug})
    body = '{"players": ["Ann", "Bob"], "date": "2026-11-20"}'
    return request_watched(
        Client(),
        "POST",
        url,
        body,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


@pytest.mark.parametrize("key", SCENES)
def test_a_token_posts_only_to_its_own_stores_leagues(world, key):
    response, changed = _post_game(world, key, world.tokens["a"])
    assert response.status_code == TOKEN_OF_A[key], response.content
    if response.status_code == 201:
        assert {"leagues_game", "leagues_gameresult"} <= set(changed)
    else:
        assert changed == []


@pytest.mark.parametrize("key", SCENES)
def test_a_token_reads_its_own_stores_private_leagues_only(world, key):
    url = reverse("api_scores", kwargs={"slug": world.scenes[key].league.slug})
    response = Client().get(url, HTTP_AUTHORIZATION=f"Bearer {world.tokens['a']}")
    assert response.status_code == TOKEN_OF_A_READS[key]


@pytest.mark.parametrize("key", SCENES)
def test_a_revoked_token_is_refused(world, key):
    token = ApiToken.authenticate(world.tokens["a"])
    assert token.revoke()
    response, changed = _post_game(world, key, world.tokens["a"])
    assert response.status_code == UNAUTHORIZED
    assert changed == []
    reading = Client().get(
        reverse("api_scores", kwargs={"slug": world.scenes[key].league.slug}),
        HTTP_AUTHORIZATION=f"Bearer {world.tokens['a']}",
    )
    assert reading.status_code == UNAUTHORIZED


def tables_containing(text: str) -> list[str]:
    """Tables with a row whose text contains `text`, anywhere in any column."""
    quote = connection.ops.quote_name
    tables = sorted(set(connection.introspection.table_names()) - DERIVED_TABLES)
    sql = " UNION ALL ".join(
        f"SELECT %s FROM {quote(table)} t WHERE strpos(t::text, %s) > 0" for table in tables
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for table in tables for value in (table, text)])
        return sorted({row[0] for row in cursor.fetchall()})


def test_the_database_never_holds_a_plain_token(world):
    for plaintext in world.tokens.values():
        # Used once, so that nothing written on use (last_used_at) escapes the check.
        assert ApiToken.authenticate(plaintext) is not None
        secret = plaintext[ApiToken.PREFIX_LENGTH :]  # past the prefix kept to recognise it
        assert tables_containing(secret) == []
        assert tables_containing(ApiToken.hash_key(plaintext)) == ["leagues_apitoken"]
