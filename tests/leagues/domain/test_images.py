"""A store's logo: the type from the file's first bytes, the size from its header."""

import struct
import zlib

import pytest

from leagues.domain.images import LOGO_MAX_BYTES, LogoProblem, image_size, logo_check


def png(width: int, height: int) -> bytes:
    """A real 8-bit greyscale PNG of width x height (every row zero)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x00" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


# A 3x2 baseline JPEG's markers as an encoder writes them: SOI, APP0 (JFIF), SOF0 with the
# height then the width, written by hand from ITU T.81 B.2.2.
JPEG_3X2 = (
    b"\xff\xd8"
    + b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    + b"\xff\xc0\x00\x11\x08\x00\x02\x00\x03\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    + b"\xff\xd9"
)
GIF_5X7 = b"GIF89a" + struct.pack("<HH", 5, 7) + b"\x00\x00\x00;"
WEBP_LOSSLESS_4X9 = (
    b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f"
    + ((4 - 1) | ((9 - 1) << 14)).to_bytes(4, "little")
    + b"\x00" * 8
)


@pytest.mark.parametrize(
    ("data", "content_type", "size"),
    [
        (png(3, 2), "image/png", (3, 2)),
        (JPEG_3X2, "image/jpeg", (3, 2)),
        (GIF_5X7, "image/gif", (5, 7)),
        (WEBP_LOSSLESS_4X9, "image/webp", (4, 9)),
    ],
)
def test_accepted_images_with_their_size(data, content_type, size):
    assert logo_check(data) == content_type
    assert image_size(data, content_type) == size


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"", "empty"),
        (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "SVG"),
        (b"%PDF-1.7 not a picture", "not a PNG, JPEG, GIF or WebP"),
        (b"\x89PNG\r\n\x1a\n", "damaged"),  # a signature and nothing after it
        (b"\xff\xd8\xff\xe0\x00\x10", "damaged"),  # a JPEG cut before its frame header
        (png(5000, 1), "5000 x 1 pixels"),
    ],
)
def test_refused_files_say_why(data, says):
    with pytest.raises(LogoProblem, match=says):
        logo_check(data)


def test_a_big_file_is_refused_by_its_size_not_read_whole():
    head = png(3, 2)  # only the beginning of a file of 600 KB was read
    with pytest.raises(
        LogoProblem, match=f"600 KB; a logo may be at most {LOGO_MAX_BYTES // 1024}"
    ):
        logo_check(head, size=600 * 1024)
