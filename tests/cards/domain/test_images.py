"""A card's looks from its Scryfall object (cards.domain.images): the art crop's address (its
own or its first face's), the artist, the set code, and where a crop is stored."""

import pytest

from cards.domain.images import Looks, art_file_name, card_looks

CROP = "https://cards.scryfall.io/art_crop/front/a/b/ab.jpg?1562"


def test_a_one_faced_card():
    obj = {"set": "C17", "artist": "Jaime Jones", "image_uris": {"art_crop": CROP}}
    assert card_looks(obj) == Looks(set_code="c17", art_crop_url=CROP, artist="Jaime Jones")


def test_a_card_whose_faces_have_their_own_art_uses_the_first_face():
    obj = {
        "set": "v17",
        "card_faces": [
            {"artist": "Jason Chan", "image_uris": {"art_crop": CROP}},
            {"artist": "Someone Else", "image_uris": {"art_crop": CROP + "back"}},
        ],
    }
    assert card_looks(obj) == Looks("v17", CROP, "Jason Chan")


@pytest.mark.parametrize(
    "obj",
    [
        {},  # the shipped sample's objects: no images, no set
        {"image_uris": {"art_crop": "javascript:alert(1)"}, "artist": "X"},
        {"image_uris": {"art_crop": "https://x/" + "a" * 600}},
        {"image_uris": "not an object", "card_faces": "nor a list"},
    ],
)
def test_no_art_crop_without_an_http_address(obj):
    assert card_looks(obj).art_crop_url == ""
    assert card_looks(obj).artist == ""


def test_a_set_code_that_is_no_code_is_left_out():
    assert card_looks({"set": "c17 x"}).set_code == ""
    assert card_looks({"set": 17}).set_code == ""


@pytest.mark.parametrize(
    ("url", "name"),
    [
        (CROP, "cards/art/abc.jpg"),
        ("http://127.0.0.1:8000/crop.PNG", "cards/art/abc.png"),
        ("http://127.0.0.1:8000/crop.jpeg", "cards/art/abc.jpg"),
        ("http://127.0.0.1:8000/crop", "cards/art/abc.jpg"),
    ],
)
def test_a_crop_is_stored_by_oracle_id(url, name):
    assert art_file_name("abc", url) == name
