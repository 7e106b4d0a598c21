"""Players and their accounts, for the store: the claims waiting for an answer, the store's
players with who is linked, and one-time claim codes; and a player's "this is me" button.

The store's page is its managers' only (404 to everyone else, like the History page). A claim
is made from a league's public player page by a logged-in account. Every write goes through
leagues.services.claims; a repeated tap is told it was done and writes nothing.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST
from django_tables2 import RequestConfig

from core.errors_http import error_message

from .. import selectors, services
from ..models import Player, PlayerClaim
from ..tables import PER_PAGE, ClaimTable, PlayerAccountTable
from .audit import _managed_organization


@login_required
@require_POST
def player_claim(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A logged-in account says it is this player (from the league's player page)."""
    league = selectors.league_get(slug=slug, user=request.user)
    player = selectors.league_player_get(league=league, player_id=player_id)
    try:
        services.claim_request(user=request.user, player=player)
    except services.ClaimAlreadyDone as done:
        messages.info(request, error_message(done))
    except services.LeagueError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _(
                "Asked %(store)s: once an organizer approves, %(name)s's events and "
                "ratings are on My Guildhall. A claim code from the store works at once."
            )
            % {"store": player.organization, "name": player.name},
        )
    return redirect("player_detail", slug=league.slug, player_id=player.pk)


@require_GET
def organization_players(request: HttpRequest, org: str) -> HttpResponse:
    """The claims waiting and the store's players: two tables, each sorted and paged by its
    own query parameters (claims- prefixed), a name search kept across both."""
    organization = _managed_organization(request, org)
    query = request.GET.get("q", "").strip()[:100]
    claims = ClaimTable(selectors.claims_waiting(organization=organization), prefix="claims-")
    empty = (
        _("No player's name contains “%(query)s”: try part of the name.") % {"query": query}
        if query
        else _("No players yet: a game, an import or an event's entries add them by name.")
    )
    players = PlayerAccountTable(
        selectors.players_accounts(organization=organization, query=query), empty_text=empty
    )
    config = RequestConfig(request, paginate={"per_page": PER_PAGE})
    config.configure(claims)
    config.configure(players)
    return render(
        request,
        "leagues/organization_players.html",
        {"organization": organization, "claims": claims, "players": players, "query": query},
    )


@require_POST
def claim_decide(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    organization = _managed_organization(request, org)
    claim = get_object_or_404(PlayerClaim, pk=pk, player__organization=organization)
    decision = request.POST.get("decision")
    if decision not in {"approve", "refuse"}:
        messages.error(request, _("Choose Approve or Refuse."))
        return redirect("organization_players", org=organization.slug)
    try:
        claim = services.claim_decide(by=request.user, claim=claim, approve=decision == "approve")
    except services.ClaimAlreadyDone as done:
        messages.info(request, error_message(done))
    except services.LeagueError as error:
        messages.error(request, error_message(error))
    else:
        if decision == "approve":
            said = _("%(account)s is now %(player)s.")
        else:
            said = _("%(account)s is not %(player)s.")
        messages.success(
            request, said % {"account": claim.user.get_username(), "player": claim.player.name}
        )
    return redirect("organization_players", org=organization.slug)


@require_POST
def claim_code_issue(request: HttpRequest, org: str, player_id: int) -> HttpResponse:
    """A new one-time code for the player, shown once on the page this answers with."""
    organization = _managed_organization(request, org)
    player = get_object_or_404(Player, pk=player_id, organization=organization)
    try:
        issued = services.claim_code_issue(by=request.user, player=player)
    except services.LeagueError as error:
        messages.error(request, error_message(error))
        return redirect("organization_players", org=organization.slug)
    return render(
        request,
        "leagues/claim_code.html",
        {
            "organization": organization,
            "player": player,
            "code": services.code_format(issued.code),
        },
    )
