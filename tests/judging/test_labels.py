"""The IPG's terms as shown (judging.labels) are the domain's, word for word, in English: a
renamed infraction or penalty in the domain is renamed in the labels translators see."""

from django.utils import translation

from judging import labels
from judging.domain import deckcheck, ipg


def test_the_labels_are_the_domains_terms_in_english():
    with translation.override("en"):
        assert {code: str(label) for code, label in labels.PENALTIES.items()} == ipg.PENALTIES
        assert {code: str(label) for code, label in labels.INFRACTIONS.items()} == {
            code: infraction.name for code, infraction in ipg.INFRACTIONS.items()
        }
        assert list(labels.INFRACTIONS) == list(ipg.INFRACTIONS)  # the choices' order
        assert str(labels.IPG_VERSION) == ipg.IPG_VERSION
        assert {mode: str(label) for mode, label in labels.DECK_CHECK_MODES.items()} == (
            deckcheck.MODES
        )
