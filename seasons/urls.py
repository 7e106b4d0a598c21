from django.urls import path

from . import series_views, views

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
    path(
        "leagues/<slug:slug>/seasons/<int:pk>/qualify/",
        views.season_qualify,
        name="season_qualify",
    ),
    # Series across stores.
    path("series/<slug:series>/", series_views.series_detail, name="series_detail"),
    path("series/<slug:series>/manage/", series_views.series_manage, name="series_manage"),
    path("series/<slug:series>/invite/", series_views.series_invite_view, name="series_invite"),
    path("series/<slug:series>/links/", series_views.series_links, name="series_links"),
    path(
        "series/<slug:series>/links/<int:pk>/remove/",
        series_views.series_link_remove,
        name="series_link_remove",
    ),
    path(
        "series/<slug:series>/seasons/new/",
        series_views.series_season_new,
        name="series_season_new",
    ),
    path(
        "series/<slug:series>/seasons/<int:pk>/", series_views.series_season, name="series_season"
    ),
    path(
        "series/<slug:series>/seasons/<int:pk>/export.csv",
        series_views.series_season_export,
        name="series_season_export",
    ),
    path(
        "series/<slug:series>/seasons/<int:pk>/types/new/",
        series_views.series_type_new,
        name="series_type_new",
    ),
    path(
        "series/<slug:series>/seasons/<int:pk>/types/<int:type_id>/",
        series_views.series_type_edit,
        name="series_type_edit",
    ),
    path(
        "series/<slug:series>/seasons/<int:pk>/qualify/",
        series_views.series_qualify,
        name="series_qualify",
    ),
    path("organizations/<slug:org>/series/", series_views.store_series, name="store_series"),
    path("organizations/<slug:org>/series/new/", series_views.series_new, name="series_new"),
    path(
        "organizations/<slug:org>/series/<int:pk>/accept/",
        series_views.invitation_accept,
        name="series_invitation_accept",
    ),
    path(
        "organizations/<slug:org>/series/<int:pk>/decline/",
        series_views.invitation_decline,
        name="series_invitation_decline",
    ),
    path(
        "organizations/<slug:org>/series/<int:pk>/leave/",
        series_views.series_leave_view,
        name="series_leave",
    ),
    path(
        "organizations/<slug:org>/series/<int:pk>/seasons/<int:season_id>/events/",
        series_views.store_series_events,
        name="store_series_events",
    ),
]
