"""The one place a `DomainError` becomes an answer to a browser.

`error_response` turns a refusal into what the request can show: for an htmx request, an
error fragment with the error's status (400 bad input, 409 a conflict) and django-htmx's
`retarget`/`reswap` headers so it lands where it belongs (htmx is told to swap 400 and 409
answers by the `responseHandling` in templates/base.html); for a normal POST with a form, the
form with the message on its field (or on top) and the page again; otherwise a page message and
a redirect. Views catch the errors they expect and hand them here; they do not build these
answers themselves. The JSON API has its own shape of the same three attributes
(`ratings.api.error_json`).
"""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_htmx.http import reswap, retarget

from .errors import DomainError

ERROR_FRAGMENT = "errors/domain_error.html"


def error_status(error: DomainError) -> int:
    """The HTTP status a refusal means: its class's `status` (400, or 409 for a conflict)."""
    return getattr(error, "status", 400)


def error_message(error: DomainError) -> str:
    """What the person reads. (`getattr` lets errors not yet on the contract through too.)"""
    message = getattr(error, "message", None)
    return str(message) if message else str(error)


def form_add_error(form, error: DomainError) -> None:
    """Put the refusal on the form field it names, or on top of the form when it names none."""
    field = getattr(error, "field", None)
    form.add_error(field if field in form.fields else None, error_message(error))


def error_response(
    request: HttpRequest,
    error: DomainError,
    *,
    template: str | None = None,
    context: dict | None = None,
    form=None,
    fragment: str | None = None,
    target: str | None = None,
    swap: str = "innerHTML",
    redirect_to: str | None = None,
    status: int | None = None,
    prefix: str = "",
) -> HttpResponse:
    """Answer a request whose write `error` refused; nothing was written.

    - htmx (`request.htmx`): `fragment` (else the page `template`, else the error alone,
      `errors/domain_error.html`) rendered with `error`, `form`, `prefix` and `context`, at
      `status` (default the error's); with a `target` (a CSS selector) the answer says where
      it goes (HX-Retarget) and how (HX-Reswap, `swap`), whatever the request asked.
    - a page (`template`): rendered with `context` (and `form`, whose field then carries the
      message) at that status.
    - otherwise a page message ("{prefix}{message}") and a redirect to `redirect_to`.

    `form`, when given, gets the message on its field in every case.
    """
    status = status or error_status(error)
    if form is not None:
        form_add_error(form, error)
    values = {"error": error, "prefix": prefix, **(context or {})}
    if form is not None:
        values.setdefault("form", form)
    if request.htmx:
        response = render(request, fragment or template or ERROR_FRAGMENT, values, status=status)
        if target:
            response = reswap(retarget(response, target), swap)  # type: ignore[arg-type]
        return response
    if template is not None:
        return render(request, template, values, status=status)
    if redirect_to is None:
        raise ValueError("error_response needs a template, or a redirect_to for the message.")
    messages.error(request, f"{prefix}{error_message(error)}")
    return redirect(redirect_to)
