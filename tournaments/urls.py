from django.urls import path

from . import deck_views, listing_views, registration_views, report_views, views
from .public import urls as public

# The rooms by audience: each keeps its own addresses (same names and paths as before the
# split). No two rooms' paths match the same address, so their order here does not matter.
urlpatterns = [
    *public.urlpatterns,
    path("leagues/<slug:slug>/events/new/", views.event_create, name="event_create"),
    path("events/<slug:slug>/run/", views.event_run, name="event_run"),
    path("events/<slug:slug>/run/live/", views.event_run_live, name="event_run_live"),
    path("events/<slug:slug>/register/", views.event_register, name="event_register"),
    path("events/<slug:slug>/player-names/", views.event_player_names, name="event_player_names"),
    path("events/<slug:slug>/pair/", views.event_pair, name="event_pair"),
    path("events/<slug:slug>/top-cut/", views.top_cut_start, name="top_cut_start"),
    path(
        "events/<slug:slug>/tables/<int:table_id>/order/",
        views.table_order,
        name="table_order",
    ),
    path(
        "events/<slug:slug>/tables/<int:table_id>/seats/",
        views.table_seats,
        name="table_seats",
    ),
    path("events/<slug:slug>/rounds/<int:number>/end/", views.round_end, name="round_end"),
    path(
        "events/<slug:slug>/rounds/<int:number>/next/",
        views.round_advance,
        name="round_advance",
    ),
    path("events/<slug:slug>/rounds/<int:number>/clock/", views.round_clock, name="round_clock"),
    path(
        "events/<slug:slug>/rounds/<int:number>/extension/",
        views.round_extension,
        name="round_extension",
    ),
    path("events/<slug:slug>/rounds/<int:number>/", views.round_run, name="round_run"),
    path("events/<slug:slug>/rounds/<int:number>/edit/", views.round_edit, name="round_edit"),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/actions/",
        views.entry_actions,
        name="entry_actions",
    ),
    path("events/<slug:slug>/entries/<int:entry_id>/drop/", views.entry_drop, name="entry_drop"),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/undrop/",
        views.entry_undrop,
        name="entry_undrop",
    ),
    path("events/<slug:slug>/entries/<int:entry_id>/bye/", views.entry_bye, name="entry_bye"),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/remove/",
        views.entry_remove,
        name="entry_remove",
    ),
    path(
        "events/<slug:slug>/tables/<int:table_id>/report/", views.table_report, name="table_report"
    ),
    # Online registration and check-in (registration_views).
    path(
        "events/<slug:slug>/run/registration/",
        registration_views.event_registration,
        name="event_registration",
    ),
    path(
        "events/<slug:slug>/run/registration/settings/",
        registration_views.registration_settings,
        name="registration_settings",
    ),
    path(
        "events/<slug:slug>/run/check-in/open/",
        registration_views.check_in_open,
        name="check_in_open",
    ),
    path(
        "events/<slug:slug>/run/check-in/close/",
        registration_views.check_in_close,
        name="check_in_close",
    ),
    path(
        "events/<slug:slug>/run/registrations/<int:registration_id>/paid/",
        registration_views.registration_paid,
        name="registration_paid",
    ),
    path("events/<slug:slug>/join/", registration_views.event_join, name="event_join"),
    path("events/<slug:slug>/leave/", registration_views.event_leave, name="event_leave"),
    path("events/<slug:slug>/check-in/", registration_views.event_check_in, name="event_check_in"),
    path(
        "events/<slug:slug>/check-in/<str:token>/",
        registration_views.registration_check_in,
        name="registration_check_in",
    ),
    # Finding events (listing_views): a store's upcoming events, the calendar file, the
    # time-place-fee form and "Copy this event".
    path("events/<slug:slug>/run/listing/", listing_views.event_listing, name="event_listing"),
    path("events/<slug:slug>/copy/", listing_views.event_copy, name="event_copy"),
    # Decks (deck_views).
    path("events/<slug:slug>/my-deck/", deck_views.my_deck, name="my_deck"),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/deck/",
        deck_views.entry_deck,
        name="entry_deck",
    ),
    path("events/<slug:slug>/run/decks/", deck_views.deck_settings, name="deck_settings"),
    # Players' own results (report_views): their seat, their reports and confirmations.
    path("events/<slug:slug>/me/", report_views.my_event, name="my_event"),
    # Before me/<token>/: "drop" is no registration's code (those are long random strings).
    path("events/<slug:slug>/me/drop/", report_views.my_event_drop, name="my_event_drop"),
    path("events/<slug:slug>/me/<str:token>/", report_views.my_event_link, name="my_event_link"),
    path(
        "events/<slug:slug>/reports/<int:report_id>/accept/",
        report_views.report_accept,
        name="report_accept",
    ),
]
