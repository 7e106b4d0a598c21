"""The page bodies a league's season and a series' season share: a new season, an event type's
point table, the table as a CSV, inviting the top to a final.

A season lives in a league (`views`) or in a series (`series_views`); the pages are the same
but for the frame around them (`context`: the league's tabs or the series' header), the
template, a message's words and where a saved form leads (`then`). Each view finds the season
its URL names, checks who may see or manage it, and hands the rest to one function here.
"""

import csv
import io
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from leagues.domain.csvformat import escape_text

from . import selectors
from .forms import EventTypeForm, QualifyForm, SeasonCreateForm
from .models import EventType, Season
from .qualification import Qualified, final_choices, qualification_invite
from .services import SeasonError, event_type_save, season_create

Then = Callable[[Season], HttpResponse]


def season_new_page(
    request: HttpRequest,
    *,
    owner: dict[str, Any],
    context: dict,
    template: str,
    twice: str,
    created: str,
    then: Then,
) -> HttpResponse:
    """A new season of `owner` (`{"league": ...}` or `{"series": ...}`). `twice` and
    `created` are the messages (translated), with `%(name)s` for the season's; "Create"
    pressed twice leads to the season the first press made, with `twice`."""
    form = SeasonCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            season = season_create(
                **owner,
                name=data["name"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                tiebreaks=data["tiebreaks"],
                preset=data["preset"],
                by=request.user,
            )
        except SeasonError as error:
            twin = (
                selectors.season_just_created(data, request.user, **owner)
                if error.code == "name_taken"
                else None
            )
            if twin is not None:  # "Create" pressed twice: the season the first press made
                messages.info(request, twice % {"name": twin.name})
                return then(twin)
            form.add_domain_error(error)
        else:
            messages.success(request, created % {"name": season.name})
            return then(season)
    status = 400 if request.method == "POST" else 200
    return render(request, template, {**context, "form": form}, status=status)


def event_type_of(season: Season, type_id: int) -> EventType:
    event_type = season.event_types.filter(pk=type_id).first()
    if event_type is None:
        raise Http404("No such event type.")
    return event_type


def event_type_page(
    request: HttpRequest,
    season: Season,
    event_type: EventType | None,
    *,
    context: dict,
    template: str,
    saved: str,
    then: Then,
) -> HttpResponse:
    """A new event type of the season (`event_type` None) or one's point table changed."""
    form = EventTypeForm(request.POST or None, event_type=event_type)
    if request.method == "POST" and form.is_valid():
        try:
            event_type_save(
                season=season,
                table=form.cleaned_data["table"],
                event_type=event_type,
                by=request.user,
            )
        except SeasonError as error:
            form.add_domain_error(error)
        else:
            messages.success(request, saved)
            return then(season)
    status = 400 if request.method == "POST" else 200
    context = {**context, "form": form, "season": season, "event_type": event_type}
    return render(request, template, context, status=status)


def season_csv(
    season: Season, *, filename: str, columns: Sequence[tuple[str, Callable[[Any], object]]]
) -> HttpResponse:
    """The season table as a CSV download: a header row of the columns' names, then each
    table row's values (text escaped against formulas by the column's own getter)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([name for name, _ in columns])
    for row in selectors.season_rows(season):
        writer.writerow([value(row) for _, value in columns])
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def rank_columns() -> list[tuple[str, Callable[[Any], object]]]:
    """The CSV's first columns, the same in a league's and a series' table."""
    return [
        ("rank", lambda row: row.rank),
        ("tied", lambda row: "yes" if row.tied else ""),
        ("player", lambda row: escape_text(row.name)),
    ]


def qualify_page(request: HttpRequest, season: Season, *, context: dict, back: str) -> HttpResponse:
    """Inviting the season's top to a final."""
    form = QualifyForm(request.POST or None, finals=list(final_choices(season)))
    done: Qualified | None = None
    if request.method == "POST" and form.is_valid():
        final = final_choices(season).filter(pk=form.cleaned_data["final"]).first()
        try:
            done = qualification_invite(
                season=season, final=final, top=form.cleaned_data["top"], by=request.user
            )
        except SeasonError as error:
            form.add_domain_error(error)
    status = 400 if request.method == "POST" and done is None else 200
    context = {**context, "season": season, "form": form, "done": done, "back": back}
    return render(request, "seasons/qualify.html", context, status=status)
