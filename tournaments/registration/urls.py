"""The players' registration addresses: join, leave, check in (signed in or by link), decks."""

from django.urls import path

from . import views

urlpatterns = [
    path("events/<slug:slug>/join/", views.event_join, name="event_join"),
    path("events/<slug:slug>/leave/", views.event_leave, name="event_leave"),
    path("events/<slug:slug>/check-in/", views.event_check_in, name="event_check_in"),
    path(
        "events/<slug:slug>/check-in/<str:token>/",
        views.registration_check_in,
        name="registration_check_in",
    ),
    path("events/<slug:slug>/my-deck/", views.my_deck, name="my_deck"),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/deck/",
        views.entry_deck,
        name="entry_deck",
    ),
]
