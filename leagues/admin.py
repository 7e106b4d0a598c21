"""The admin for store organizers: every league model, scoped to the user's organizations.

Membership decides, not Django's per-model permissions: a store organizer needs only
`is_staff` and a Membership. Owners and organizers see and change their own organizations'
players, leagues, games and imports; judges and staff without a membership see nothing;
superusers see everything. Only superusers add organizations; owners change their own
organization and its memberships, organizers may look at them.

Games are written by the league services, as on the site: the admin's forms only collect
the game and its rows, `game_record` / `game_update` / `game_delete` check, lock, version, log
and re-rate, and whatever they (or, last, the database) refuse comes back as a form error
rather than a server error.
"""

from dataclasses import dataclass

from django import forms
from django.contrib import admin
from django.contrib.admin.actions import delete_selected
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError
from django.db.models import Count, OuterRef, Prefetch, Subquery
from django.db.models.functions import Coalesce
from django.forms.models import BaseInlineFormSet
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import permissions, services
from .deletion import delete_preview
from .models import (
    ApiToken,
    Game,
    GameResult,
    ImportBatch,
    League,
    Membership,
    Organization,
    Player,
    Role,
)

# How to reach the organization from each model that a foreign key may point at.
ORGANIZATION_PATHS = {
    Organization: "pk",
    League: "organization",
    Player: "organization",
    Game: "league__organization",
    ImportBatch: "league__organization",
    GameResult: "game__league__organization",
}

# What the database's constraint names mean for the person at the form.
CONSTRAINT_MESSAGES = {
    "game_has_two_players": _("A game needs at least 2 players."),
    "game_places_are_a_ranking": _(
        "The places are not a ranking: tied players share a place and the next place skips "
        "past them (1, 2, 2, 4)."
    ),
    "result_one_per_player_per_game": _("A player can appear only once in a game."),
    "result_one_player_per_seat": _("Two players cannot have the same seat."),
    "result_placement_from_one": _("Places start at 1 (the winner)."),
    "result_seat_from_one": _("Seats are numbered from 1."),
}


# --- who may do what ---------------------------------------------------------------------


def managed_ids(request) -> set[int] | None:
    """`permissions.managed_organization_ids` for the request's user, once per request."""
    if not hasattr(request, "_guildhall_managed_ids"):
        request._guildhall_managed_ids = permissions.managed_organization_ids(request.user)
    return request._guildhall_managed_ids


def owned_ids(request) -> set[int] | None:
    """Ids of the organizations the request's user owns; None means all (superuser)."""
    if not hasattr(request, "_guildhall_owned_ids"):
        managed = managed_ids(request)
        if managed is None or not managed:
            owned = managed
        else:
            owned = set(
                request.user.memberships.filter(role=Role.OWNER).values_list(
                    "organization_id", flat=True
                )
            )
        request._guildhall_owned_ids = owned
    return request._guildhall_owned_ids


def allowed(ids: set[int] | None, organization_id: int | None) -> bool:
    return ids is None or (organization_id is not None and organization_id in ids)


def organization_id_of(obj, path: str) -> int | None:
    """The id of the organization `obj` belongs to, following `path` ("league__organization")."""
    if path == "pk":
        return obj.pk
    *hops, last = path.split("__")
    for hop in hops:
        obj = getattr(obj, hop, None)
        if obj is None:
            return None
    return getattr(obj, f"{last}_id", None)


def _scoped_choices(request, model):
    path = ORGANIZATION_PATHS[model]
    return permissions.scope(model._default_manager.all(), managed_ids(request), path)


class OrganizationScopedMixin:
    """Foreign-key choices limited to the organizations the user manages."""

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.related_model in ORGANIZATION_PATHS and "queryset" not in kwargs:
            kwargs["queryset"] = _scoped_choices(request, db_field.related_model)
            if db_field.related_model is Organization:
                ids = managed_ids(request)
                if ids is not None and len(ids) == 1:
                    kwargs.setdefault("initial", next(iter(ids)))
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class OrganizationScopedAdmin(OrganizationScopedMixin, admin.ModelAdmin):
    """A ModelAdmin whose rows and rights come from the user's memberships.

    `organization_path` leads from the model to its Organization ("pk" for Organization
    itself). Superusers see everything; owners and organizers their organizations' rows;
    everyone else nothing.
    """

    organization_path = "organization"

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        return permissions.scope(queryset, managed_ids(request), self.organization_path)

    def organization_id(self, obj) -> int | None:
        return organization_id_of(obj, self.organization_path)

    def manages(self, request, obj=None) -> bool:
        """True when the user manages some organization, and `obj`'s when one is given."""
        ids = managed_ids(request)
        if ids is None:
            return True
        if obj is None:
            return bool(ids)
        return allowed(ids, self.organization_id(obj))

    def has_module_permission(self, request):
        return self.manages(request)

    def has_view_permission(self, request, obj=None):
        return self.manages(request, obj)

    def has_add_permission(self, request):
        return self.manages(request)

    def has_change_permission(self, request, obj=None):
        return self.manages(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self.manages(request, obj)

    # Rows that go with the deleted one (a game's results, a league's imports) need no right
    # of their own: they are records nobody deletes alone, but they never outlive their parent.
    deleted_with_parent: tuple = ()

    def get_deleted_objects(self, objs, request):
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        for model in self.deleted_with_parent:
            perms_needed.discard(model._meta.verbose_name)
        return deleted, counts, perms_needed, protected

    # The admin's own page lists every row the cascade takes; this adds what it cannot see
    # (ratings replayed, tournament games that stay, rows left unlinked) and, when the delete
    # is refused, why, in one sentence (leagues.deletion).
    delete_confirmation_template = "admin/guildhall_delete_confirmation.html"

    def render_delete_form(self, request, context):
        context["delete_preview"] = delete_preview(context["object"])
        return super().render_delete_form(request, context)

    delete_selected_confirmation_template = "admin/guildhall_delete_selected_confirmation.html"

    def get_actions(self, request):
        actions = super().get_actions(request)
        if "delete_selected" in actions:
            _, name, description = actions["delete_selected"]
            actions["delete_selected"] = (delete_selected_with_previews, name, description)
        return actions


def delete_selected_with_previews(modeladmin, request, queryset):
    """Django's bulk delete, its confirmation also saying what each deletion cannot list."""
    response = delete_selected(modeladmin, request, queryset)
    if isinstance(response, TemplateResponse) and response.context_data is not None:
        response.context_data["delete_previews"] = [delete_preview(obj) for obj in queryset]
    return response


def _count_of(model, field: str):
    """A subquery counting `model` rows whose `field` is the outer row (no join fan-out)."""
    counted = (
        model.objects.filter(**{field: OuterRef("pk")})
        .order_by()
        .values(field)
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted), 0)


def username_field():
    """A user picked by typing the exact username: no list of every account on the site."""
    user_model = get_user_model()
    return forms.ModelChoiceField(
        queryset=user_model._default_manager.all(),
        to_field_name=user_model.USERNAME_FIELD,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        error_messages={"invalid_choice": _("There is no user with this username.")},
        help_text=_("The exact username of the person's Guildhall account."),
    )


class SiteMadeSlugMixin:
    """The slug is the site's to choose for everyone but superusers.

    Slugs are unique across the site, so a slug a store could type would be refused when
    another store has it ("League with this Slug already exists"), which tells that store
    the other's private league or event exists. Superusers (who see every store) still edit
    it; for everyone else it is read-only and a new row gets `services.slug_new`'s slug,
    made from the store's slug and the name, numbered against the store's own rows only.
    Organizations set `slug_scope = None`: a superuser types it or leaves it empty for
    `services.organization_slug_new` (the name, numbered across the site: store names are
    public). No script fills a slug from the name (see `get_prepopulated_fields`).
    """

    slug_scope: str | None = "organization"  # the path from the row to its Organization
    slug_fallback = "league"

    def slug_editable(self, request) -> bool:
        return request.user.is_superuser

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not self.slug_editable(request):
            fields.append("slug")
        return fields

    def get_prepopulated_fields(self, request, obj=None):
        # Never filled from the name by the admin's script: it wrote the slug as the name was
        # typed, so a superuser who then typed the slug they wanted got both run together
        # ("goblin-forge-gamesgoblin-forge", issue 43). What is typed is the slug; an empty
        # one is made from the name when the row is saved.
        return {}

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        slug = form.base_fields.get("slug")
        if slug is not None and obj is None:
            slug.required = False
            slug.help_text = _(
                "Leave it empty and it is made from the name (Goblin Forge Games: "
                "goblin-forge-games); or type the whole address part you want."
            )
        return form

    def save_model(self, request, obj, form, change):
        if not obj.slug and self.slug_scope is None:
            obj.slug = services.organization_slug_new(name=obj.name)
        if not obj.slug and self.slug_scope is not None:
            organization = Organization.objects.get(pk=organization_id_of(obj, self.slug_scope))
            obj.slug = services.slug_new(
                model=type(obj),
                organization=organization,
                name=obj.name,
                scope=self.slug_scope,
                fallback=self.slug_fallback,
            )
        super().save_model(request, obj, form, change)


class LabelledTabularInline(admin.TabularInline):
    """Django's tabular inline, its fields named. It draws a row's fields in table cells under
    the column's heading, without a <label>: a screen reader reads a nameless box (axe's
    `label` and `select-name`, critical). Each field of each row, the "Add another" row's
    template and the delete box included, is named after its column by `aria-label`."""

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)

        class Labelled(formset):
            def add_fields(self, form, index):
                super().add_fields(form, index)
                for name, field in form.fields.items():
                    label = str(field.label or name.replace("_", " ").capitalize())
                    # The admin wraps a related field's widget (its "+" and pencil links): the
                    # wrapped <select> is the one drawn.
                    for widget in {field.widget, getattr(field.widget, "widget", field.widget)}:
                        widget.attrs = {**widget.attrs, "aria-label": label}

        Labelled.__name__ = formset.__name__
        return Labelled


# --- organizations and memberships --------------------------------------------------------


class MembershipInline(OrganizationScopedMixin, LabelledTabularInline):
    """Members inside their organization: owners edit them, organizers look at them."""

    model = Membership
    extra = 0
    fields = ["user", "role"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":
            return username_field()
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user")

    def has_view_permission(self, request, obj=None):
        ids = managed_ids(request)
        if obj is None:
            return ids is None or bool(ids)
        return allowed(ids, obj.pk)

    def _owns(self, request, obj) -> bool:
        ids = owned_ids(request)
        return ids is None or (obj is not None and obj.pk in ids)

    def has_add_permission(self, request, obj):
        return self._owns(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._owns(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._owns(request, obj)


@admin.register(Organization)
class OrganizationAdmin(SiteMadeSlugMixin, OrganizationScopedAdmin):
    organization_path = "pk"
    slug_scope = None  # superusers create organizations, slug and all
    list_display = ["name", "slug", "league_count", "player_count"]
    search_fields = ["name", "slug"]
    fields = ["name", "slug", "created_at"]
    readonly_fields = ["created_at"]
    inlines = [MembershipInline]
    # An organization's tokens go with it (nobody deletes a token alone: they are revoked).
    deleted_with_parent = (ApiToken,)

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .annotate(
                league_count=_count_of(League, "organization"),
                player_count=_count_of(Player, "organization"),
            )
        )

    @admin.display(description=_("leagues"), ordering="league_count")
    def league_count(self, obj):
        return obj.league_count

    @admin.display(description=_("players"), ordering="player_count")
    def player_count(self, obj):
        return obj.player_count

    def has_add_permission(self, request):
        return request.user.is_active and request.user.is_superuser

    def has_change_permission(self, request, obj=None):
        ids = owned_ids(request)
        if ids is None:
            return True
        return bool(ids) if obj is None else obj.pk in ids

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


@admin.register(Membership)
class MembershipAdmin(OrganizationScopedAdmin):
    list_display = ["user", "organization", "role"]
    list_filter = [("organization", admin.RelatedOnlyFieldListFilter), "role"]
    search_fields = ["user__username", "user__email", "organization__name"]
    list_select_related = ["user", "organization"]
    fields = ["organization", "user", "role"]

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "user":
            return username_field()
        if db_field.name == "organization":
            kwargs["queryset"] = permissions.scope(
                Organization.objects.all(), owned_ids(request), "pk"
            )
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def _owns(self, request, obj=None) -> bool:
        ids = owned_ids(request)
        if ids is None:
            return True
        return bool(ids) if obj is None else obj.organization_id in ids

    def has_add_permission(self, request):
        return self._owns(request)

    def has_change_permission(self, request, obj=None):
        return self._owns(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._owns(request, obj)


# --- players and leagues ------------------------------------------------------------------


class PlayerAdminForm(forms.ModelForm):
    """A player's name as every other way in cleans it (leagues.services.players): normalized,
    and a name that reads like another player of the store needs the look-alike box."""

    look_alike_ok = forms.BooleanField(
        required=False,
        label=_("The name only looks like another player's: they are someone else"),
    )

    class Meta:
        model = Player
        fields = ["organization", "name", "user", "sees_private_leagues"]

    def clean(self):
        cleaned = super().clean()
        name = cleaned.get("name")
        organization = cleaned.get("organization") or getattr(self.instance, "organization", None)
        if not name or organization is None:
            return cleaned
        try:
            name = services.player_name_clean(name)
            if self.instance.pk is None or name.casefold() != self.instance.name.casefold():
                services.players_new_check(
                    organization=organization,
                    names=[name],
                    look_alikes_confirmed=cleaned.get("look_alike_ok", False),
                    exclude=self.instance.pk,
                )
        except services.LeagueError as error:
            self.add_error("name", str(error))
        cleaned["name"] = name
        return cleaned


@admin.register(Player)
class PlayerAdmin(OrganizationScopedAdmin):
    list_display = ["name", "organization", "user", "games_played", "created_at"]
    list_filter = [("organization", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["name"]
    list_select_related = ["organization", "user"]
    form = PlayerAdminForm
    fields = ["organization", "name", "look_alike_ok", "user", "sees_private_leagues", "created_at"]
    readonly_fields = ["created_at"]
    autocomplete_fields = ["user"]
    # Results protect their player; say so rather than "no permission to delete results".
    deleted_with_parent = (GameResult,)

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(games_played=Count("results"))

    @admin.display(description=_("games"), ordering="games_played")
    def games_played(self, obj):
        return obj.games_played

    def get_readonly_fields(self, request, obj=None):
        # Linking a player to someone's account is for superusers: an organizer would have
        # to pick from every account on the site.
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            fields.append("user")
        return fields


@admin.register(League)
class LeagueAdmin(SiteMadeSlugMixin, OrganizationScopedAdmin):
    list_display = [
        "name",
        "organization",
        "game_label",
        "is_public",
        "starts_on",
        "ends_on",
        "game_count",
    ]
    list_filter = [("organization", admin.RelatedOnlyFieldListFilter), "is_public", "game_label"]
    search_fields = ["name", "slug", "game_label"]
    list_select_related = ["organization"]
    deleted_with_parent = (GameResult, ImportBatch)
    fields = [
        "organization",
        "name",
        "slug",
        "game_label",
        "is_public",
        "starts_on",
        "ends_on",
        "created_at",
    ]
    readonly_fields = ["created_at"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(game_count=Count("games"))

    @admin.display(description=_("games"), ordering="game_count")
    def game_count(self, obj):
        return obj.game_count


# --- games and their results --------------------------------------------------------------


class GameResultForm(forms.ModelForm):
    placement = forms.IntegerField(
        min_value=1, max_value=32767, help_text=_("1 = winner; tied players share a place.")
    )
    seat = forms.IntegerField(
        min_value=1, max_value=32767, required=False, help_text=_("Turn order, 1 = went first.")
    )

    class Meta:
        model = GameResult
        fields = ["player", "placement", "seat", "stats"]
        widgets = {"stats": forms.Textarea(attrs={"rows": 1, "cols": 32})}

    def clean_stats(self):
        # The model field is NOT NULL; an emptied box means "no stats", not NULL.
        return self.cleaned_data.get("stats") or {}


class GameResultFormSet(BaseInlineFormSet):
    """A game's results as rows for `services.ResultIn`; the formset itself saves nothing.

    The game and its results are written together by the league services (GameAdmin's
    `save_related`), which check them as a whole; a refusal comes back as `refusal`.
    """

    # Set by GameAdmin when the services or the database refused the rows (see Refusal).
    refusal: str | None = None

    def _rows(self):
        for form in self.forms:
            if self._should_delete_form(form) or not form.cleaned_data:
                continue
            if form.instance.pk is None and not form.has_changed():
                continue
            yield form.cleaned_data

    def clean(self):
        if self.refusal:
            raise ValidationError(self.refusal, code="refused")
        if any(self.errors):
            return
        super().clean()

    def validate_unique(self):
        pass  # a player twice is the services' refusal, with the player's name in it

    def results(self) -> list[services.ResultIn]:
        """The rows kept on the page (deleted and untouched blank rows left out)."""
        return [
            services.ResultIn(
                player=row["player"],
                place=row["placement"],
                seat=row.get("seat"),
                stats=row.get("stats") or {},
            )
            for row in self._rows()
        ]


class ParentManagedInlineMixin:
    """An inline whose rows anyone who manages the parent's store may view, add, change and
    delete: membership decides, not Django's per-model permissions. `parent_model_scope`
    names the parent's model (its path to the organization is in ORGANIZATION_PATHS)."""

    parent_model_scope: type

    def _manages_parent(self, request, obj) -> bool:
        ids = managed_ids(request)
        if obj is None:
            return ids is None or bool(ids)
        return allowed(ids, organization_id_of(obj, ORGANIZATION_PATHS[self.parent_model_scope]))

    def has_view_permission(self, request, obj=None):
        return self._manages_parent(request, obj)

    def has_add_permission(self, request, obj):
        return self._manages_parent(request, obj)

    def has_change_permission(self, request, obj=None):
        return self._manages_parent(request, obj)

    def has_delete_permission(self, request, obj=None):
        return self._manages_parent(request, obj)


class GameResultInline(ParentManagedInlineMixin, OrganizationScopedMixin, LabelledTabularInline):
    model = GameResult
    form = GameResultForm
    formset = GameResultFormSet
    fields = ["player", "placement", "seat", "stats"]
    ordering = ["placement", "seat", "id"]

    def get_extra(self, request, obj=None, **kwargs):
        return 4 if obj is None else 1

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        refusal = getattr(request, "_guildhall_game_refusal", None)
        formset.refusal = refusal.message if refusal and refusal.field == "results" else None
        if obj is not None and obj.league_id and "player" in formset.form.base_fields:
            field = formset.form.base_fields["player"]
            field.queryset = field.queryset.filter(organization_id=obj.league.organization_id)
        return formset

    # The parent game decides: whoever may change the game may change its results.
    parent_model_scope = Game


@dataclass(frozen=True)
class Refusal:
    """A game write refused by the services or the database, and where the page shows it:
    a field of the game form, "__all__" for the game as a whole, or "results"."""

    message: str
    field: str

    GAME_FIELDS = ("league", "played_on", "notes")

    @classmethod
    def of(cls, error: Exception) -> "Refusal":
        if isinstance(error, IntegrityError):
            return cls(integrity_message(error), "results")
        if isinstance(error, services.GameConflict):
            return cls(STALE_MESSAGE, "__all__")
        field = error.field if error.field in cls.GAME_FIELDS else "results"
        return cls(error.message, field)


STALE_MESSAGE = _(
    "Someone changed this game after you opened this page: open it again to see it as it is "
    "now, then make your change."
)


def integrity_message(error: IntegrityError) -> str:
    constraint = getattr(getattr(error.__cause__, "diag", None), "constraint_name", None)
    return CONSTRAINT_MESSAGES.get(
        constraint, _("The game could not be saved: it breaks a rule of the database.")
    )


class GameAdminForm(forms.ModelForm):
    """The game form with the version it showed, so a change made meanwhile is not overwritten."""

    seen_version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    # Set by GameAdmin when the services refused the game itself (see Refusal).
    refusal: Refusal | None = None

    class Meta:
        model = Game
        fields = ["league", "played_on", "notes"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["seen_version"].initial = self.instance.version

    def clean_played_on(self):
        try:
            return services.game_date_check(self.cleaned_data["played_on"])
        except services.LeagueError as error:
            raise ValidationError(str(error), code=error.code) from None

    def clean(self):
        cleaned = super().clean()
        if self.refusal is not None and self.refusal.field != "results":
            field = None if self.refusal.field == "__all__" else self.refusal.field
            self.add_error(field, self.refusal.message)
        return cleaned


@admin.register(Game)
class GameAdmin(OrganizationScopedAdmin):
    """Games with their results inline, written by the league services like any other game.

    The admin only reads the forms: `save_related` hands the game and its rows to
    `game_record` or `game_update` (which lock the league, check the results, bump the
    version and log the change with "(admin)"), and deletions go to `game_delete` and
    `games_delete`. A refusal rolls the request's transaction back and shows the same page
    again with the message where it belongs.
    """

    organization_path = "league__organization"
    list_display = ["played_on", "league", "players_summary", "source", "entered_by"]
    ordering = ["-played_on", "-id"]  # what an organizer looks for first: the latest games
    list_filter = [("league", admin.RelatedOnlyFieldListFilter), "source"]
    date_hierarchy = "played_on"
    search_fields = ["results__player__name", "notes"]
    list_select_related = ["league", "league__organization", "entered_by"]
    form = GameAdminForm
    fields = [
        "league",
        "played_on",
        "notes",
        "source",
        "import_batch",
        "entered_by",
        "created_at",
        "seen_version",
    ]
    readonly_fields = ["source", "import_batch", "entered_by", "created_at"]
    inlines = [GameResultInline]
    deleted_with_parent = (GameResult,)

    def get_queryset(self, request):
        results = GameResult.objects.select_related("player").order_by("placement", "seat", "id")
        return super().get_queryset(request).prefetch_related(Prefetch("results", queryset=results))

    @admin.display(description=_("finishing order"))
    def players_summary(self, obj):
        return " · ".join(f"{r.placement} {r.player}" for r in obj.results.all())

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.refusal = getattr(request, "_guildhall_game_refusal", None)
        return form

    def save_model(self, request, obj, form, change):
        pass  # written with its results in save_related, by the services

    def save_related(self, request, form, formsets, change):
        obj = form.instance
        (results,) = (f.results() for f in formsets if isinstance(f, GameResultFormSet))
        data = form.cleaned_data
        if change:
            game = services.game_update(
                game=obj,
                league=data["league"],
                results=results,
                played_on=data["played_on"],
                notes=data["notes"],
                expected_version=data.get("seen_version"),
                by=request.user,
                via="admin",
            )
        else:
            game = services.game_record(
                league=data["league"],
                results=results,
                played_on=data["played_on"],
                notes=data["notes"],
                by=request.user,
                via="admin",
            )
        # The admin goes on with `obj` (its history entry, the redirect): make it the game.
        for field in Game._meta.concrete_fields:
            setattr(obj, field.attname, getattr(game, field.attname))
        obj._state.adding = False

    def construct_change_message(self, request, form, formsets, add=False):
        # The formsets saved nothing themselves, so they have no saved rows to describe.
        return super().construct_change_message(request, form, None, add)

    def delete_model(self, request, obj):
        services.game_delete(game=obj, by=request.user, via="admin")

    def delete_queryset(self, request, queryset):
        services.games_delete(games=queryset.select_related("league"), by=request.user, via="admin")

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except (services.LeagueError, IntegrityError) as error:
            if request.method != "POST" or hasattr(request, "_guildhall_game_refusal"):
                raise
            # Nothing was stored (changeform_view's transaction rolled back): show the same
            # form again with the refusal where it belongs.
            request._guildhall_game_refusal = Refusal.of(error)
            return super().changeform_view(request, object_id, form_url, extra_context)


@admin.register(GameResult)
class GameResultAdmin(OrganizationScopedAdmin):
    """Every result row, to look things up; results are edited inside their game."""

    organization_path = "game__league__organization"
    list_display = ["game_link", "played_on", "league", "player", "placement", "seat"]
    list_filter = [("game__league", admin.RelatedOnlyFieldListFilter), "placement"]
    search_fields = ["player__name"]
    list_select_related = ["game", "game__league", "player"]
    fields = ["game", "player", "placement", "seat", "stats"]

    @admin.display(description=_("game"), ordering="game_id")
    def game_link(self, obj):
        url = reverse("admin:leagues_game_change", args=[obj.game_id])
        return format_html('<a href="{}">#{}</a>', url, obj.game_id)

    @admin.display(description=_("played on"), ordering="game__played_on")
    def played_on(self, obj):
        return obj.game.played_on

    @admin.display(description=_("league"), ordering="game__league__name")
    def league(self, obj):
        return obj.game.league

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


# --- imports ------------------------------------------------------------------------------


@admin.register(ImportBatch)
class ImportBatchAdmin(OrganizationScopedAdmin):
    """The record of every uploaded file; imports happen on the site, never here."""

    organization_path = "league__organization"
    list_display = ["league", "filename", "status", "games_imported", "created_by", "created_at"]
    list_filter = ["status", ("league", admin.RelatedOnlyFieldListFilter)]
    search_fields = ["filename", "sha256"]
    list_select_related = ["league", "created_by"]
    date_hierarchy = "created_at"
    fields = [
        "league",
        "filename",
        "status",
        "games_imported",
        "skipped_lines",
        "created_by",
        "created_at",
        "imported_at",
        "sha256",
        "file_content",
    ]
    readonly_fields = fields

    class Media:
        # The file's look, from a stylesheet: the Content-Security-Policy blocks inline styles.
        css = {"all": ["guildhall/admin.css"]}

    @admin.display(description=_("content"))
    def file_content(self, obj):
        return format_html('<pre class="import-file">{}</pre>', obj.content)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_superuser


@admin.register(ApiToken)
class ApiTokenAdmin(OrganizationScopedAdmin):
    """API tokens are issued with `manage.py api_token create`; here they are listed and revoked.

    The hash is never shown; the plaintext exists only in the creator's hands.
    """

    organization_path = "organization"
    list_display = [
        "name",
        "prefix",
        "organization",
        "created_by",
        "created_at",
        "last_used_at",
        "revoked_at",
    ]
    list_filter = [
        ("organization", admin.RelatedOnlyFieldListFilter),
        ("revoked_at", admin.EmptyFieldListFilter),
    ]
    search_fields = ["name", "prefix"]
    list_select_related = ["organization", "created_by"]
    fields = readonly_fields = list_display  # never key_hash
    actions = ["revoke_tokens"]

    @admin.action(description=_("Revoke the selected tokens"))
    def revoke_tokens(self, request, queryset):
        revoked = sum(token.revoke() for token in queryset)
        self.message_user(
            request,
            ngettext("Revoked %(count)s token.", "Revoked %(count)s tokens.", revoked)
            % {"count": revoked},
        )

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # read-only; the revoke action needs no "change" permission

    def has_delete_permission(self, request, obj=None):
        return False
