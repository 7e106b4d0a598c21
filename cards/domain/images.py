"""What a Scryfall card object says about how the card looks, beside the rules: its art crop's
address (Scryfall's `image_uris.art_crop`, or its first face's for a card whose faces each
have art), the artist to credit with it, the set code of the printing (for its set symbol),
and the file name a crop is stored under. Values only: fetching is `cards.images`'.
Pure Python: no Django."""

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

ART_FOLDER = "cards/art"
SUFFIXES = {".jpg", ".jpeg", ".png"}
MAX_URL = 500


@dataclass(frozen=True)
class Looks:
    set_code: str = ""  # "c17", lower case as Scryfall writes it; "" if none
    art_crop_url: str = ""  # http(s) only; "" if the object has no art crop
    artist: str = ""


def _text(value, limit: int) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _art(obj: Mapping) -> tuple[str, str]:
    """(art crop address, artist) of the card, else of its first face."""
    faces = obj.get("card_faces")
    first = faces[0] if isinstance(faces, list) and faces and isinstance(faces[0], Mapping) else {}
    for source in (obj, first):
        uris = source.get("image_uris")
        if isinstance(uris, Mapping) and isinstance(uris.get("art_crop"), str):
            artist = _text(source.get("artist"), 200) or _text(obj.get("artist"), 200)
            return uris["art_crop"].strip(), artist
    return "", ""


def card_looks(obj: Mapping) -> Looks:
    """The set code, art crop address and artist of one Scryfall card object; an address that
    is not http(s) or is too long is left out (no card is refused for its looks)."""
    url, artist = _art(obj)
    if urlsplit(url).scheme not in {"http", "https"} or len(url) > MAX_URL:
        url = ""
    code = _text(obj.get("set"), 10).lower()
    if not code.isalnum():
        code = ""
    return Looks(set_code=code, art_crop_url=url, artist=artist if url else "")


def art_file_name(oracle_id: str, url: str) -> str:
    """Where a card's crop is stored: by its Oracle id, with the address's suffix (.jpg by
    default: Scryfall's crops are JPEG)."""
    path = urlsplit(url).path.lower()
    suffix = next((s for s in SUFFIXES if path.endswith(s)), ".jpg")
    return f"{ART_FOLDER}/{oracle_id}{'.jpg' if suffix == '.jpeg' else suffix}"
