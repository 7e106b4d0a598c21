from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/seasons/", views.season_list, name="season_list"),
    path("leagues/<slug:slug>/seasons/new/", views.season_new, name="season_new"),
    path("leagues/<slug:slug>/seasons/<int:pk>/", views.season_detail, name="season_detail"),
    path(
        "leagues/<slug:slug>/seasons/<int:pk>/export.csv",
        views.season_export,
        name="season_export",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:pk>/players/<int:player_id>/",
        views.season_player,
        name="season_player",
    ),
    path("leagues/<slug:slug>/seasons/<int:pk>/types/", views.season_types, name="season_types"),
    path("leagues/<slug:slug>/seasons/<int:pk>/edit/", views.season_edit, name="season_edit"),
    path("leagues/<slug:slug>/seasons/<int:pk>/events/", views.season_events, name="season_events"),
    path(
        "leagues/<slug:slug>/seasons/<int:pk>/types/new/",
        views.event_type_new,
        name="event_type_new",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:pk>/types/<int:type_id>/",
        views.event_type_edit,
        name="event_type_edit",
    ),
    path(
        "leagues/<slug:slug>/seasons/<int:pk>/types/<int:type_id>/remove/",
        views.event_type_remove,
        name="event_type_remove",
    ),
]
