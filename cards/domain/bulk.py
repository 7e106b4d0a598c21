"""Reading a Scryfall bulk file (a JSON array of card objects, ~150 MB for `oracle-cards`)
one object at a time, so that memory stays at one object and a read buffer whatever the
file's size. The standard library's `json.JSONDecoder.raw_decode` reads one value from a
buffer and says where it ended; this keeps refilling the buffer from the stream. That is all
a top-level array of objects needs, so no streaming-parser dependency is added.
Pure Python: no Django."""

import json
from collections.abc import Iterator
from typing import IO

CHUNK = 1 << 16


class BulkFileError(ValueError):
    """The file is not a JSON array of objects (where it went wrong is told)."""


def iter_objects(stream: IO[str], chunk: int = CHUNK) -> Iterator[object]:
    """Each element of the top-level JSON array in `stream`, in order."""
    reader = _Reader(stream, chunk)
    reader.skip_space()
    if reader.peek() != "[":
        found = repr(reader.rest(20)) if reader.peek() else "an empty file"
        raise BulkFileError(f"expected a JSON list ('[') at the start, found {found}")
    reader.pos += 1
    reader.skip_space()
    if reader.peek() == "]":
        reader.pos += 1
        reader.expect_end()
        return
    index = 0
    while True:
        reader.skip_space()
        yield reader.value(index)
        index += 1
        reader.skip_space()
        char = reader.peek()
        reader.pos += 1
        if char == ",":
            continue
        if char == "]":
            reader.expect_end()
            return
        reader.pos -= 1
        found = repr(reader.rest(20)) if char else "the end of the file"
        raise BulkFileError(f"after item {index - 1}: expected ',' or ']', found {found}")


class _Reader:
    """A read buffer over the stream with a position in it; `offset` counts the characters
    dropped from its front, for messages."""

    def __init__(self, stream: IO[str], chunk: int):
        self.stream, self.chunk = stream, chunk
        self.buffer, self.pos, self.offset, self.eof = "", 0, 0, False
        self.decoder = json.JSONDecoder()

    def fill(self) -> bool:
        if self.eof:
            return False
        data = self.stream.read(self.chunk)
        if not data:
            self.eof = True
            return False
        if self.pos > self.chunk:  # drop what was read, at most once per chunk
            self.offset += self.pos
            self.buffer, self.pos = self.buffer[self.pos :], 0
        self.buffer += data
        return True

    def peek(self) -> str:
        while self.pos >= len(self.buffer):
            if not self.fill():
                return ""
        return self.buffer[self.pos]

    def rest(self, size: int) -> str:
        return self.buffer[self.pos : self.pos + size]

    def skip_space(self) -> None:
        while self.peek() in " \t\r\n" and self.peek():
            self.pos += 1

    def value(self, index: int) -> object:
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buffer, self.pos)
            except RecursionError:
                # The decoder recurses once per nesting level; no card is nested a hundred
                # deep, so a file that is is refused rather than the stack overflowing.
                raise BulkFileError(
                    f"item {index}: nested too deep, near character {self.offset + self.pos:,}"
                ) from None
            except json.JSONDecodeError as error:
                if self.fill():
                    continue
                raise BulkFileError(
                    f"item {index}: not valid JSON near character {self.offset + error.pos:,} "
                    f"({error.msg})"
                ) from None
            # A number or word at the buffer's end may go on in the next chunk.
            partial = end == len(self.buffer) and not isinstance(value, (dict, list, str))
            if partial and self.fill():
                continue
            self.pos = end
            return value

    def expect_end(self) -> None:
        self.skip_space()
        if self.peek():
            raise BulkFileError(
                f"text after the list's end, near character {self.offset + self.pos:,}"
            )
