"""PostgreSQL's unaccent, for the searches of names accents aside (core/search.py). It ships
with every PostgreSQL (contrib) and is a trusted extension since PostgreSQL 13: a database's
owner may create it without being a superuser."""

from django.contrib.postgres.operations import UnaccentExtension
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("core", "0002_languages")]

    operations = [UnaccentExtension()]
