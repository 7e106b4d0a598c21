"""Card data: one row per Oracle card (Scryfall's `oracle_id`), loaded from a Scryfall bulk
`oracle-cards` file by `manage.py load_cards` and updated in place. The rules read the
domain `Card` (`as_card()`); the columns derived from it (keys, commander, pairing) are
there to be searched and listed in SQL."""

from django.db import models
from django.utils.translation import ngettext_lazy

from .domain.card import Card as DomainCard


class Card(models.Model):
    counted = ngettext_lazy("%(n)s card", "%(n)s cards", "n")
    oracle_id = models.UUIDField(unique=True)
    name = models.CharField(max_length=200)
    # domain.names.card_key of the name, and of the front face of a multi-face card.
    name_key = models.CharField(max_length=200, db_index=True)
    front_key = models.CharField(max_length=200, blank=True, db_index=True)
    type_line = models.CharField(max_length=200, blank=True)
    oracle_text = models.TextField(blank=True)
    color_identity = models.CharField(max_length=5, blank=True)  # WUBRG order
    legalities = models.JSONField(default=dict)
    layout = models.CharField(max_length=30, default="normal")
    can_be_commander = models.BooleanField(default=False)
    # domain.card.Card.pairing: "partner", "partner_with:NAME", "background", ...
    pairing = models.CharField(max_length=220, blank=True)
    # Offered by the commander picker: a legal commander, or a legal Background.
    in_picker = models.BooleanField(default=False)
    # Looks (domain.images.card_looks): shown, never checked.
    set_code = models.CharField(max_length=10, blank=True)
    artist = models.CharField(max_length=200, blank=True)
    art_crop_url = models.URLField(max_length=500, blank=True)
    # The stored crop, and the address it was fetched from (fetched again when that changes).
    art_crop = models.FileField(upload_to="cards/art/", max_length=200, blank=True)
    art_crop_source = models.URLField(max_length=500, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        indexes = [
            # The picker's few thousand rows, searched as one types.
            models.Index(
                fields=["name_key"], name="cards_picker_key", condition=models.Q(in_picker=True)
            )
        ]

    def __str__(self) -> str:
        return self.name

    def as_card(self) -> DomainCard:
        return DomainCard(
            oracle_id=str(self.oracle_id),
            name=self.name,
            type_line=self.type_line,
            oracle_text=self.oracle_text,
            color_identity=self.color_identity,
            legalities=self.legalities or {},
            layout=self.layout,
        )


class PrintedName(models.Model):
    """A card's name as printed in another language (domain.printed), from a Scryfall
    `all-cards` file: a list pasted in German or Japanese resolves to the same Oracle card.
    Keyed by Oracle id rather than a foreign key: a load replaces them all in one go."""

    counted = ngettext_lazy("%(n)s printed card name", "%(n)s printed card names", "n")

    oracle_id = models.UUIDField()
    lang = models.CharField(max_length=5)  # Scryfall's code: de, fr, es, it, pt, ja
    name = models.CharField(max_length=200)
    key = models.CharField(max_length=200, db_index=True)  # domain.printed.printed_key

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["oracle_id", "lang", "name"], name="cards_printedname_one_per_name"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.lang})"
