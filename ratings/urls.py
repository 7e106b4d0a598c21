from django.urls import path

from . import league_new, pages, views

urlpatterns = [
    path("leagues/<slug:slug>/", pages.league_detail, name="league_detail"),
    path("leagues/<slug:slug>/games/", pages.league_games, name="league_games"),
    path(
        "leagues/<slug:slug>/players/<int:player_id>/",
        pages.player_detail,
        name="player_detail",
    ),
    path("leagues/<slug:slug>/lab/", views.rating_lab, name="rating_lab"),
    path("leagues/<slug:slug>/rating-settings/", views.rating_settings, name="rating_settings"),
    path("organizations/<slug:org>/leagues/new/", league_new.league_new, name="league_new"),
]
