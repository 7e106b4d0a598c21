"""The TO's addresses: whoever runs the event (the store's organizers and judges)."""

from django.urls import path

from .views import board, entries, events, offline, paper, registration, rounds, tables

urlpatterns = [
    path("leagues/<slug:slug>/events/new/", events.event_create, name="event_create"),
    path("events/<slug:slug>/run/", board.event_run, name="event_run"),
    path("events/<slug:slug>/run/live/", board.event_run_live, name="event_run_live"),
    path("events/<slug:slug>/register/", entries.event_register, name="event_register"),
    path("events/<slug:slug>/player-names/", entries.event_player_names, name="event_player_names"),
    path("events/<slug:slug>/pair/", rounds.event_pair, name="event_pair"),
    path("events/<slug:slug>/finish/", rounds.event_swiss_finish, name="event_swiss_finish"),
    path("events/<slug:slug>/top-cut/", rounds.top_cut_start, name="top_cut_start"),
    path(
        "events/<slug:slug>/tables/<int:table_id>/order/",
        tables.table_order,
        name="table_order",
    ),
    path(
        "events/<slug:slug>/tables/<int:table_id>/seats/",
        tables.table_seats,
        name="table_seats",
    ),
    path("events/<slug:slug>/rounds/<int:number>/end/", rounds.round_end, name="round_end"),
    path(
        "events/<slug:slug>/rounds/<int:number>/next/",
        rounds.round_advance,
        name="round_advance",
    ),
    path("events/<slug:slug>/rounds/<int:number>/clock/", rounds.round_clock, name="round_clock"),
    path(
        "events/<slug:slug>/rounds/<int:number>/extension/",
        rounds.round_extension,
        name="round_extension",
    ),
    path("events/<slug:slug>/rounds/<int:number>/", rounds.round_run, name="round_run"),
    path("events/<slug:slug>/rounds/<int:number>/edit/", rounds.round_edit, name="round_edit"),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/actions/",
        entries.entry_actions,
        name="entry_actions",
    ),
    path("events/<slug:slug>/entries/<int:entry_id>/drop/", entries.entry_drop, name="entry_drop"),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/undrop/",
        entries.entry_undrop,
        name="entry_undrop",
    ),
    path("events/<slug:slug>/entries/<int:entry_id>/bye/", entries.entry_bye, name="entry_bye"),
    path(
        "events/<slug:slug>/entries/<int:entry_id>/remove/",
        entries.entry_remove,
        name="entry_remove",
    ),
    path(
        "events/<slug:slug>/tables/<int:table_id>/report/", tables.table_report, name="table_report"
    ),
    path(
        "events/<slug:slug>/run/registration/",
        registration.event_registration,
        name="event_registration",
    ),
    path(
        "events/<slug:slug>/run/registration/settings/",
        registration.registration_settings,
        name="registration_settings",
    ),
    path(
        "events/<slug:slug>/run/check-in/open/",
        registration.check_in_open,
        name="check_in_open",
    ),
    path(
        "events/<slug:slug>/run/check-in/close/",
        registration.check_in_close,
        name="check_in_close",
    ),
    path(
        "events/<slug:slug>/run/registrations/<int:registration_id>/paid/",
        registration.registration_paid,
        name="registration_paid",
    ),
    path("events/<slug:slug>/run/decks/", registration.deck_settings, name="deck_settings"),
    path("events/<slug:slug>/run/paper/", paper.paper, name="paper_pack"),
    path("events/<slug:slug>/run/paper/pairings/", paper.paper_pairings, name="paper_pairings"),
    path("events/<slug:slug>/run/paper/seats/", paper.paper_seats, name="paper_seats"),
    path("events/<slug:slug>/run/paper/slips/", paper.paper_slips, name="paper_slips"),
    path("events/<slug:slug>/run/paper/standings/", paper.paper_standings, name="paper_standings"),
    path("events/<slug:slug>/run/offline/", offline.offline_pair, name="offline_pair"),
    path(
        "events/<slug:slug>/run/offline/snapshot/",
        offline.offline_snapshot,
        name="offline_snapshot",
    ),
    path("events/<slug:slug>/run/offline/round/", offline.offline_upload, name="offline_upload"),
    path("events/<slug:slug>/run/listing/", events.event_listing, name="event_listing"),
    path("events/<slug:slug>/copy/", events.event_copy, name="event_copy"),
]
