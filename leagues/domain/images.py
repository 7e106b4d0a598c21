"""What a store's logo may be: a PNG, JPEG, GIF or WebP file of at most `LOGO_MAX_BYTES`.

The type is read from the file's first bytes (its signature), never from its name or from
what the browser says it is, and the width and height from its header, so a file that only
calls itself an image, an SVG (which can carry script) or a huge picture is refused with a
sentence saying why. Plain Python: no imaging library is needed to read a header.
"""

import struct

from core.translate import gettext as _

LOGO_MAX_BYTES = 512 * 1024
LOGO_MAX_SIDE = 4096  # pixels: a logo is shown at most a few hundred wide

# content type -> the signature its files start with (WebP: RIFF....WEBP, checked below).
SIGNATURES = {
    "image/png": b"\x89PNG\r\n\x1a\n",
    "image/jpeg": b"\xff\xd8\xff",
    "image/gif": b"GIF8",
}
ACCEPTED = "PNG, JPEG, GIF or WebP"


class LogoProblem(ValueError):
    """Why a file cannot be a logo, as a sentence for the person who uploaded it."""


def image_type(data: bytes) -> str | None:
    """The content type `data` is by its signature, or None when it is none of the accepted."""
    for content_type, signature in SIGNATURES.items():
        if data.startswith(signature):
            return content_type
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the first start-of-frame marker (ITU T.81, B.2.2)."""
    at = 2
    while at + 9 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            at += 2
            continue
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        # SOF0-SOF15 except DHT (C4), JPG (C8) and DAC (CC).
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5 : at + 9])
            return width, height
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def image_size(data: bytes, content_type: str) -> tuple[int, int] | None:
    """(width, height) read from the header, or None when the header is not readable."""
    if content_type == "image/png":
        if len(data) < 24 or data[12:16] != b"IHDR":
            return None
        return struct.unpack(">II", data[16:24])
    if content_type == "image/gif":
        if len(data) < 10:
            return None
        return struct.unpack("<HH", data[6:10])
    if content_type == "image/jpeg":
        return _jpeg_size(data)
    if content_type == "image/webp":
        return _webp_size(data)
    return None


def logo_check(data: bytes, size: int | None = None) -> str:
    """The content type of `data` if it may be a store's logo; else LogoProblem.

    `size` is the whole file's size when `data` is only its beginning (a big upload is not
    read past the limit)."""
    size = len(data) if size is None else size
    if not data or not size:
        raise LogoProblem(_("The file is empty."))
    if size > LOGO_MAX_BYTES:
        raise LogoProblem(
            _(
                "The file is %(size)s KB; a logo may be at most %(max)s KB. Save it "
                "smaller (a few hundred pixels is plenty)."
            )
            % {"size": size // 1024, "max": LOGO_MAX_BYTES // 1024}
        )
    content_type = image_type(data)
    if content_type is None:
        raise LogoProblem(
            _("This file is not a %(accepted)s image (SVG is not accepted).")
            % {"accepted": ACCEPTED}
        )
    size = image_size(data, content_type)
    if size is None or min(size) < 1:
        raise LogoProblem(_("This image looks damaged: its size cannot be read."))
    if max(size) > LOGO_MAX_SIDE:
        raise LogoProblem(
            _(
                "The image is %(width)s x %(height)s pixels; a logo may be at most "
                "%(max)s pixels on a side."
            )
            % {"width": size[0], "height": size[1], "max": LOGO_MAX_SIDE}
        )
    return content_type
