"""The tie-break rules as shown (seasons.models.TIEBREAK_LABELS, translated) are the domain's
labels, word for word, in English."""

from django.utils import translation

from seasons.domain.rules import TIEBREAKS
from seasons.models import TIEBREAK_LABELS


def test_the_tiebreak_labels_are_the_domains_in_english():
    with translation.override("en"):
        assert {name: str(label) for name, label in TIEBREAK_LABELS.items()} == {
            name: t.label for name, t in TIEBREAKS.items()
        }
