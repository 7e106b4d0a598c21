"""The card data's addresses: the commander picker's suggestions, and the stored art crops
(at the default storage's address for them, MEDIA_URL + "cards/art/...")."""

from django.urls import path, re_path

from . import views

urlpatterns = [
    path("cards/commanders/", views.commander_suggestions, name="commander_suggestions"),
    re_path(
        r"^media/cards/art/(?P<name>[0-9a-f-]{36}\.(?:jpg|png))$", views.card_art, name="card_art"
    ),
]
