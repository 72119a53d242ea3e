"""Auditing a user's float table: formats, and one clear error for every bad table."""

from __future__ import annotations

import json

import pytest

from exactplay.cli.main import main
from exactplay.errors import EXIT_OK, EXIT_USAGE
from exactplay.games.race import solve_table


@pytest.fixture
def race5_rows():
    t = solve_table(5, "float")
    return [[a, b, t.F[a][b]] for a in range(1, 6) for b in range(1, 6)]


def _text(rows, header="a,b,F"):
    """CSV with a header; floats written with repr (round-trip exact)."""
    def field(x):
        return repr(x) if isinstance(x, float) else str(x)

    return "\n".join([header] + [",".join(field(x) for x in row) for row in rows]) + "\n"


def _run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_our_float_table_as_csv_is_within_a_few_ulps(capsys, tmp_path, race5_rows):
    path = tmp_path / "f.csv"
    path.write_text(_text(race5_rows))
    status, out, _ = _run(capsys, "audit", "race", "--target", "5", "--float-table", str(path), "--json")
    data = json.loads(out)
    assert status == EXIT_OK and data["values"]["cells"] == 25
    assert 0 < data["values"]["max_abs_error"] < 1e-15


def test_json_rows_and_text_rows_give_the_same_audit(capsys, tmp_path, race5_rows):
    (tmp_path / "f.json").write_text(json.dumps({"rows": race5_rows}))
    (tmp_path / "f.txt").write_text("# F(a,b)\n" + "\n".join(f"{a} {b} {v!r}" for a, b, v in race5_rows))
    results = []
    for name in ("f.json", "f.txt"):
        status, out, _ = _run(capsys, "audit", "race", "--target", "5", "--float-table", str(tmp_path / name), "--json")
        assert status == EXIT_OK
        results.append(json.loads(out)["values"])
    assert results[0] == results[1]


def test_a_wrong_entry_is_found_where_it_is(capsys, tmp_path, race5_rows):
    race5_rows[7][2] += 1e-6
    path = tmp_path / "f.csv"
    path.write_text(_text(race5_rows))
    _, out, _ = _run(capsys, "audit", "race", "--target", "5", "--float-table", str(path), "--json")
    v = json.loads(out)["values"]
    assert v["max_abs_error_at"] == race5_rows[7][:2] and v["max_abs_error"] == pytest.approx(1e-6, rel=1e-6)


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda rows: rows[:-1], "no value for state (5, 5)"),
        (lambda rows: rows + [[6, 1, 0.5]], "state (6, 1) is not a state"),
        (lambda rows: rows + [rows[0]], "appears twice"),
        (lambda rows: [rows[0][:2]] + rows[1:], "expected 3 fields"),
        (lambda rows: [[1, 1, "x"]] + rows[1:], "is not a number"),
        (lambda rows: [[1, 1, "nan"]] + rows[1:], "not finite"),
        (lambda rows: [["one", 1, 0.5]] + rows[1:], "a must be an integer"),
    ],
)
def test_malformed_tables_are_one_line_exit_2(capsys, tmp_path, race5_rows, mutate, message):
    path = tmp_path / "f.csv"
    path.write_text(_text(mutate(race5_rows)))
    status, out, err = _run(capsys, "audit", "race", "--target", "5", "--float-table", str(path))
    assert status == EXIT_USAGE and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("content, message", [("", "no rows"), ("{not json", "not JSON"), ('{"rows": 3}', "list of rows")])
def test_empty_or_broken_files_are_one_line_exit_2(capsys, tmp_path, content, message):
    path = tmp_path / "f.json"
    path.write_text(content)
    status, _, err = _run(capsys, "audit", "race", "--target", "2", "--float-table", str(path))
    assert status == EXIT_USAGE and message in err


def test_missing_file_is_one_line_exit_2(capsys, tmp_path):
    status, _, err = _run(capsys, "audit", "race", "--float-table", str(tmp_path / "nope.csv"))
    assert status == EXIT_USAGE and "cannot read" in err


def test_coin_and_hold_tables_are_audited_too(capsys, tmp_path):
    from exactplay.games import coins, hold

    ct = coins.solve_row(coins.parse_coins("1 2 3".split()), "float")
    path = tmp_path / "c.txt"
    path.write_text("\n".join(f"{i} {j} {v!r}" for (i, j), v in ct.V.items()))
    assert _run(capsys, "audit", "coins", "1", "2", "3", "--float-table", str(path))[0] == EXIT_OK
    ht = hold.float_table(8, 2)
    path = tmp_path / "h.txt"
    path.write_text("\n".join(f"{c} {h} {ht.V[c][h]!r}" for c, h in ht.pairs()))
    status, out, _ = _run(capsys, "audit", "hold", "--target", "8", "--faces", "2", "--float-table", str(path), "--json")
    assert status == EXIT_OK and json.loads(out)["values"]["max_abs_error"] < 1e-14


def test_deeply_nested_json_is_one_line_exit_2_for_tables_and_certificates(capsys, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100000 + "]" * 100000)
    status, _, err = _run(capsys, "audit", "race", "--target", "2", "--float-table", str(path))
    assert status == EXIT_USAGE and "nested too deeply" in err and len(err.strip().splitlines()) == 1
    status, _, err = _run(capsys, "check", str(path))  # a certificate that cannot be read fails the check
    fail, summary = err.strip().splitlines()
    assert status == 1 and "nested too deeply" in fail and summary == "1 of 1 certificate(s) failed"
