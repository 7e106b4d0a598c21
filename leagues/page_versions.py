"""What bumps an organization's page version (core.pagecache): its own name, a league's name or
visibility, a player's name, edited or deleted anywhere (a form, the admin, a merge).

These show on every public page of the store, its events' included, so they bump the
organization's scope, which every cached page of the store carries. A row just created changes
no page yet (a new player shows once they play: that write bumps its own scope), so only an
update or a delete bumps.
"""

from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver

from core.pagecache import touch

from .models import League, Organization, Player


def _organization_id(instance) -> int:
    return instance.pk if isinstance(instance, Organization) else instance.organization_id


@receiver(post_save, sender=Organization, dispatch_uid="pagecache_organization_saved")
@receiver(post_save, sender=League, dispatch_uid="pagecache_league_saved")
@receiver(post_save, sender=Player, dispatch_uid="pagecache_player_saved")
def shown_row_saved(sender, instance, created=False, raw=False, **kwargs):
    if not created and not raw:
        touch(("org", _organization_id(instance)))


@receiver(post_delete, sender=Organization, dispatch_uid="pagecache_organization_deleted")
@receiver(post_delete, sender=League, dispatch_uid="pagecache_league_deleted")
@receiver(post_delete, sender=Player, dispatch_uid="pagecache_player_deleted")
def shown_row_deleted(sender, instance, **kwargs):
    touch(("org", _organization_id(instance)))
