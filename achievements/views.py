"""Achievement pages. The leaderboard is for whoever may see the league; "Your games" is the
signed-in player's own (403 with the reason for an account linked to none of the store's
players), where a tap claims, confirms, declines or withdraws; the claims to settle and the
award are for the store's staff who run its nights (owners, organizers, TOs); the
achievements and the points are for the league's organizers. A tap is a plain POST answered
by a redirect; a refusal shows the page again with the message at the error's status; a
repeated tap is said once and changes nothing."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import DomainError
from core.errors_http import error_message, error_status
from leagues import selectors as league_selectors
from leagues.models import Game, Player
from leagues.permissions import can_run_events_of
from leagues.views import league_context, managed_league_get

from . import selectors, services
from .forms import AchievementForm, AwardForm, ScoringForm
from .models import Achievement, Claim

NOT_A_PLAYER = gettext_lazy(
    "Your account is not linked to a player of this store: ask the store to link it "
    "(or send a claim from a player's page) to claim achievements."
)


def _placing(place: int, points: int) -> str:
    """ "1st 10": a place and what it pays, as the list of placing points reads it."""
    if place == 1:
        text = pgettext("a place, then the points it pays", "%(place)sst %(points)s")
    elif place == 2:
        text = pgettext("a place, then the points it pays", "%(place)snd %(points)s")
    elif place == 3:
        text = pgettext("a place, then the points it pays", "%(place)srd %(points)s")
    else:
        text = pgettext("a place, then the points it pays", "%(place)sth %(points)s")
    return text % {"place": place, "points": points}


def scoring_text(scoring) -> str:
    """What the league pays besides its achievements, in one sentence ("" when nothing)."""
    per_game = ""
    if scoring.per_game:
        per_game = ngettext(
            "%(points)s point for each game played",
            "%(points)s points for each game played",
            scoring.per_game,
        ) % {"points": scoring.per_game}
    placings = ", ".join(_placing(i, p) for i, p in enumerate(scoring.placings, start=1))
    if per_game and placings:
        return _("Besides the achievements: %(per_game)s; by placing %(placings)s.") % {
            "per_game": per_game,
            "placings": placings,
        }
    if per_game:
        return _("Besides the achievements: %(per_game)s.") % {"per_game": per_game}
    if placings:
        return _("Besides the achievements: by placing %(placings)s.") % {"placings": placings}
    return ""


def _small_int(value: str) -> int | None:
    return int(value) if value.isdigit() and len(value) < 12 else None


def _context(request, league, **extra) -> dict:
    return league_context(
        request,
        league,
        "achievements",
        can_run=can_run_events_of(request.user, league.organization_id),
        **extra,
    )


def board(request: HttpRequest, slug: str) -> HttpResponse:
    league = league_selectors.league_get(slug=slug, user=request.user)
    seasons = selectors.seasons_of(league)
    season = selectors.period_of(seasons, request.GET.get("season", ""))
    player = selectors.own_player(league, request.user)
    context = _context(
        request,
        league,
        seasons=seasons,
        season=season,
        lines=selectors.leaderboard(league, season),
        achievements=selectors.achievements_of(league),
        scoring_text=scoring_text(services.scoring_of(league)),
        player=player,
    )
    return render(request, "achievements/board.html", context)


# -- The player's own games ---------------------------------------------------------------------

SAID = {
    "claimed": gettext_lazy("Claimed. A player of that game confirms it on their phone."),
    "confirmed": gettext_lazy("Confirmed: it counts."),
    "declined": gettext_lazy("Declined: the organizer decides."),
    "withdrawn": gettext_lazy("Withdrawn."),
}


def _mine_page(request, league, player, *, status=200) -> HttpResponse:
    games = selectors.my_games(league, player)
    achievements = [a for a in selectors.achievements_of(league) if a.active]
    context = _context(
        request,
        league,
        player=player,
        games=games,
        waiting=selectors.waiting_for_me(games),
        achievements=achievements,
    )
    said = request.GET.get("said", "")
    if said in SAID and request.method == "GET":
        context["said_text"] = SAID[said]
    return render(request, "achievements/mine.html", context, status=status)


def _act(request, league, player) -> HttpResponse:
    action = request.POST.get("action", "")
    by = request.user
    try:
        if action == "claim":
            game = Game.objects.filter(
                league=league, pk=_small_int(request.POST.get("game", "")) or 0
            ).first()
            achievement = Achievement.objects.filter(
                league=league, pk=_small_int(request.POST.get("achievement", "")) or 0
            ).first()
            if game is None:
                raise services.AchievementError(
                    code="no_game", message=_("Choose one of your games.")
                )
            if achievement is None:
                raise services.AchievementError(
                    code="no_achievement", message=_("Choose the achievement you earned.")
                )
            services.claim_submit(game=game, player=player, achievement=achievement, by=by)
            said = "claimed"
        elif action in ("confirm", "decline", "withdraw"):
            claim = Claim.objects.filter(
                achievement__league=league, pk=_small_int(request.POST.get("claim", "")) or 0
            ).first()
            if claim is None:
                raise services.AchievementError(code="no_claim", message=_("Choose a claim."))
            if action == "confirm":
                services.claim_confirm(claim=claim, podmate=player, by=by)
                said = "confirmed"
            elif action == "decline":
                services.claim_decline(claim=claim, podmate=player, by=by)
                said = "declined"
            else:
                services.claim_withdraw(claim=claim, player=player, by=by)
                said = "withdrawn"
        else:
            raise services.AchievementError(
                code="action", message=_("Claim an achievement, or answer a claim.")
            )
    except services.AlreadyDone as error:  # a double tap: said once, nothing changed
        messages.info(request, error_message(error))
        return redirect(request.path)
    except DomainError as error:
        messages.error(request, error_message(error))
        return _mine_page(request, league, player, status=error_status(error))
    return redirect(f"{request.path}?said={said}")


@login_required
@require_http_methods(["GET", "POST"])
def mine(request: HttpRequest, slug: str) -> HttpResponse:
    league = league_selectors.league_get(slug=slug, user=request.user)
    player = selectors.own_player(league, request.user)
    if player is None:
        raise PermissionDenied(NOT_A_PLAYER)
    if request.method == "POST":
        return _act(request, league, player)
    return _mine_page(request, league, player)


# -- The staff who run the nights: settle and award ---------------------------------------------


def _run_league(request, slug: str):
    league = league_selectors.league_get(slug=slug, user=request.user)
    if not can_run_events_of(request.user, league.organization_id):
        raise PermissionDenied(
            _("Only the store's organizers and TOs settle and award achievements.")
        )
    return league


@login_required
def claims(request: HttpRequest, slug: str) -> HttpResponse:
    league = _run_league(request, slug)
    context = _context(
        request,
        league,
        open_claims=selectors.open_claims(league),
        recent=selectors.recent_claims(league),
        achievements=selectors.achievements_of(league),
        scoring_text=scoring_text(services.scoring_of(league)),
    )
    return render(request, "achievements/claims.html", context)


@login_required
@require_POST
def settle(request: HttpRequest, slug: str, claim_id: int) -> HttpResponse:
    league = _run_league(request, slug)
    claim = Claim.objects.filter(achievement__league=league, pk=claim_id).first()
    if claim is None:
        raise Http404("No such claim.")
    decision = request.POST.get("decision", "")
    if decision not in ("accept", "refuse"):
        messages.error(request, _("Accept the claim or refuse it."))
        return redirect("achievement_claims", slug=league.slug)
    try:
        claim = services.claim_settle(claim=claim, accept=decision == "accept", by=request.user)
    except services.AlreadyDone as error:
        messages.info(request, error_message(error))
    except DomainError as error:
        messages.error(request, error_message(error))
    else:
        names = {"player": claim.player.name, "achievement": claim.achievement.name}
        if decision == "accept":
            text = _("%(player)s's %(achievement)s accepted: it counts.") % names
        else:
            text = _("%(player)s's %(achievement)s refused.") % names
        messages.success(request, text)
    return redirect("achievement_claims", slug=league.slug)


@login_required
@require_http_methods(["GET", "POST"])
def award_view(request: HttpRequest, slug: str) -> HttpResponse:
    league = _run_league(request, slug)
    players, games = selectors.award_choices(league)
    achievements = selectors.achievements_of(league)
    form = AwardForm(request.POST or None, players=players, achievements=achievements, games=games)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        player = Player.objects.get(pk=int(data["player"]))
        achievement = Achievement.objects.get(pk=int(data["achievement"]))
        game = Game.objects.get(pk=int(data["game"])) if data["game"] else None
        try:
            claim = services.award(
                league=league,
                player=player,
                achievement=achievement,
                game=game,
                night=data.get("night"),
                by=request.user,
            )
        except services.AlreadyDone as error:
            messages.info(request, error_message(error))
            return redirect("achievement_claims", slug=league.slug)
        except DomainError as error:
            form.add_domain_error(error)
        else:
            messages.success(
                request,
                _("%(achievement)s awarded to %(player)s: it counts.")
                % {"achievement": claim.achievement.name, "player": claim.player.name},
            )
            return redirect("achievement_claims", slug=league.slug)
    status = 400 if request.method == "POST" else 200
    context = _context(request, league, form=form)
    return render(request, "achievements/award.html", context, status=status)


# -- The organizers' definitions -----------------------------------------------------------------


def _achievement_form(request, league, achievement: Achievement | None) -> HttpResponse:
    form = AchievementForm(request.POST or None, achievement=achievement)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            saved = services.achievement_save(
                league=league,
                name=data["name"],
                description=data["description"],
                points=data["points"],
                per=data["per"],
                active=data["active"],
                achievement=achievement,
                by=request.user,
            )
        except DomainError as error:
            twin = None
            if achievement is None and error.code == "name_taken":
                # "Save" pressed twice: the achievement the first press made, as typed.
                twin = Achievement.objects.filter(
                    league=league,
                    name__iexact=data["name"].strip(),
                    points=data["points"],
                    per=data["per"],
                ).first()
            if twin is not None:
                messages.info(request, _("%(name)s is already added.") % {"name": twin.name})
                return redirect("achievement_claims", slug=league.slug)
            form.add_domain_error(error)
        else:
            messages.success(
                request,
                _("%(name)s saved (%(points)s, %(rule)s).")
                % {"name": saved.name, "points": f"{saved.points:+d}", "rule": saved.rule},
            )
            return redirect("achievement_claims", slug=league.slug)
    status = 400 if request.method == "POST" else 200
    context = _context(request, league, form=form, achievement=achievement)
    return render(request, "achievements/achievement_form.html", context, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def achievement_new(request: HttpRequest, slug: str) -> HttpResponse:
    league = managed_league_get(request, slug)
    return _achievement_form(request, league, None)


@login_required
@require_http_methods(["GET", "POST"])
def achievement_edit(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    league = managed_league_get(request, slug)
    return _achievement_form(request, league, selectors.achievement_get(league, pk))


@login_required
@require_http_methods(["GET", "POST"])
def scoring_edit(request: HttpRequest, slug: str) -> HttpResponse:
    league = managed_league_get(request, slug)
    form = ScoringForm(request.POST or None, scoring=services.scoring_of(league))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.scoring_set(
                league=league, per_game=data["per_game"], placings=data["placings"], by=request.user
            )
        except DomainError as error:
            form.add_domain_error(error)
        else:
            messages.success(request, _("Points saved: the leaderboard counts them at once."))
            return redirect("achievement_claims", slug=league.slug)
    status = 400 if request.method == "POST" else 200
    context = _context(request, league, form=form)
    return render(request, "achievements/scoring_form.html", context, status=status)
