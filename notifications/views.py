"""The notifications pages: an account's own choices (`/me/notifications/`), and a store's
webhook with a test button and its recent deliveries (its owners and organizers only: 404 to
everyone else, like the store's players and history pages).

Every write is a POST through notifications.services; bad input is refused with the form and
its message (400) and changes nothing. Pressing "Send a test message" again while one is on
its way queues nothing more; nor does "Send again" on a failed message already on its way.
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors_http import error_message, form_add_error
from leagues.models import Organization
from leagues.permissions import can_manage_organization

from . import selectors, services
from .domain.webhooks import webhook_url_shown
from .forms import NotificationSettingsForm, WebhookForm
from .models import Delivery


def _managed_organization(request: HttpRequest, slug: str) -> Organization:
    organization = get_object_or_404(Organization, slug=slug)
    if not can_manage_organization(request.user, organization):
        raise Http404(_("No such page."))
    return organization


@login_required
@require_http_methods(["GET", "POST"])
def my_notifications(request: HttpRequest) -> HttpResponse:
    current = selectors.settings_get(request.user)
    mail = settings.GUILDHALL_MAIL_DELIVERS
    # Not `request.POST or None`: a POST with every box cleared is empty, and must save.
    data = request.POST if request.method == "POST" else None
    form = NotificationSettingsForm(data, instance=current)
    if request.method == "POST":
        if not mail:
            messages.error(request, _("This site sends no e-mail, so there is nothing to turn on."))
            return redirect("my_notifications")
        if form.is_valid():
            services.settings_set(user=request.user, **form.cleaned_data)
            messages.success(request, _("Saved."))
            return redirect("my_notifications")
    return render(
        request,
        "notifications/my_notifications.html",
        {
            "form": form,
            "mail": mail,
            "email": request.user.email,
        },
        status=400 if form.errors else 200,
    )


@require_http_methods(["GET", "POST"])
def store_notifications(request: HttpRequest, org: str) -> HttpResponse:
    organization = _managed_organization(request, org)
    webhook = selectors.store_webhook(organization)
    form = WebhookForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            url = "" if request.POST.get("remove") else form.cleaned_data["url"]
            saved = services.webhook_set(organization=organization, url=url, by=request.user)
        except services.NotificationError as error:
            form_add_error(form, error)
        else:
            messages.success(
                request,
                _("Webhook saved: send a test message to see it arrive.")
                if saved
                else _("Webhook removed: the store's channel gets no more messages."),
            )
            return redirect("store_notifications", org=organization.slug)
    return render(
        request,
        "notifications/store_notifications.html",
        {
            "organization": organization,
            "form": form,
            "webhook": webhook,
            "webhook_shown": webhook_url_shown(webhook.url) if webhook else "",
            "deliveries": selectors.recent_deliveries(organization),
            "base_url": settings.GUILDHALL_BASE_URL,
        },
        status=400 if form.errors else 200,
    )


@require_POST
def store_webhook_test(request: HttpRequest, org: str) -> HttpResponse:
    organization = _managed_organization(request, org)
    try:
        _delivery, new = services.webhook_test_send(organization=organization, by=request.user)
    except services.NotificationError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(
            request,
            _("A test message is on its way: its line below says when it arrived, or why not.")
            if new
            else _("A test message is on its way already."),
        )
    return redirect("store_notifications", org=organization.slug)


@require_POST
def store_delivery_retry(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    organization = _managed_organization(request, org)
    try:
        delivery, new = services.delivery_retry(
            organization=organization, delivery_id=pk, by=request.user
        )
    except services.NotificationError as error:
        messages.error(request, error_message(error))
    else:
        # A sentence per state, not the state's label lowercased into one ("already
        # %(status)s" read "already Waiting" in German's nouns and wrongly in others).
        if new:
            # Translators: %(what)s is the kind of message as its line below names it ("Round
            # paired").
            text = _("%(what)s: on its way again; its line below says when it arrived, or why not.")
        elif delivery.status == Delivery.Status.SENT:
            # Translators: %(what)s is the kind of message as its line below names it.
            text = _("%(what)s: already sent, nothing to do.")
        else:  # waiting, or being sent
            # Translators: %(what)s is the kind of message as its line below names it.
            text = _("%(what)s: already on its way, nothing to do.")
        messages.success(request, text % {"what": delivery.get_kind_display()})
    return redirect("store_notifications", org=organization.slug)
