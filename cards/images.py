"""Fetching the commanders' art crops once into the media storage (`load_cards --images`):
each card the commander picker offers (a legal commander or Background) whose crop at
Scryfall (`Card.art_crop_url`, from the bulk file) is not stored yet, or was stored from
another address, is downloaded with a timeout and saved as `cards/art/<oracle_id>.<suffix>`
in the default storage; the pages show that file and never Scryfall's address. One card's
failure is reported as a line and changes nothing (its row and the files stay as they were);
the others go on. Each stored crop is its own small write, after its download, so that no
transaction stays open over the network."""

import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.error import HTTPError, URLError

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models import F, Q

from .domain.images import art_file_name
from .models import Card

TIMEOUT = 20  # seconds, per image
MAX_BYTES = 2 * 1024 * 1024  # a Scryfall art crop is 50-150 kB
IMAGE_TYPES = {"image/jpeg", "image/png"}


class ImageFetchError(Exception):
    """One image could not be fetched (why is told)."""


@dataclass
class ImagesResult:
    fetched: int = 0
    stored_already: int = 0
    failed: list[str] = field(default_factory=list)  # one line per card


def _download(url: str, timeout: float) -> bytes:
    request = urllib.request.Request(url, headers={"User-Agent": "Guildhall/1.0"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            kind = response.headers.get_content_type()
            if kind not in IMAGE_TYPES:
                raise ImageFetchError(f"the answer is {kind}, not a JPEG or PNG image")
            data = response.read(MAX_BYTES + 1)
    except HTTPError as error:
        raise ImageFetchError(f"HTTP {error.code} {error.reason}") from None
    except URLError as error:
        raise ImageFetchError(str(error.reason)) from None
    except (OSError, ValueError) as error:  # a timeout, a broken connection, a bad address
        raise ImageFetchError(str(error) or type(error).__name__) from None
    if len(data) > MAX_BYTES:
        raise ImageFetchError(f"the image is larger than {MAX_BYTES // 1024} kB")
    if not data:
        raise ImageFetchError("the answer is empty")
    return data


def card_images_fetch(
    *, timeout: float = TIMEOUT, report: Callable[[str], None] = lambda line: None
) -> ImagesResult:
    """Download the crops not stored yet (see the module's text); `report` gets a line per
    card that failed."""
    offered = Card.objects.filter(in_picker=True).exclude(art_crop_url="")
    result = ImagesResult(stored_already=offered.filter(_stored()).count())
    for card in offered.exclude(_stored()).order_by("name").iterator():
        url = card.art_crop_url
        try:
            data = _download(url, timeout)
        except ImageFetchError as error:
            line = f"{card.name}: could not fetch its art crop from {url}: {error}."
            result.failed.append(line)
            report(line)
            continue
        _store(card, url, data)
        result.fetched += 1
    return result


def _stored() -> Q:
    return ~Q(art_crop="") & Q(art_crop_source=F("art_crop_url"))


@transaction.atomic
def _store(card: Card, url: str, data: bytes) -> None:
    """Save the file under the card's name (replacing an older crop) and point the row at it."""
    name = art_file_name(str(card.oracle_id), url)
    row = Card.objects.select_for_update().get(pk=card.pk)
    if default_storage.exists(name):
        default_storage.delete(name)
    saved = default_storage.save(name, ContentFile(data))
    old = row.art_crop.name
    Card.objects.filter(pk=card.pk).update(art_crop=saved, art_crop_source=url)
    if old and old != saved:
        transaction.on_commit(lambda: default_storage.delete(old))
