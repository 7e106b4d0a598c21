"""core.jsonbody: the one safe read of a JSON request body (a 400's BadJson, never a 500)."""

import pytest

from core.jsonbody import MAX_DEPTH, BadJson, json_body


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "The body is nested too deeply."),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "at most 64 levels"),
        ('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), "at most 64 levels"),
        (b"\xff\xfe\x00garbage", "The body is not valid JSON."),
        ("{", "The body is not valid JSON."),
        ("9" * 5000, "The body is not valid JSON."),  # past int()'s 4300 digits
        ("", "The body is not valid JSON."),
    ],
    ids=[
        "100000-deep",
        "65-deep-list",
        "65-deep-object",
        "not-utf8",
        "cut-short",
        "long-int",
        "empty",
    ],
)
def test_what_cannot_be_read_is_a_bad_json_error(body, message):
    with pytest.raises(BadJson) as caught:
        json_body(body)
    assert message in caught.value.message
    assert (caught.value.status, caught.value.code, caught.value.field) == (
        400,
        "invalid_json",
        "body",
    )


def test_a_body_as_deep_as_allowed_is_read():
    body = "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH
    value = json_body(body)
    for _ in range(MAX_DEPTH):
        assert isinstance(value, list)
        value = value[0]
    assert value == 1
    assert json_body(b'{"players": ["Ann", ["Bob", "Cy"]]}') == {"players": ["Ann", ["Bob", "Cy"]]}
