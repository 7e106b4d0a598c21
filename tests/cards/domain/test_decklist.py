"""Reading pasted decklists in the shapes players paste (MTGO, Arena, plain)."""

import pytest

from cards.domain.decklist import (
    COMMANDER,
    COMPANION,
    MAIN,
    SIDEBOARD,
    DecklistTooLong,
    parse,
)


def shape(parsed):
    return [(line.number, line.count, line.name, line.section) for line in parsed.lines]


def test_mtgo_blank_line_starts_the_sideboard():
    parsed = parse("4 Lightning Bolt\n56 Mountain\n\n3 Counterspell\n")
    assert shape(parsed) == [
        (1, 4, "Lightning Bolt", MAIN),
        (2, 56, "Mountain", MAIN),
        (4, 3, "Counterspell", SIDEBOARD),
    ]


def test_mtgo_sideboard_line_and_sb_prefix():
    parsed = parse("4 Lightning Bolt\nSideboard\n2 Flash\nSB: 1 Ponder")
    assert shape(parsed)[1:] == [(3, 2, "Flash", SIDEBOARD), (4, 1, "Ponder", SIDEBOARD)]


def test_arena_headers_set_codes_and_numbers():
    text = (
        "About\nName Thrasios Tymna\n\nCommander\n1 Thrasios, Triton Hero (C16) 46\n"
        "1 Tymna the Weaver (C16) 48 *F*\n\nDeck\n1 Sol Ring (ABC) 464\n\n"
        "Sideboard\n1 Flash (XYZ) 12"
    )
    assert shape(parse(text)) == [
        (5, 1, "Thrasios, Triton Hero", COMMANDER),
        (6, 1, "Tymna the Weaver", COMMANDER),
        (9, 1, "Sol Ring", MAIN),
        (12, 1, "Flash", SIDEBOARD),
    ]


def test_plain_x_counts_and_a_name_alone():
    parsed = parse("1x Sol Ring\n2X Island\nDemonic Tutor\n# a comment\n// another")
    assert shape(parsed) == [
        (1, 1, "Sol Ring", MAIN),
        (2, 2, "Island", MAIN),
        (3, 1, "Demonic Tutor", MAIN),
    ]


def test_unreadable_lines_come_back_with_their_numbers():
    parsed = parse("1 Sol Ring\n0 Island\n12345\n1000 Island")
    assert [(u.number, u.text) for u in parsed.unread] == [
        (2, "0 Island"),
        (3, "12345"),
        (4, "1000 Island"),
    ]


def test_headers_turn_off_the_blank_line_rule_and_maybeboard_is_left_out():
    parsed = parse("Deck\n1 Sol Ring\n\n1 Ponder\nMaybeboard\n1 Flash")
    assert shape(parsed) == [(2, 1, "Sol Ring", MAIN), (4, 1, "Ponder", MAIN)]


def test_size_limits():
    with pytest.raises(DecklistTooLong, match="characters"):
        parse("1 Island\n" * 10, max_chars=50)
    with pytest.raises(DecklistTooLong, match="lines"):
        parse("1 Island\n" * 11, max_lines=10)
    assert len(parse("1 Island\n" * 10 + "\n\n\n", max_lines=10).lines) == 10


def test_markup_is_kept_as_text_not_interpreted():
    parsed = parse("1 <script>alert(1)</script>")
    assert shape(parsed) == [(1, 1, "<script>alert(1)</script>", MAIN)]


def test_arenas_companion_section_is_its_own():
    text = "Commander\n1 Tymna the Weaver\n\nCompanion\n1 Lurrus of the Dream-Den (IKO) 226"
    assert shape(parse(text))[1] == (5, 1, "Lurrus of the Dream-Den", COMPANION)


def test_commander_markers_of_the_deck_sites():
    text = (
        "1x Najeela, the Blade-Blossom *CMDR*\n"  # TappedOut's text export
        "1x Thrasios, Triton Hero (c16) 46 [Commander{top}]\n"  # Archidekt's, with categories
        "1x Sol Ring (c21) 263 [Ramp,Artifact]\n"
        "1 Ponder (M12) 73 *F* [Draw]\n"
    )
    assert shape(parse(text)) == [
        (1, 1, "Najeela, the Blade-Blossom", COMMANDER),
        (2, 1, "Thrasios, Triton Hero", COMMANDER),
        (3, 1, "Sol Ring", MAIN),
        (4, 1, "Ponder", MAIN),
    ]
    assert not parse(text).has_headers


def test_archidekt_sideboard_and_maybeboard_categories():
    text = "1x Sol Ring (c21) 263 [Ramp]\n1x Flash [Sideboard]\n1x Ponder [Maybeboard{noDeck}]"
    assert shape(parse(text)) == [(1, 1, "Sol Ring", MAIN), (2, 1, "Flash", SIDEBOARD)]
