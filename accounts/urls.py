from django.urls import path

from . import views

urlpatterns = [
    path("me/", views.my_guildhall_view, name="my_guildhall"),
    path("me/language/", views.account_language_view, name="account_language"),
    path("me/claim/", views.claim_with_code, name="claim_with_code"),
]
