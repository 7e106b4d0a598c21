"""The one table of the bottom layer: a version per scope of public pages (core.pagecache).

A scope is an event, a league or an organization, named by a short word and the row's id;
core knows no other app, so it stores the id as a plain number. A row is bumped by every write
that changes what the scope's pages show, in that write's own transaction.
"""

from django.db import models


class PageVersion(models.Model):
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
