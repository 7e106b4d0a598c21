"""Reading a bulk file one element at a time, whatever the chunk size; a file that is not a
JSON list is refused with where it went wrong."""

import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cards.domain.bulk import BulkFileError, iter_objects

from ..sample import SAMPLE

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=10,
)


@given(st.lists(VALUES, max_size=6), st.integers(min_value=1, max_value=17), st.booleans())
def test_every_element_in_order_whatever_the_chunk(items, chunk, indent):
    text = json.dumps(items, indent=1 if indent else None)
    assert list(iter_objects(io.StringIO(text), chunk=chunk)) == items


def test_the_sample_file_in_small_chunks():
    expected = json.loads(SAMPLE.read_text())
    with SAMPLE.open(encoding="utf-8") as stream:
        assert list(iter_objects(stream, chunk=100)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1}', "expected a JSON list"),
        ("", "an empty file"),
        ("[1 2]", "after item 0: expected ',' or ']'"),
        ("[1,", "item 1: not valid JSON"),
        ("[1] x", "text after the list's end"),
        ('[{"a":}]', "item 0: not valid JSON near character 6"),
    ],
)
def test_bad_files(text, message):
    with pytest.raises(BulkFileError, match=message):
        list(iter_objects(io.StringIO(text), chunk=2))
