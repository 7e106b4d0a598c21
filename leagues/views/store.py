"""A store set up from its own pages, without the admin: a new store and its first owner's
invitation (the site's superusers), its page for the staff (profile, leagues, staff and
invitations), the profile form, inviting staff, changing a role, removing
someone, the invitation link, and the store's logo.

Who may do what is leagues.store_access (owners change the profile and staff, organizers
create leagues, the other staff get a 403 with the reason, anyone else a 404). Every write
goes through leagues.services.store; a repeated press is told it was done and writes
nothing. The new-league form is ratings.league_new (it picks the rating system, an app
above this one).
"""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors_http import error_message, form_add_error
from core.templatetags.theme import theme_version

from .. import services
from ..domain.colour import store_palette
from ..domain.images import LOGO_MAX_BYTES
from ..forms_store import StaffInviteForm, StoreNewForm, StoreProfileForm
from ..models import MANAGER_ROLES, Membership, Organization, Role, StaffInvitation
from ..store_access import may_change_staff, store_for_manager, store_for_owner

LOGO_CACHE_SECONDS = 365 * 24 * 3600  # the address carries the logo's version


def _store_context(request: HttpRequest, organization: Organization, **extra) -> dict:
    owner = may_change_staff(request, organization)
    staff = (
        Membership.objects.filter(organization=organization)
        .select_related("user")
        .order_by("user__username")
    )
    owners = sum(1 for member in staff if member.role == Role.OWNER)
    invitations = StaffInvitation.objects.filter(
        organization=organization, accepted_at__isnull=True, cancelled_at__isnull=True
    ).select_related("invited_by")
    return {
        "organization": organization,
        "is_owner": owner,
        "staff": staff,
        "owners": owners,
        "invitations": invitations,
        "leagues": organization.leagues.order_by("name"),
        "roles": Role.choices,
        "invite_form": extra.pop("invite_form", None) or StaffInviteForm(),
        "zone": services.store_time_zone(organization),
        **extra,
    }


@login_required
@require_http_methods(["GET", "POST"])
def store_new(request: HttpRequest) -> HttpResponse:
    """A new store, made by a superuser, and its first owner invited by e-mail: the link is
    shown once here and mailed. A second press finds the store the first one made."""
    if not request.user.is_superuser:
        raise PermissionDenied(
            _("Only the site's administrators create stores: ask one of them to make yours.")
        )
    form = StoreNewForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            made = services.organization_create(
                name=form.cleaned_data["name"],
                slug=form.cleaned_data["slug"],
                owner_email=form.cleaned_data["owner_email"],
                site_url=request.build_absolute_uri("/"),
                by=request.user,
            )
        except services.LeagueError as error:
            form_add_error(form, error)
        else:
            store = made.organization
            if not made.created:
                messages.info(
                    request,
                    _("%(name)s is already created: here is its page.") % {"name": store.name},
                )
                return redirect("store_page", org=store.slug)
            if made.invited is None:
                messages.success(
                    request,
                    _("%(name)s is created: invite its owner under “Invite staff”.")
                    % {"name": store.name},
                )
                return redirect("store_page", org=store.slug)
            return render(
                request,
                "leagues/staff_invited.html",
                {
                    "organization": store,
                    "invitation": made.invited.invitation,
                    "link": made.invited.link,
                    "zone": services.store_time_zone(store),
                    "store_created": True,
                },
            )
    status = 400 if request.method == "POST" else 200
    return render(request, "leagues/store_new.html", {"form": form}, status=status)


@login_required
@require_GET
def store_page(request: HttpRequest, org: str) -> HttpResponse:
    organization = store_for_manager(request, org)
    return render(request, "leagues/store.html", _store_context(request, organization))


@login_required
@require_http_methods(["GET", "POST"])
def store_profile(request: HttpRequest, org: str) -> HttpResponse:
    organization = store_for_owner(request, org)
    initial = {
        "name": organization.name,
        "address": organization.address,
        "time_zone": organization.time_zone,
        "accent": organization.accent,
        "short_name": organization.short_name,
        "language": organization.language,
    }
    form = StoreProfileForm(
        request.POST or None,
        request.FILES or None,
        initial=initial,
        site_zone=settings.TIME_ZONE,
    )
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data.get("logo")
        logo = None
        if upload:
            # Never read more than one byte past the limit: the size says the rest.
            logo = services.LogoUpload(data=upload.read(LOGO_MAX_BYTES + 1), size=upload.size)
        try:
            services.organization_profile_update(
                organization=organization,
                name=form.cleaned_data["name"],
                address=form.cleaned_data["address"],
                time_zone=form.cleaned_data["time_zone"],
                logo=logo,
                logo_remove=form.cleaned_data["logo_remove"],
                accent=form.cleaned_data["accent"],
                short_name=form.cleaned_data["short_name"],
                language=form.cleaned_data["language"],
                by=request.user,
            )
        except services.LeagueError as error:
            form_add_error(form, error)
        else:
            messages.success(request, _("The store's profile is saved."))
            return redirect("store_page", org=organization.slug)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "leagues/store_profile.html",
        {"organization": organization, "form": form},
        status=status,
    )


@login_required
@require_POST
def staff_invite(request: HttpRequest, org: str) -> HttpResponse:
    organization = store_for_owner(request, org)
    form = StaffInviteForm(request.POST)
    if form.is_valid():
        try:
            invited = services.staff_invite(
                organization=organization,
                email=form.cleaned_data["email"],
                role=form.cleaned_data["role"],
                site_url=request.build_absolute_uri("/"),
                by=request.user,
            )
        except services.StaffAlreadyInvited as done:
            messages.info(request, error_message(done))
            return redirect("store_page", org=organization.slug)
        except services.LeagueError as error:
            form_add_error(form, error)
        else:
            # The link is shown once, here (only its hash is kept), and is in the mail.
            return render(
                request,
                "leagues/staff_invited.html",
                {
                    "organization": organization,
                    "invitation": invited.invitation,
                    "link": invited.link,
                    "zone": services.store_time_zone(organization),
                },
            )
    context = _store_context(request, organization, invite_form=form)
    return render(request, "leagues/store.html", context, status=400)


def _staff_write(request: HttpRequest, organization: Organization, write, success: str):
    try:
        result = write()
    except services.ClaimAlreadyDone as done:
        messages.info(request, error_message(done))
    except services.LeagueError as error:
        messages.error(request, error_message(error))
    else:
        messages.success(request, success(result))
    if not _still_manages(request, organization):
        return redirect("home")  # an owner who left, or stepped down to judge
    return redirect("store_page", org=organization.slug)


def _still_manages(request: HttpRequest, organization: Organization) -> bool:
    return request.user.is_superuser or (
        Membership.objects.filter(
            organization=organization, user=request.user, role__in=MANAGER_ROLES
        ).exists()
    )


@login_required
@require_POST
def staff_role(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    organization = store_for_owner(request, org)
    role = request.POST.get("role", "")
    return _staff_write(
        request,
        organization,
        lambda: services.staff_role_set(
            organization=organization, membership_id=pk, role=role, by=request.user
        ),
        lambda membership: (
            _("%(name)s is now %(role)s.")
            % {"name": membership.user.get_username(), "role": membership.get_role_display()}
        ),
    )


@login_required
@require_POST
def staff_remove(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    organization = store_for_owner(request, org)
    return _staff_write(
        request,
        organization,
        lambda: services.staff_remove(organization=organization, membership_id=pk, by=request.user),
        lambda name: _("%(name)s is no longer on the staff.") % {"name": name},
    )


@login_required
@require_POST
def invitation_cancel(request: HttpRequest, org: str, pk: int) -> HttpResponse:
    organization = store_for_owner(request, org)
    return _staff_write(
        request,
        organization,
        lambda: services.invitation_cancel(
            organization=organization, invitation_id=pk, by=request.user
        ),
        lambda _done: _("The invitation is cancelled: its link no longer works."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def staff_join(request: HttpRequest, org: str, token: str) -> HttpResponse:
    """The invitation's link: GET shows what accepting means, POST accepts."""
    invitation = services.invitation_find(organization_slug=org, token=token)
    if invitation is None:
        raise Http404(_("This invitation link is not valid: check it is the whole address."))
    organization = invitation.organization
    if request.method == "POST":
        try:
            membership = services.invitation_accept(
                organization_slug=org, token=token, user=request.user
            )
        except services.ClaimAlreadyDone as done:
            messages.info(request, error_message(done))
        except services.LeagueError as error:
            messages.error(request, error_message(error))
            return redirect("staff_join", org=org, token=token)
        else:
            messages.success(
                request,
                _("You are now %(role)s of %(name)s.")
                % {"role": membership.get_role_display(), "name": organization.name},
            )
        if _still_manages(request, organization):
            return redirect("store_page", org=organization.slug)
        return redirect("my_guildhall")
    problem = services.invitation_problem(invitation, request.user)
    done = invitation.accepted_by_id == request.user.pk
    return render(
        request,
        "leagues/staff_join.html",
        {"organization": organization, "invitation": invitation, "problem": problem, "done": done},
        status=410 if problem and not done else 200,
    )


@require_GET
def store_theme(request: HttpRequest, org: str) -> HttpResponse:
    """The store's palette as a stylesheet (public): the Content-Security-Policy allows no
    inline style, so base.html links this file on the store's pages. Every accent token of the
    light scheme and of the dark one is drawn from the store's one colour, each chosen for
    contrast (leagues.domain.colour.store_palette); the projector keeps its own link colour.
    `?v=<accent>-<THEME_VERSION>` caches it for long, as the logo."""
    accent = Organization.objects.filter(slug=org).values_list("accent", flat=True).first()
    if not accent:
        raise Http404(_("This store has no accent colour."))
    css = theme_css(accent)
    response = HttpResponse(css, content_type="text/css; charset=utf-8")
    if request.GET.get("v") == theme_version(accent):
        response["Cache-Control"] = f"public, max-age={LOGO_CACHE_SECONDS}, immutable"
    else:
        response["Cache-Control"] = "public, max-age=0, must-revalidate"
    return response


def theme_css(accent: str) -> str:
    """The stylesheet of a store's palette: the light scheme on :root, the dark one in its
    media query, and the projector's (a dark page of its own) without its link colour."""
    palette = store_palette(accent)

    def block(selector: str, tokens: dict[str, str]) -> str:
        body = " ".join(f"--{name}: {value};" for name, value in tokens.items())
        return f"{selector} {{ {body} }}"

    light, dark = palette["light"].tokens(), palette["dark"].tokens()
    projector = {name: value for name, value in dark.items() if name != "accent"}
    return (
        f"{block(':root', light)}\n"
        f"@media (prefers-color-scheme: dark) {{ {block(':root', dark)} }}\n"
        f"{block('body.projector', projector)}\n"
    )


def store_logo(request: HttpRequest, org: str) -> HttpResponse:
    """The store's logo (public, like the store's name on its public leagues)."""
    row = Organization.objects.filter(slug=org).values("logo", "logo_type", "logo_version").first()
    if row is None or not row["logo_type"] or row["logo"] is None:
        raise Http404(_("This store has no logo."))
    etag = f'"logo-{row["logo_version"]}"'
    if request.headers.get("If-None-Match") == etag:
        response = HttpResponse(status=304)
    else:
        response = HttpResponse(bytes(row["logo"]), content_type=row["logo_type"])
    response["ETag"] = etag
    if request.GET.get("v") == str(row["logo_version"]):
        response["Cache-Control"] = f"public, max-age={LOGO_CACHE_SECONDS}, immutable"
    else:
        response["Cache-Control"] = "public, max-age=0, must-revalidate"
    response["Content-Disposition"] = "inline"
    return response
