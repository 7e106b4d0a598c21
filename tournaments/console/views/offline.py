"""Pairing the next round on the TO's phone when the server cannot be reached (issue 34).

`offline_pair` is the page that does it: it keeps the event's pairing snapshot
(`offline_snapshot`, fetched while the server answers), starts Pyodide and the pure pairing
code in the browser (`tournaments/offline_pair.js`; WebAssembly needs `'wasm-unsafe-eval'` in
this page's script-src, and nothing else is loosened), pairs the round once every table has a
result, and sends it back (`offline_upload`) when the server answers again. Only those who run
the event reach these addresses (`run_get`): a player's phone and another store's judge are
refused.
"""

from csp.decorators import csp_update
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from core.jsonbody import BadJson, json_body

from ...errors import AlreadyDone, TournamentError
from ...pages import event_context, run_get
from ...selectors.pairing_snapshot import pairing_snapshot
from ...services.offline import offline_results_record, round_adopt, round_adopt_refused

# An upload is a round of a few hundred tables at most, with its input.
MOST_BYTES = 2_000_000


@login_required
@require_GET
@csp_update({"script-src": ["'wasm-unsafe-eval'"]})
def offline_pair(request: HttpRequest, slug: str) -> HttpResponse:
    event = run_get(request, slug)
    try:
        code = {
            "loader": static("tournaments/pyodide/pyodide.mjs"),
            "domain": static("tournaments/pyodide/domain.zip"),
        }
    except ValueError:  # deployed without `make assets`: the manifest has no such file
        code = None
    return render(
        request,
        "tournaments/console/offline_pair.html",
        event_context(request, event, "run", title=_("Pair without the server"), code=code),
    )


@login_required
@require_GET
@never_cache
def offline_snapshot(request: HttpRequest, slug: str) -> JsonResponse:
    """The next round's pairing input with the round being played (`pairing_snapshot`)."""
    event = run_get(request, slug)
    return JsonResponse(pairing_snapshot(event))


@login_required
@require_POST
def offline_upload(request: HttpRequest, slug: str) -> JsonResponse:
    """The phone's round: {"input": the input it paired from, "tables": [[player, ...], ...],
    "results": the results tapped on the phone}.
    200 adopted (or already adopted: `already`), 400 unreadable, 409 refused with the reason
    (written in History with the phone's round)."""
    event = run_get(request, slug)
    if len(request.body) > MOST_BYTES:
        return JsonResponse({"ok": False, "message": _("The round sent is too large.")}, status=400)
    try:
        body = json_body(request.body)
        data, tables, results = body["input"], body["tables"], body.get("results") or {}
        if not all(isinstance(*pair) for pair in ((data, dict), (tables, list), (results, dict))):
            raise TypeError
    except (BadJson, KeyError, TypeError):
        return JsonResponse(
            {"ok": False, "message": _("The phone's round could not be read: pair it again.")},
            status=400,
        )
    try:
        # The phone tapped them on the round before the one it paired (`data["round"]`).
        played = data.get("round", 0) - 1 if isinstance(data.get("round"), int) else None
        offline_results_record(tournament=event, results=results, number=played, by=request.user)
        round_ = round_adopt(tournament=event, data=data, tables=tables, by=request.user)
    except AlreadyDone as done:
        return JsonResponse({"ok": True, "already": True, "message": done.message})
    except TournamentError as error:
        round_adopt_refused(tournament=event, tables=tables, reason=error.message, by=request.user)
        return JsonResponse({"ok": False, "code": error.code, "message": error.message}, status=409)
    return JsonResponse(
        {
            "ok": True,
            "already": False,
            "round": round_.number,
            "message": _("Round %(round)s is on the server: every phone and the projector show it.")
            % {"round": round_.number},
        }
    )
