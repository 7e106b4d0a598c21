"""The bottom layer's tables: a version per scope of public pages (core.pagecache), and each
account's language (core.languages).

A scope is an event, a league or an organization, named by a short word and the row's id;
core knows no other app, so it stores the id as a plain number. A row is bumped by every write
that changes what the scope's pages show, in that write's own transaction.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import ngettext_lazy


class PageVersion(models.Model):
    counted = ngettext_lazy("%(n)s page version", "%(n)s page versions", "n")
    scope = models.CharField(max_length=16)
    key = models.BigIntegerField()
    number = models.BigIntegerField(default=0)
    changed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="core_pageversion_one_per_scope")
        ]

    def __str__(self) -> str:
        return f"{self.scope} {self.key} v{self.number}"


class AccountLanguage(models.Model):
    """The language an account chose to read Guildhall in: its pages, and the mails and
    messages sent to it from any store (core.languages). No row: the account chose none,
    and reads a store's language on its pages and in its mails, else its browser's."""

    counted = ngettext_lazy("%(n)s account language", "%(n)s account languages", "n")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_language",
    )
    language = models.CharField(max_length=10, choices=settings.LANGUAGES)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user_id}: {self.language}"
