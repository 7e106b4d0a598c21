"""`load_cards FILE_OR_URL`: load a Scryfall bulk `oracle-cards` JSON file (a path, a .gz
path, or an http(s) address) into the card data, updating the cards already there. An
`all-cards` file (every printing in every language, ~2 GB) loads the cards from its English
printings and the names printed in six more languages from the others (cards.domain.printed),
read as a stream like the other.

The file is read as a stream (the real one is ~150 MB) and written in one transaction: a
file that is not a list of Scryfall card objects is refused with where it went wrong, and
nothing changes. A load that changed the cards checks the lists of the open events again
(the tournaments app listens to `cards.signals.cards_changed`). Scryfall lists its bulk
files at https://api.scryfall.com/bulk-data.

With `--images`, then downloads the art crop of each card the commander picker offers into
the media storage, once (`cards.images`): the pages show the stored file, never Scryfall's.
A crop that cannot be fetched is a line of its own; the others are stored, and the command
ends with an error so that a scheduled run is seen to need another try.
"""

import gzip
import io
import urllib.request
from urllib.error import URLError

from django.core.management.base import BaseCommand, CommandError

from ...images import card_images_fetch
from ...services import CardLoadError, cards_load


class Command(BaseCommand):
    help = "Load a Scryfall bulk oracle-cards JSON file (path or URL) into the card data."

    def add_arguments(self, parser):
        parser.add_argument("source", help="A path (.json or .json.gz) or an http(s) address.")
        parser.add_argument(
            "--images",
            action="store_true",
            help="Then fetch the commanders' art crops not stored yet into the media storage.",
        )

    def handle(self, *args, source: str, **options):
        try:
            stream = self._open(source)
        except (OSError, URLError, ValueError) as error:
            raise CommandError(f"Cannot read {source}: {error}") from None
        with stream:
            try:
                result = cards_load(stream=stream)
            except CardLoadError as error:
                raise CommandError(
                    f"{source} is not a Scryfall bulk card file: {error}. Nothing was changed."
                ) from None
            except (OSError, UnicodeDecodeError, EOFError) as error:
                raise CommandError(f"Cannot read {source}: {error}. Nothing was changed.") from None
        self.stdout.write(
            f"Loaded {result.cards:,} cards ({result.new:,} new, "
            f"{result.cards - result.new:,} updated); skipped {result.skipped:,} tokens "
            "and other objects that are no deck's cards."
        )
        if result.printed:
            self.stdout.write(
                f"Loaded {result.printed:,} names printed in German, French, Spanish, Italian, "
                "Portuguese and Japanese: lists pasted in those languages resolve to these cards."
            )
        if not result.changed:
            self.stdout.write("The card data did not change.")
        for note in result.notes:
            self.stdout.write(note)
        if options.get("images"):
            self._images()

    def _images(self) -> None:
        images = card_images_fetch(report=self.stderr.write)
        self.stdout.write(
            f"Art crops: {images.fetched:,} fetched, {images.stored_already:,} stored already."
        )
        if images.failed:
            raise CommandError(
                f"{len(images.failed):,} art crop(s) could not be fetched (above); the rest "
                "are stored. Run `load_cards --images` again to try those once more."
            )

    def _open(self, source: str) -> io.TextIOBase:
        if source.startswith(("http://", "https://")):
            request = urllib.request.Request(source, headers={"User-Agent": "Guildhall/1.0"})
            response = urllib.request.urlopen(request, timeout=60)
            raw = response
            if source.endswith(".gz") or response.headers.get("Content-Encoding") == "gzip":
                raw = gzip.GzipFile(fileobj=response)
            return io.TextIOWrapper(raw, encoding="utf-8")
        if source.endswith(".gz"):
            return gzip.open(source, "rt", encoding="utf-8")
        return open(source, encoding="utf-8")
