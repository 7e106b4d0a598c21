"""The spectators' addresses: anyone who may see the league (public/views.py)."""

from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/events/", views.event_list, name="event_list"),
    path("leagues/<slug:slug>/decks/", views.league_decks, name="league_decks"),
    path("stores/<slug:org>/", views.store_events, name="store_events"),
    path("events/<slug:slug>/", views.event_detail, name="event_detail"),
    path("events/<slug:slug>/standings/", views.event_standings, name="event_standings"),
    path("events/<slug:slug>/projector/", views.event_projector, name="event_projector"),
    path("events/<slug:slug>/bracket/", views.event_bracket, name="event_bracket"),
    path("events/<slug:slug>/players/<int:player_id>/", views.event_player, name="event_player"),
    path("events/<slug:slug>/calendar.ics", views.event_calendar, name="event_calendar"),
]
