"""Django's user admin, refusing with a sentence what the database refuses with an error.

The database keeps one account per username and per e-mail address ignoring case
(accounts/migrations). Django's change form checks neither that way, so saving `Pat` beside
`pat`, or an address another account has, answered 500; here the form says which field and why.
"""

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import UserChangeForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

User = get_user_model()


class AccountChangeForm(UserChangeForm):
    def taken(self, field: str, value: str) -> bool:
        others = User.objects.exclude(pk=self.instance.pk)
        return bool(value) and others.filter(**{f"{field}__iexact": value}).exists()

    def clean_username(self):
        username = self.cleaned_data.get("username", "")
        if self.taken("username", username):
            raise ValidationError(
                _("Another account already has this username (ignoring capitals); choose another.")
            )
        return username

    def clean_email(self):
        email = self.cleaned_data.get("email", "")
        if self.taken("email", email):
            raise ValidationError(
                _(
                    "Another account already has this e-mail address (ignoring capitals): one "
                    "account per address."
                )
            )
        return email


class AccountAdmin(UserAdmin):
    form = AccountChangeForm


admin.site.unregister(User)
admin.site.register(User, AccountAdmin)
