"""Hostile CSV files through the upload page and the import service: refused whole, nothing
written, every problem named by its line; and the upload size limit."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from leagues import services
from leagues.models import ImportBatch

GOOD = ",2024-01-01,Ann,Bob\r\n,2024-01-02,Bob,Ann\r\n"
HOSTILE_FILES = {
    "ten-thousand-char-name": GOOD + ",2024-01-03,Ann," + "x" * 10_000 + "\r\n",
    "ten-thousand-players": GOOD + ",2024-01-03," + ",".join(f"P{i}" for i in range(10_000)),
    "nul-in-note": GOOD + ",2024-01-03,Ann,Bob,,no\x00te\r\n",
    "control-char-name": GOOD + ",2024-01-03,Ann,B\x07b\r\n",
    "unclosed-quote": GOOD + ',2024-01-03,Ann,"Bob\r\n,2024-01-04,Ann,Bob\r\n',
    "deep-json": GOOD + '"{""places"": ' + "[" * 3000 + "]" * 3000 + '}",2024-01-03,Ann,Bob\r\n',
    "huge-number-json": GOOD + '"{""stats"": [{""a"": 1e999}, {}]}",2024-01-03,Ann,Bob\r\n',
    "bad-date": GOOD + ",2024-02-30,Ann,Bob\r\n",
    "results-format-bad-place": (
        "game_id,date,player,placement\ng1,2024-01-01,Ann,1\ng1,2024-01-01,Bob,2\n"
        "g2,2024-01-02,Bob,1\ng2,2024-01-02,Ann,2\ng3,2024-01-03,Ann,1\ng3,2024-01-03,Bob,x\n"
    ),
    "long-line": GOOD + ",2024-01-03,Ann," + "y" * 200_000 + "\r\n",
}


@pytest.fixture
def write_counts(db_counts):
    def counts():
        numbers = db_counts()
        numbers.pop("batches")
        return numbers

    return counts


@pytest.mark.parametrize("name", HOSTILE_FILES)
def test_the_service_refuses_a_hostile_file_whole_and_writes_nothing(
    name, league, organizer, db_counts
):
    before = db_counts()

    with pytest.raises(services.ImportRefused) as refused:
        services.games_import(league=league, text=HOSTILE_FILES[name], by=organizer)

    assert db_counts() == before
    problems = refused.value.plan.parsed.problems
    assert problems
    assert all(p.line >= 1 and p.field for p in problems)


# Text with a NUL never reaches the service: decode_upload refuses the bytes (the upload form
# and import_games both call it), and ImportBatch keeps the text, which PostgreSQL cannot hold.
@pytest.mark.parametrize("name", [n for n in HOSTILE_FILES if "\x00" not in HOSTILE_FILES[n]])
def test_skip_invalid_imports_exactly_the_good_rows(name, league, organizer):
    report = services.games_import(
        league=league, text=HOSTILE_FILES[name], by=organizer, skip_invalid=True
    )

    assert report.games == 2
    assert sorted(g.played_on.day for g in league.games.all()) == [1, 2]
    assert report.skipped


def upload(client, league, data: bytes):
    url = reverse("import_upload", kwargs={"slug": league.slug})
    return client.post(url, {"file": SimpleUploadedFile("games.csv", data, "text/csv")})


@pytest.mark.parametrize("name", HOSTILE_FILES)
def test_the_pages_show_each_problem_and_confirming_writes_nothing(
    name, organizer_client, league, write_counts
):
    before = write_counts()

    response = upload(organizer_client, league, HOSTILE_FILES[name].encode("utf-8"))

    if response.status_code == 400:  # refused as a file (a NUL byte): nothing kept
        assert response.context["form"].errors["file"]
        assert not ImportBatch.objects.exists()
        return
    assert response.status_code == 302
    batch = ImportBatch.objects.get()
    preview = organizer_client.get(response["Location"])
    assert preview.status_code == 200
    page = preview.content.decode()
    assert all(f"Line {p[0]}" in page for p in preview.context["preview"]["problems"])

    confirm = organizer_client.post(response["Location"], {"action": "import"})

    assert confirm.status_code == 400
    assert "Nothing was imported" in confirm.content.decode()
    assert write_counts() == before
    batch.refresh_from_db()
    assert batch.status == ImportBatch.Status.PENDING


@pytest.mark.parametrize(
    ("data", "name"),
    [
        ("\ufeff,2024-01-01,Zoë,Ann\r\n".encode("utf-16"), "utf-16"),
        (b"\x00" * 1000, "nul-bytes"),
        (bytes(range(256)) * 4, "every-byte"),
        (b"\x81\x8d\x8f\x90\x9d" * 10, "not-windows-1252"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_files_that_are_not_text_are_a_form_error_naming_the_file(
    data, name, organizer_client, league, write_counts
):
    before = write_counts()

    response = upload(organizer_client, league, data)

    assert response.status_code == 400
    assert "CSV (UTF-8)" in response.context["form"].errors["file"][0]
    assert not ImportBatch.objects.exists()
    assert write_counts() == before


def test_the_size_limit_is_exact(organizer_client, league, settings):
    settings.GUILDHALL_MAX_IMPORT_BYTES = len(GOOD.encode())

    assert upload(organizer_client, league, GOOD.encode()).status_code == 302
    too_big = upload(organizer_client, league, GOOD.encode() + b"\n")

    assert too_big.status_code == 400
    assert "largest file" in too_big.context["form"].errors["file"][0]
    assert ImportBatch.objects.count() == 1
