"""Site-wide error views: JSON under /api/, the site's own pages elsewhere.

Every error page a person meets (400, 403, 404, 500, and a form refused for its CSRF token)
has the site's header, says what happened in a sentence and offers a way on: log in and come
back to the same address (anonymous visitors), back to the event or league the address
belongs to (a refusal), or home. A 403's sentence is the refusal's own, when the code wrote
one (`PermissionDenied("Only the store's organizers ...")`). A 400's and a 404's never are:
what went wrong inside (a header's name, a model's) is not the person's business.

The 500 page renders without the database and without context processors (no user, no
session, no `{% static %}` manifest): a plain template, and a plain string should even that
fail.
"""

import logging

from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseServerError,
    JsonResponse,
)
from django.shortcuts import render
from django.template import loader
from django.urls import Resolver404, resolve, reverse
from django.utils.functional import Promise
from django.utils.html import escape
from django.utils.http import urlencode
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import requires_csrf_token

logger = logging.getLogger(__name__)

# Lazy: translated when a page shows them, in that request's language. The API's answers
# (`_api_error`) keep their English messages: a program reads them, by their code.
REASONS = {
    400: _(
        "This address or form could not be read: it may have been cut short or changed on the way."
    ),
    403: _("You may not open this page with your account."),
    404: _("There is no page at this address, or it is not one you may see."),
    500: _("Something went wrong on our side, and nothing you sent was stored."),
}
TITLES = {
    400: _("Bad request"),
    403: _("Not allowed"),
    404: _("Page not found"),
    500: _("Server error"),
}
CSRF_REASON = _(
    "Your form was sent without a valid security token: the page was open for a long time, "
    "or your browser blocks this site's cookies. Open the page again and send it once more."
)
# The page of an event or a league that an address under it belongs to: (prefix, url name).
_HOMES = (("events/", "event_detail", _("Back to the event")),)
_HOMES += (("leagues/", "league_detail", _("Back to the league")),)

_PLAIN_500 = (
    '<!doctype html><html lang="%(lang)s"><head><meta charset="utf-8"><title>%(title)s</title>'
    '</head><body><header class="site-header"><a class="brand" href="/">Guildhall</a></header>'
    '<main><h1>%(title)s</h1><p>%(reason)s</p><p><a href="/">%(home)s</a></p></main></body>'
    "</html>"
)
_PLAIN_500_ENGLISH = {
    "lang": "en",
    "title": "Server error",
    "reason": "Something went wrong on our side, and nothing you sent was stored.",
    "home": "Go to the home page",
}


def _plain_500() -> str:
    """The last resort's page, in the request's language if even that still works."""
    try:
        words = {
            "lang": escape(get_language() or "en"),
            "title": escape(TITLES[500]),
            "reason": escape(REASONS[500]),
            "home": escape(gettext("Go to the home page")),
        }
    except Exception:
        words = _PLAIN_500_ENGLISH
    return _PLAIN_500 % words


def _api_error(request: HttpRequest, status: int, message: str, code: str) -> JsonResponse | None:
    if not request.path.startswith("/api/"):
        return None
    body = {"error": {"field": None, "message": message, "code": code}}
    return JsonResponse(body, status=status)


def _belongs_to(request: HttpRequest) -> tuple[str, str] | None:
    """(url, label) of the event or league page the address belongs to, if it is another."""
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    slug = match.kwargs.get("slug")
    if not slug:
        return None
    for prefix, name, label in _HOMES:
        if match.route.startswith(prefix):
            url = reverse(name, args=[slug])
            return (url, label) if url != request.path else None
    return None


def _is_anonymous(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def _page(
    request: HttpRequest, status: int, reason: str, *, back: tuple[str, str] | None = None
) -> HttpResponse:
    login = None
    if _is_anonymous(request) and status in (403, 404):
        login = reverse("account_login") + "?" + urlencode({"next": request.get_full_path()})
    context = {
        "status": status,
        "title": TITLES[status],
        "reason": reason,
        "login_url": login,
        "back": back,
    }
    return render(request, "errors/error.html", context, status=status)


def _reason_of(exception) -> str | None:
    """The sentence a refusal was raised with, if any (not a class name, not blank)."""
    message = exception.args[0] if exception is not None and exception.args else None
    if isinstance(message, Promise):  # a lazy translation, raised from a module's constant
        message = str(message)
    return message.strip() if isinstance(message, str) and message.strip() else None


@requires_csrf_token
def bad_request(request: HttpRequest, exception=None) -> HttpResponse:
    return _api_error(request, 400, "Bad request.", "bad_request") or _page(
        request, 400, REASONS[400]
    )


@requires_csrf_token
def permission_denied(request: HttpRequest, exception=None) -> HttpResponse:
    reason = _reason_of(exception) or REASONS[403]
    return _api_error(request, 403, reason, "forbidden") or _page(
        request, 403, reason, back=_belongs_to(request)
    )


@requires_csrf_token
def page_not_found(request: HttpRequest, exception=None) -> HttpResponse:
    return _api_error(request, 404, "Not found.", "not_found") or _page(request, 404, REASONS[404])


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW: the form was refused before its view ran; nothing was stored."""
    back = (request.get_full_path(), gettext("Open the page again"))
    return _page(request, 403, CSRF_REASON, back=back)


def server_error(request: HttpRequest, *args, **kwargs) -> HttpResponse:
    response = _api_error(request, 500, "Server error; nothing was stored.", "server_error")
    if response is not None:
        return response
    try:
        # No request: no context processors, so no session, user or database.
        return HttpResponseServerError(loader.get_template("errors/500.html").render())
    except Exception:
        logger.exception("The 500 page failed to render; answering the plain one.")
        return HttpResponseServerError(_plain_500())
