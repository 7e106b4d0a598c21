"""An achievement league's pages: the leaderboard (whoever sees the league), the player's
own games where they claim and confirm, and the organizers' pages."""

from django.urls import path

from . import views

urlpatterns = [
    path("leagues/<slug:slug>/achievements/", views.board, name="achievement_board"),
    path("leagues/<slug:slug>/achievements/me/", views.mine, name="achievement_mine"),
    path("leagues/<slug:slug>/achievements/claims/", views.claims, name="achievement_claims"),
    path(
        "leagues/<slug:slug>/achievements/claims/<int:claim_id>/settle/",
        views.settle,
        name="achievement_settle",
    ),
    path("leagues/<slug:slug>/achievements/award/", views.award_view, name="achievement_award"),
    path("leagues/<slug:slug>/achievements/new/", views.achievement_new, name="achievement_new"),
    path(
        "leagues/<slug:slug>/achievements/<int:pk>/edit/",
        views.achievement_edit,
        name="achievement_edit",
    ),
    path(
        "leagues/<slug:slug>/achievements/points/",
        views.scoring_edit,
        name="achievement_scoring",
    ),
]
