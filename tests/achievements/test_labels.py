"""How often an achievement may be earned, as shown (achievements.models.RULE_LABELS,
translated), is the domain's RULES, word for word, in English."""

from django.utils import translation

from achievements.domain.scoring import RULES
from achievements.models import RULE_LABELS


def test_the_rule_labels_are_the_domains_in_english():
    with translation.override("en"):
        assert {per: str(label) for per, label in RULE_LABELS.items()} == RULES
