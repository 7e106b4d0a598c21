"""A player's own pages: My Guildhall, and entering the claim code a store handed out."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from core.errors_http import error_message
from leagues import services as league_services

from .adapter import discord_configured
from .selectors import my_guildhall


class ClaimCodeForm(forms.Form):
    code = forms.CharField(
        label="Claim code",
        max_length=40,
        help_text="The code the store gave you, like ABCD-EF23 (capitals or not, dash or not).",
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "characters"}),
    )


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
            messages.success(request, f"You are {player.name} at {player.organization}.")
            return redirect("my_guildhall")
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/claim.html", {"form": form}, status=status)
