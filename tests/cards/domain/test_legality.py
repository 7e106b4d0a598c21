"""The legality rules, card by card on the shipped sample: a legal list, then one change at
a time, each expected to break exactly one rule on the line that breaks it."""

import pytest

from cards.domain.card import Card
from cards.domain.decklist import COMPANION, SIDEBOARD, parse
from cards.domain.legality import UnknownFormat, check, pair_allowed

from ..sample import card, lookup

# 2 commanders + 6 spells + 92 basics = 100; all within Thrasios + Tymna (WUBG).
SPELLS = ["Sol Ring", "Demonic Tutor", "Rhystic Study", "Swords to Plowshares",
          "Smothering Tithe", "Counterspell"]  # fmt: skip


def commander_list(commanders=("Thrasios, Triton Hero", "Tymna the Weaver"), spells=SPELLS,
                   basics=(("Island", 30), ("Plains", 31), ("Swamp", 31)), extra=()):  # fmt: skip
    rows = ["Commander", *(f"1 {name}" for name in commanders), "", "Deck"]
    rows += [f"1 {name}" for name in spells]
    rows += [f"{count} {name}" for name, count in basics]
    rows += list(extra)
    return "\n".join(rows)


def problems(text, fmt="commander", **kwargs):
    report = check(parse(text), lookup, fmt=fmt, **kwargs)
    return [(p.line, p.rule) for p in report.problems]


def test_the_base_list_is_legal():
    report = check(parse(commander_list()), lookup, fmt="commander")
    assert report.legal, report.problems
    assert (report.size, report.color_identity) == (100, "WUBG")


# (what changes, the list, the (line, rule) problems expected)
SWAP = "swap Counterspell (line 11) for"
COMMANDER_TABLE = [
    (f"{SWAP} Lightning Bolt", ["Lightning Bolt"], [(11, "color-identity")]),
    (f"{SWAP} Mana Crypt", ["Mana Crypt"], [(11, "banned")]),
    (f"{SWAP} Dockside Extortionist", ["Dockside Extortionist"],
     [(11, "color-identity"), (11, "banned")]),
    (f"{SWAP} Panoptic Mirror", ["Panoptic Mirror"], [(11, "banned")]),
    (f"{SWAP} Black Lotus", ["Black Lotus"], [(11, "banned")]),
    (f"{SWAP} Flash", ["Flash"], [(11, "banned")]),
    (f"{SWAP} a second Sol Ring", ["sol ring"], [(11, "singleton")]),
    (f"{SWAP} a card nobody knows", ["Llanowar Elfs"], [(None, "deck-size"),
                                                      (11, "unknown-card")]),
    (f"{SWAP} Wastes (a basic: any number)", ["Wastes"], []),
    (f"{SWAP} Snow-Covered Island (a basic)", ["Snow-Covered Island"], []),
    (f"{SWAP} Force of Will", ["Force of Will"], []),
    (f"{SWAP} Mana Vault (banned in Legacy, legal here)", ["Mana Vault"], []),
    (f"{SWAP} Dark Ritual", ["Dark Ritual"], []),
    (f"{SWAP} Cyclonic Rift", ["Cyclonic Rift"], []),
    (f"{SWAP} Brazen Borrower (its front face's name)", ["Brazen Borrower"], []),
    (f"{SWAP} Vial Smasher the Fierce (BR)", ["Vial Smasher the Fierce"],
     [(11, "color-identity")]),
    (f"{SWAP} The Ur-Dragon (five colors)", ["The Ur-Dragon"], [(11, "color-identity")]),
]  # fmt: skip


@pytest.mark.parametrize(("change", "swap", "expected"), COMMANDER_TABLE)
def test_commander_one_card_at_a_time(change, swap, expected):
    spells = SPELLS[:-1] + swap
    assert problems(commander_list(spells=spells)) == expected, change


@pytest.mark.parametrize(
    ("name", "copies", "expected"),
    [
        ("Shadowborn Apostle", 30, []),
        ("Relentless Rats", 30, []),
        ("Rat Colony", 30, []),
        ("Persistent Petitioners", 30, []),  # blue: inside Thrasios's identity
        ("Seven Dwarves", 7, [(11, "color-identity")]),  # red: outside WUBG
        ("Lim-Dûl's Cohort", 1, []),
        ("Lim-Dul's Cohort", 2, [(11, "singleton")]),  # one card, spelled two ways
        ("Demonic Tutor", 2, [(11, "singleton")]),
    ],
)
def test_commander_copies_allowed_by_the_cards_text(name, copies, expected):
    text = commander_list(
        spells=SPELLS[:-1],  # lines 6-10, then the three basics, then the card on line 14
        basics=(("Island", 30), ("Plains", 31), ("Swamp", 32 - copies)),
        extra=[f"{copies} {name}"],
    )
    assert problems(text) == [(line + 3, rule) for line, rule in expected]


@pytest.mark.parametrize(
    ("commanders", "expected"),
    [
        (("Thrasios, Triton Hero", "Kraum, Ludevic's Opus"), None),
        (("Pir, Imaginative Rascal", "Toothy, Imaginary Friend"), None),
        (("Karlach, Fury of Avernus", "Raised by Giants"), None),
        (("Thrasios, Triton Hero", "Pir, Imaginative Rascal"), "commander-pair"),
        (("Prime Speaker Zegana", "Tymna the Weaver"), "commander-pair"),
        (("Thrasios, Triton Hero", "Raised by Giants"), "commander-eligible"),
        (("Raised by Giants",), "commander-eligible"),
        (("Bolas's Citadel",), "commander-eligible"),
        (("Dockside Extortionist",), "commander-eligible"),
        (("Nahiri, the Lithomancer",), None),
        (("Kytheon, Hero of Akros",), None),
        (("Golos, Tireless Pilgrim",), "banned"),
        (("The Ur-Dragon",), None),
        (("Najeela, the Blade-Blossom",), None),
        (("Yuriko, the Tiger's Shadow",), None),
        (("Silas Renn, Seeker Adept", "Vial Smasher the Fierce"), None),
        (("Yuriko, the Tiger's Shadow", "Tymna the Weaver"), "commander-pair"),
        (("Mana Vault",), "commander-eligible"),
    ],
)
def test_commanders_and_their_pairs(commanders, expected):
    # Colorless spells and the commanders' own basics: only the command zone can go wrong.
    identity = "".join(card(name).color_identity for name in commanders)
    basic = {"W": "Plains", "U": "Island", "B": "Swamp", "R": "Mountain", "G": "Forest"}
    land = next((basic[c] for c in "WUBRG" if c in identity), "Wastes")
    size = 100 - len(commanders) - 1
    text = commander_list(commanders=commanders, spells=["Sol Ring"], basics=((land, size),))
    rules = {rule for _, rule in problems(text)}
    if expected is None:
        assert rules == set()
    else:
        assert expected in rules


def test_thrasios_kraum_shares_no_plains():
    text = commander_list(
        commanders=("Thrasios, Triton Hero", "Kraum, Ludevic's Opus"),
        spells=["Sol Ring", "Lightning Bolt", "Swords to Plowshares"],
        basics=(("Island", 95),),
    )
    assert problems(text) == [(8, "color-identity")]  # Swords: white


def test_pairs_are_symmetric():
    for a, b in [("Thrasios, Triton Hero", "Tymna the Weaver"),
                 ("Pir, Imaginative Rascal", "Toothy, Imaginary Friend"),
                 ("Karlach, Fury of Avernus", "Raised by Giants")]:  # fmt: skip
        assert pair_allowed(card(a), card(b)) and pair_allowed(card(b), card(a))


def test_deck_size_counts_the_commanders():
    assert problems(commander_list(basics=(("Island", 30), ("Plains", 31), ("Swamp", 30)))) == [
        (None, "deck-size")
    ]


def test_mtgo_commander_in_the_sideboard():
    text = "\n".join(["1 Sol Ring", "98 Island", "", "1 Thrasios, Triton Hero"])
    report = check(parse(text), lookup, fmt="commander")
    assert report.legal and [c.name for c in report.commanders] == ["Thrasios, Triton Hero"]


def test_commanders_from_the_deck_name():
    text = "\n".join(["1 Sol Ring", "97 Island"])
    report = check(parse(text), lookup, fmt="commander",
                   commanders=("Thrasios, Triton Hero", "Tymna the Weaver"))  # fmt: skip
    assert report.legal, report.problems
    assert problems("1 Sol Ring\n98 Island") == [(None, "commander-count"), (None, "deck-size")]


def sixty(main, side=()):
    return "\n".join([*main, "", *side])


SIXTY_TABLE = [
    ("modern", ["4 Lightning Bolt", "56 Mountain"], [], []),
    ("modern", ["4 Lightning Bolt", "55 Mountain"], [], [(None, "deck-size")]),
    ("modern", ["4 Lightning Bolt", "1 Lightning Bolt", "55 Mountain"], [], [(2, "copies")]),
    ("modern", ["4 Lightning Bolt", "56 Mountain"], ["1 Lightning Bolt"], [(4, "copies")]),
    ("modern", ["4 Ponder", "56 Island"], [], [(1, "banned")]),
    ("modern", ["4 Swords to Plowshares", "56 Plains"], [], [(1, "not-legal")]),
    ("modern", ["20 Relentless Rats", "40 Swamp"], [], []),
    ("modern", ["8 Seven Dwarves", "52 Mountain"], [], [(1, "copies")]),
    ("modern", ["7 Seven Dwarves", "53 Mountain"], [], []),
    ("pioneer", ["4 Lightning Bolt", "56 Mountain"], [], [(1, "not-legal")]),
    ("pioneer", ["4 Thoughtseize", "56 Swamp"], [], []),
    ("vintage", ["1 Sol Ring", "59 Island"], [], []),
    ("vintage", ["2 Sol Ring", "58 Island"], [], [(1, "restricted")]),
    ("legacy", ["1 Sol Ring", "59 Island"], [], [(1, "banned")]),
    ("legacy", ["4 Force of Will", "56 Island"], ["15 Island"], []),
    ("legacy", ["4 Force of Will", "56 Island"], ["16 Island"], [(None, "sideboard-size")]),
    ("standard", ["4 Llanowar Elves", "56 Forest"], [], []),
    ("standard", ["4 Llanowar Elves", "56 Forest", "1 Nope"], [], [(3, "unknown-card")]),
    ("vintage", ["1 Mana Vault", "59 Island"], [], []),
    ("vintage", ["2 Mana Vault", "58 Island"], [], [(1, "restricted")]),
    ("legacy", ["1 Mana Vault", "59 Island"], [], [(1, "banned")]),
    ("legacy", ["4 Dark Ritual", "56 Swamp"], [], []),
    ("modern", ["4 Dark Ritual", "56 Swamp"], [], [(1, "not-legal")]),
    ("pioneer", ["4 Cyclonic Rift", "56 Island"], [], []),
    ("standard", ["4 Cyclonic Rift", "56 Island"], [], [(1, "not-legal")]),
    ("modern", ["4 Brazen Borrower", "56 Island"], [], []),
    ("modern", ["1 The Ur-Dragon", "59 Island"], [], [(1, "not-legal")]),
]


@pytest.mark.parametrize(("fmt", "main", "side", "expected"), SIXTY_TABLE)
def test_sixty_card_formats(fmt, main, side, expected):
    assert problems(sixty(main, side), fmt=fmt) == expected


def test_unknown_format():
    with pytest.raises(UnknownFormat):
        check(parse("1 Island"), lookup, fmt="yugioh")


# Companions are not in the shipped sample: two stand-ins with the fields the rules read
# (printed text and color identity; legality set here for the test, not from card data).
LURRUS = Card("test-lurrus", "Lurrus of the Dream-Den", "Legendary Creature — Cat Nightmare",
              "Lifelink\nCompanion — Each permanent card in your starting deck has mana value 2 "
              "or less.", "WB", {"commander": "legal"})  # fmt: skip
JEGANTHA = Card("test-jegantha", "Jegantha, the Wellspring",
                "Legendary Creature — Elemental Elk",
                "Companion — No card in your starting deck has more than one of the same mana "
                "symbol in its mana cost.", "RG",
                {"commander": "legal", "modern": "legal"})  # fmt: skip


def with_companions(names):
    found = dict(lookup(names))
    found.update({c.name: c for c in (LURRUS, JEGANTHA) if c.name in names})
    return found


def companion_problems(text, fmt="commander"):
    return [(p.line, p.rule) for p in check(parse(text), with_companions, fmt=fmt).problems]


# The base list (lines 1-14), then an Arena `Companion` section from line 16.
@pytest.mark.parametrize(
    ("companions", "expected"),
    [
        (["1 Lurrus of the Dream-Den"], []),  # WB: inside WUBG; no sideboard, not in the 100
        (["1 Jegantha, the Wellspring"], [(17, "color-identity")]),  # RG: outside WUBG
        (["1 Mana Vault"], [(17, "companion")]),  # no companion ability
        (["1 Sol Ring"], [(17, "companion"), (17, "singleton")]),  # a 101st card, singleton
        (["1 Lurrus of the Dream-Den", "1 Jegantha, the Wellspring"],
         [(17, "companion"), (18, "color-identity")]),
    ],
)  # fmt: skip
def test_a_commander_decks_companion_is_no_sideboard(companions, expected):
    text = commander_list() + "\n\nCompanion\n" + "\n".join(companions)
    assert companion_problems(text) == expected
    report = check(parse(text), with_companions, fmt="commander")
    assert report.size == 100
    assert any(c.section == COMPANION for c in report.cards)


def test_arenas_companion_in_a_sixty_card_list_is_one_sideboard_card():
    main = ["Companion", "1 Jegantha, the Wellspring", "", "Deck", "4 Lightning Bolt",
            "56 Mountain", "", "Sideboard", "1 Jegantha, the Wellspring",
            "14 Mountain"]  # fmt: skip
    report = check(parse("\n".join(main)), with_companions, fmt="modern")
    assert report.legal, report.problems
    assert report.sideboard_size == 15
    alone = check(parse("\n".join([*main[:8], "15 Mountain"])), with_companions, fmt="modern")
    assert [(p.line, p.rule) for p in alone.problems] == [(None, "sideboard-size")]
    assert {c.section for c in alone.cards if c.card is JEGANTHA} == {SIDEBOARD}


# A Commander list that includes its commander, in each shape players paste it. NAJEELA is
# five colors: 1 Sol Ring and 98 basics make 99 cards, the commander the hundredth.
NAJEELA = "Najeela, the Blade-Blossom"
NINETY_NINE = ["1 Sol Ring", "30 Plains", "30 Island", "38 Mountain"]
COMMANDER_SHAPES = [
    ("MTGO, the commander in the main deck", [f"1 {NAJEELA}", *NINETY_NINE], True),
    ("MTGO, the commander last in the main deck", [*NINETY_NINE, f"1 {NAJEELA}"], True),
    ("MTGO, the commander after a blank line", [*NINETY_NINE, "", f"1 {NAJEELA}"], True),
    ("MTGO, the commander after a blank line, no name", [*NINETY_NINE, "", f"1 {NAJEELA}"],
     False),
    ("MTGO, a Sideboard line", [*NINETY_NINE, "Sideboard", f"1 {NAJEELA}"], True),
    ("MTGO, the commander with SB:", [*NINETY_NINE, f"SB: 1 {NAJEELA}"], True),
    ("Arena, a Commander header", ["Commander", f"1 {NAJEELA} (BBD) 2", "", "Deck",
                                   *NINETY_NINE], True),
    ("Arena, a Commander header, no name", ["Commander", f"1 {NAJEELA} (BBD) 2", "", "Deck",
                                            *NINETY_NINE], False),
    ("Arena, Deck only, the commander in it", ["Deck", f"1 {NAJEELA} (BBD) 2", *NINETY_NINE],
     True),
    ("Moxfield, a set code and number", [f"1 {NAJEELA} (BBD) 2", "1 Sol Ring (C21) 263",
                                         "30 Plains", "30 Island", "38 Mountain"], True),
    ("Moxfield, the name in another spelling", ["1 najeela, the blade-blossom", *NINETY_NINE],
     True),
    ("Archidekt, 1x and a category", [f"1x {NAJEELA} (bbd) 2 [Commander{{top}}]",
                                      *NINETY_NINE], False),
    ("TappedOut, *CMDR*", [f"1x {NAJEELA} *CMDR*", *NINETY_NINE], False),
    ("TappedOut, *CMDR*, named", [f"1x {NAJEELA} *CMDR*", *NINETY_NINE], True),
]  # fmt: skip


@pytest.mark.parametrize(("shape", "rows", "named"), COMMANDER_SHAPES)
def test_a_list_that_includes_its_commander(shape, rows, named):
    report = check(parse("\n".join(rows)), lookup, fmt="commander",
                   commanders=(NAJEELA,) if named else ())  # fmt: skip
    assert [(p.line, p.rule) for p in report.problems] == [], shape
    assert (report.size, [c.name for c in report.commanders]) == (100, [NAJEELA]), shape
    assert sum(c.count for c in report.cards) == 100, shape


@pytest.mark.parametrize(
    "rows",
    [
        ["1 Thrasios, Triton Hero", "1 Tymna the Weaver", "1 Sol Ring", "97 Island"],
        ["1 Sol Ring", "97 Island", "", "1 Tymna the Weaver", "1 Thrasios, Triton Hero"],
        ["1 Tymna the Weaver (C16) 48", "1 Sol Ring", "97 Island", "", "1 Thrasios, Triton Hero"],
        ["Commander", "1 Thrasios, Triton Hero", "", "Deck", "1 Tymna the Weaver", "1 Sol Ring",
         "97 Island"],
    ],
)  # fmt: skip
def test_a_partner_pair_in_the_list(rows):
    pair = ("Thrasios, Triton Hero", "Tymna the Weaver")
    report = check(parse("\n".join(rows)), lookup, fmt="commander", commanders=pair)
    assert report.legal, report.problems
    assert sorted(c.name for c in report.commanders) == list(pair)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        # Named in the main deck twice: the first line is the commander, the second a copy.
        ([f"1 {NAJEELA}", *NINETY_NINE[:-1], "37 Mountain", f"1 {NAJEELA}"],
         [(6, "singleton")]),
        ([f"2 {NAJEELA}", *NINETY_NINE[:-1], "37 Mountain"], [(1, "singleton")]),
        # The command zone says Najeela, and the deck has another one.
        (["Commander", f"1 {NAJEELA}", "Deck", f"1 {NAJEELA}", "1 Sol Ring", "97 Island"],
         [(4, "singleton")]),
        # A list of 100 with the commander named: 101 cards.
        ([f"1 {NAJEELA}", "1 Sol Ring", "99 Island"], [(None, "deck-size")]),
    ],
)  # fmt: skip
def test_a_commander_in_the_list_is_counted_once(rows, expected):
    assert problems("\n".join(rows), commanders=(NAJEELA,)) == expected
