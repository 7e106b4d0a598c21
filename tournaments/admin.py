"""Tournaments in the admin, for store organizers: rounds and tables inline, scoped per store.

Pairing, results and drops happen on the tournament pages (they validate and record what a
TO does); here an organizer sets up events and looks at, or repairs, what is stored, and
names an event's own judges / TOs (people who run that one event without being store members).
"""

from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from leagues.admin import (
    ORGANIZATION_PATHS,
    LabelledTabularInline,
    LeagueAdmin,
    OrganizationScopedAdmin,
    OrganizationScopedMixin,
    ParentManagedInlineMixin,
    SiteMadeSlugMixin,
    username_field,
)

from .models import Entry, Round, Seat, Table, Tournament, TournamentJudge
from .services.events import far_date_problem

ORGANIZATION_PATHS.update(
    {
        Tournament: "league__organization",
        Entry: "tournament__league__organization",
        Round: "tournament__league__organization",
        Table: "round__tournament__league__organization",
    }
)

# A round or table is never deleted alone (the event's state would no longer match its rounds),
# but it goes with its tournament or league: those deletes need no right of their own.
LeagueAdmin.deleted_with_parent = (*LeagueAdmin.deleted_with_parent, Round, Table)


class EntryInline(OrganizationScopedMixin, LabelledTabularInline):
    model = Entry
    fields = ["player", "joined_round", "dropped_after"]
    autocomplete_fields = []
    extra = 0


class TournamentJudgeInline(ParentManagedInlineMixin, LabelledTabularInline):
    """Judges / TOs for this one event: they run its console without being store members."""

    model = TournamentJudge
    fields = ["user"]
    extra = 0

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":
            return username_field()
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")

    # The store's owners and organizers (and superusers) name an event's judges.
    parent_model_scope = Tournament


@admin.display(description=_("Notes"))
def round_notes(round_: Round) -> str:
    """A round's notes in the reader's language (they are kept as data: `Round.notes`)."""
    return round_.notes_text


class RoundInline(LabelledTabularInline):
    model = Round
    fields = ["number", "kind", "status", "ends_at", round_notes]
    readonly_fields = ["number", "kind", round_notes]
    extra = 0
    show_change_link = True
    can_delete = False  # a round goes with its tournament, never alone

    def has_add_permission(self, request, obj=None):
        return False  # rounds are paired on the tournament page


class TournamentAdminForm(forms.ModelForm):
    """The event form, asking as the site's does before a date more than a year ahead."""

    confirm_date = forms.BooleanField(
        required=False,
        label=_("Date confirmed"),
        help_text=_("Only for a date more than a year ahead: tick it if that date is right."),
    )

    # No Meta: the admin builds the form class for Tournament with its own field list.

    def clean(self):
        cleaned = super().clean()
        day = cleaned.get("date")
        changed = self.instance.pk is None or "date" in self.changed_data
        far = far_date_problem(day) if day and changed else None
        if far and not cleaned.get("confirm_date"):
            self.add_error("date", forms.ValidationError(far, code="far_date"))
        return cleaned


@admin.register(Tournament)
class TournamentAdmin(SiteMadeSlugMixin, OrganizationScopedAdmin):
    organization_path = "league__organization"
    slug_scope = "league__organization"
    slug_fallback = "event"
    form = TournamentAdminForm
    list_display = ["name", "league", "date", "format", "status", "top_cut"]
    list_filter = [("league", admin.RelatedOnlyFieldListFilter), "format", "status"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    list_select_related = ["league"]
    date_hierarchy = "date"
    inlines = [TournamentJudgeInline, EntryInline, RoundInline]
    readonly_fields = ["created_by", "created_at"]
    deleted_with_parent = (Round, Table)

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


class SeatInline(LabelledTabularInline):
    model = Seat
    fields = ["position", "entry", "game_wins", "place"]
    readonly_fields = ["position", "entry"]
    extra = 0
    can_delete = False


class TableInline(LabelledTabularInline):
    model = Table
    fields = ["number", "reported", "is_draw", "game_draws", "winner", "game", "version"]
    readonly_fields = fields
    extra = 0
    show_change_link = True
    can_delete = False


@admin.register(Round)
class RoundAdmin(OrganizationScopedAdmin):
    organization_path = "tournament__league__organization"
    list_display = ["tournament", "number", "kind", "status", "ends_at"]
    list_filter = ["kind", "status"]
    list_select_related = ["tournament"]
    readonly_fields = ["tournament", "number", "kind", "stage", round_notes]
    exclude = ["notes"]  # kept as data: shown as `round_notes`
    inlines = [TableInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # rounds change through the tournament pages, which record who did what

    def has_delete_permission(self, request, obj=None):
        return False  # a round goes with its tournament; alone it would leave the event torn


@admin.register(Table)
class TableAdmin(OrganizationScopedAdmin):
    organization_path = "round__tournament__league__organization"
    list_display = ["__str__", "reported", "is_draw", "winner", "game"]
    list_filter = ["reported"]
    list_select_related = ["round__tournament", "winner__player", "game"]
    readonly_fields = ["round", "number", "game", "version", "reported_by", "reported_at"]
    inlines = [SeatInline]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # results are entered on the tournament pages (validated, versioned)

    def has_delete_permission(self, request, obj=None):
        return False  # a table goes with its round's tournament, never alone
