"""A player's own pages: My Guildhall, entering the claim code a store handed out, and the
account's language; and allauth's sign-up page, answering a sign-up that lost a race for its
name."""

from datetime import timedelta

from allauth.account import app_settings
from allauth.account.adapter import get_adapter
from allauth.account.views import SignupView as AllauthSignupView
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from core import languages
from core.errors_http import error_message
from core.models import AccountLanguage
from leagues import services as league_services

from .adapter import discord_configured
from .forms import SignupConflict
from .selectors import my_guildhall


class ClaimCodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Claim code"),
        max_length=40,
        help_text=gettext_lazy(
            "The code the store gave you, like ABCD-EF23 (capitals or not, dash or not)."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


#: The language choice's "none": the store's language on its pages, else the browser's.
NO_CHOICE = ""


class LanguageForm(forms.Form):
    """An account's own language: one of the site's, each named in itself, or none."""

    language = forms.ChoiceField(
        label=gettext_lazy("Language"),
        required=False,
        widget=forms.RadioSelect,
        error_messages={
            "invalid_choice": gettext_lazy(
                "Guildhall does not speak “%(value)s”: choose one of the languages listed."
            )
        },
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].choices = [
            (NO_CHOICE, _("No choice (the store's or your browser's)")),
            *settings.LANGUAGES,
        ]


@login_required
@require_GET
def my_guildhall_view(request: HttpRequest) -> HttpResponse:
    page = my_guildhall(user=request.user)
    return render(
        request,
        "accounts/my_guildhall.html",
        {"page": page, "form": ClaimCodeForm(), "discord": discord_configured()},
    )


@login_required
@require_http_methods(["GET", "POST"])
def claim_with_code(request: HttpRequest) -> HttpResponse:
    form = ClaimCodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            player = league_services.claim_with_code(
                user=request.user, code=form.cleaned_data["code"]
            )
        except league_services.ClaimAlreadyDone as done:
            messages.info(request, error_message(done))
            return redirect("my_guildhall")
        except league_services.LeagueError as error:
            form.add_error("code", error_message(error))
        else:
            messages.success(
                request,
                _("You are %(player)s at %(store)s.")
                % {"player": player.name, "store": player.organization},
            )
            return redirect("my_guildhall")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/claim.html", {"form": form}, status=status)


@login_required
@require_http_methods(["GET", "POST"])
def account_language_view(request: HttpRequest) -> HttpResponse:
    """The account chooses the language of its pages and its mails, or none. Pressing twice
    saves the same choice twice; an unknown code is refused and changes nothing."""
    current = languages.account_language(request.user) or NO_CHOICE
    form = LanguageForm(request.POST or None, initial={"language": current})
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["language"]
        if code == NO_CHOICE:
            AccountLanguage.objects.filter(user_id=request.user.pk).delete()
            request.session.pop(languages.SESSION_KEY, None)
            # The answer is read as the next page is: in the browser's language.
            request.COOKIES.pop(settings.LANGUAGE_COOKIE_NAME, None)
            translation.activate(translation.get_language_from_request(request))
            messages.success(
                request,
                _(
                    "You chose no language: a store's pages are in the store's language, "
                    "the others in your browser's."
                ),
            )
            response = redirect("account_language")
            response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
            return response
        code = languages.choose(request, code)
        translation.activate(code)
        messages.success(
            request,
            _("Guildhall is now in %(language)s for you.") % {"language": _language_name(code)},
        )
        response = redirect("account_language")
        # The same choice as the footer's switch, for the pages read after logging out.
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
        return response
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/language.html", {"form": form}, status=status)


def _language_name(code: str) -> str:
    """A language named in itself ("Polski"), as the choice lists it."""
    return dict(settings.LANGUAGES).get(code, code)


# A sign-up sent again within this time (a double tap, a slow network's retry) with the same
# username, address and password is the same sign-up. Only this short: the repeat's answer
# tells whether the password was right, which for older accounts is the log-in's to say
# (under its lockout).
REPEAT_WINDOW = timedelta(seconds=30)


class SignupView(AllauthSignupView):
    """allauth's sign-up, safe to press twice and to lose a race for its name:

    - the same sign-up sent again (same username, address and password, the account made
      seconds ago) goes where the first went, the "check your mail" page or the player's page,
      and sends no mail more;
    - a save the database refused because a sign-up at the same moment took the address gets
      what a sign-up a second later gets where the site does not say which addresses have
      accounts: the "check your mail" page (without allauth's "you already have an account"
      mail, which its one mail per address every few minutes could send in place of the
      winner's verification mail);
    - otherwise the form again with allauth's sentence ("A user with that username already
      exists.", "A user is already registered with this email address."), never a 500.
    """

    def form_valid(self, form):
        try:
            return super().form_valid(form)
        except SignupConflict:
            return self.lost_the_race(form)

    def form_invalid(self, form):
        return self.repeated(form) or super().form_invalid(form)

    def repeated(self, form):
        """Where the first of these sign-ups went, if this is one sent again; else None."""
        data = form.data
        username, email = data.get("username", "").strip(), data.get("email", "").strip()
        if not username or not email:
            return None
        first = (
            get_user_model()
            .objects.filter(
                username__iexact=username,
                email__iexact=email,
                date_joined__gte=timezone.now() - REPEAT_WINDOW,
            )
            .first()
        )
        if first is None or not first.check_password(data.get("password1", "")):
            return None
        if app_settings.EMAIL_VERIFICATION == app_settings.EmailVerificationMethod.MANDATORY:
            return redirect("account_email_verification_sent")
        adapter = get_adapter(self.request)
        return redirect(self.get_success_url() or adapter.get_signup_redirect_url(self.request))

    def lost_the_race(self, form):
        repeat = self.repeated(form)
        if repeat is not None:
            return repeat
        # The winner is committed: the form's own checks now see it.
        form.account_already_exists = False
        form.full_clean()
        if form.is_valid() and form.account_already_exists:
            return redirect("account_email_verification_sent")
        if form.is_valid():  # the other account is gone again: say so rather than guess
            form.add_error(
                None,
                _(
                    "Someone signed up with this username or address at the same moment. "
                    "Please try again."
                ),
            )
        return super().form_invalid(form)
