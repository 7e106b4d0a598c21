"""The commander picker's suggestions: legal commanders (and Backgrounds) whose name holds
what was typed, as `<option>`s for a datalist (htmx swaps them in as the player types; the
field works as a plain text field without script). With `partner`, only the cards that may
share the command zone with `commander`. And `card_art`: a stored art crop, from the default
storage (fetched by `load_cards --images`; the pages never point at Scryfall's copy)."""

from django.core.files.storage import default_storage
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from .domain.legality import pair_allowed
from .selectors import cards_by_names, commander_list

LIMIT = 20
ART_MAX_AGE = 24 * 3600  # a crop changes only when Scryfall's does and it is fetched again


@require_GET
def commander_suggestions(request: HttpRequest) -> HttpResponse:
    commander = request.GET.get("commander", "")[:120]
    if "partner" in request.GET:
        typed = request.GET.get("partner", "")[:120]
        first = cards_by_names([commander]).get(commander) if commander else None
        if first is None or not first.pairing:
            rows = []
        else:
            rows = [
                row
                for row in commander_list(typed, limit=LIMIT * 10)
                if row.name != first.name and pair_allowed(first, row.as_card())
            ][:LIMIT]
    else:
        rows = [row for row in commander_list(commander, limit=LIMIT)]
    options = [(row.name, _label(row)) for row in rows]
    return render(request, "cards/commander_options.html", {"options": options})


PAIRINGS = {
    "partner": gettext_lazy("Partner"),
    "friends_forever": gettext_lazy("Friends forever"),
    "choose_background": gettext_lazy("Choose a Background"),
    "background": gettext_lazy("Background"),
    "doctors_companion": gettext_lazy("Doctor's companion"),
    "doctor": gettext_lazy("Doctor"),
}


def _label(row) -> str:
    identity = row.color_identity or _("colorless")
    pairing = row.pairing
    if pairing.startswith("partner_with:"):
        pairing_label = _("Partner with %(card)s") % {"card": pairing.split(":", 1)[1]}
    elif pairing.startswith("partner:"):
        pairing_label = _("Partner—%(kind)s") % {"kind": pairing.split(":", 1)[1]}
    else:
        pairing_label = str(PAIRINGS.get(pairing, ""))
    return " · ".join(part for part in (row.name, identity, pairing_label) if part)


@require_GET
def card_art(request: HttpRequest, name: str) -> FileResponse:
    """The stored crop `cards/art/NAME` (the address allows only an Oracle id and a suffix)."""
    path = f"cards/art/{name}"
    if not default_storage.exists(path):
        raise Http404(_("No such card image."))
    response = FileResponse(default_storage.open(path, "rb"))
    response["Cache-Control"] = f"public, max-age={ART_MAX_AGE}"
    return response
