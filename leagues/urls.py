from django.urls import path

from .views import audit, claims, games, imports, public, store

urlpatterns = [
    path("", public.home, name="home"),
    path("leagues/<slug:slug>/export.csv", imports.league_export, name="league_export"),
    path("leagues/<slug:slug>/games/new/", games.game_create, name="game_create"),
    path("leagues/<slug:slug>/games/new/row/", games.game_form_row, name="game_form_row"),
    path("games/<int:pk>/edit/", games.game_edit, name="game_edit"),
    path("games/<int:pk>/delete/", games.game_delete, name="game_delete"),
    path("leagues/<slug:slug>/import/", imports.import_upload, name="import_upload"),
    path("imports/<int:pk>/", imports.import_preview, name="import_preview"),
    path("organizations/<slug:org>/history/", audit.audit_log, name="audit_log"),
    path("organizations/<slug:org>/history/<int:pk>/undo/", audit.audit_undo, name="audit_undo"),
    path(
        "organizations/<slug:org>/players/",
        claims.organization_players,
        name="organization_players",
    ),
    path(
        "organizations/<slug:org>/players/<int:player_id>/claim-code/",
        claims.claim_code_issue,
        name="claim_code_issue",
    ),
    path("organizations/<slug:org>/claims/<int:pk>/", claims.claim_decide, name="claim_decide"),
    path(
        "leagues/<slug:slug>/players/<int:player_id>/claim/",
        claims.player_claim,
        name="player_claim",
    ),
    # A store set up from its own pages (leagues.views.store; the new league: ratings.urls).
    path("organizations/new/", store.store_new, name="store_new"),
    path("organizations/<slug:org>/store/", store.store_page, name="store_page"),
    path("organizations/<slug:org>/store/profile/", store.store_profile, name="store_profile"),
    path("organizations/<slug:org>/store/invite/", store.staff_invite, name="staff_invite"),
    path(
        "organizations/<slug:org>/store/staff/<int:pk>/role/",
        store.staff_role,
        name="staff_role",
    ),
    path(
        "organizations/<slug:org>/store/staff/<int:pk>/remove/",
        store.staff_remove,
        name="staff_remove",
    ),
    path(
        "organizations/<slug:org>/store/invitations/<int:pk>/cancel/",
        store.invitation_cancel,
        name="invitation_cancel",
    ),
    path("organizations/<slug:org>/join/<str:token>/", store.staff_join, name="staff_join"),
    path("organizations/<slug:org>/logo/", store.store_logo, name="store_logo"),
    path("organizations/<slug:org>/theme.css", store.store_theme, name="store_theme"),
]
