"""The commander picker's suggestions: legal commanders (and Backgrounds) whose name holds
what was typed, as `<option>`s for a datalist (htmx swaps them in as the player types; the
field works as a plain text field without script). With `partner`, only the cards that may
share the command zone with `commander`."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from .domain.legality import pair_allowed
from .selectors import cards_by_names, commander_list

LIMIT = 20


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
    "partner": "Partner",
    "friends_forever": "Friends forever",
    "choose_background": "Choose a Background",
    "background": "Background",
    "doctors_companion": "Doctor's companion",
    "doctor": "Doctor",
}


def _label(row) -> str:
    identity = row.color_identity or "colorless"
    pairing = row.pairing
    if pairing.startswith("partner_with:"):
        pairing_label = "Partner with " + pairing.split(":", 1)[1]
    elif pairing.startswith("partner:"):
        pairing_label = "Partner—" + pairing.split(":", 1)[1]
    else:
        pairing_label = PAIRINGS.get(pairing, "")
    return " · ".join(part for part in (row.name, identity, pairing_label) if part)
