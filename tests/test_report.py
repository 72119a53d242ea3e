"""Reports: one self-contained HTML file plus PNGs, figures that show the right data.

Small instances keep this fast; the figures are checked through the data
they draw (image arrays, marker positions), not by looking at pixels.
"""

from __future__ import annotations

import base64
import math
import os
import re
import subprocess
import sys

import pytest

from exactplay.errors import UsageError
from exactplay.games import GAME_MODULES
from exactplay.present.report import build_report, game_report
from exactplay.present.report.figures import log10_exact

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def embedded_images(page: str) -> list[bytes]:
    return [base64.b64decode(b) for b in re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)]


def assert_self_contained(page: str) -> None:
    """No external resource: every src is a data URI, no stylesheet or script links."""
    for src in re.findall(r'src="([^"]*)"', page):
        assert src.startswith("data:image/png;base64,"), src[:60]
    assert "<link" not in page and "<script" not in page


def assert_figures_are_labelled(rep) -> None:
    """A title and a caption per figure; every plot panel has axis labels (colour bars have their label)."""
    for fig in rep.figures:
        assert fig.title and fig.caption, fig.name
        suptitle = fig.figure._suptitle.get_text() if fig.figure._suptitle else ""
        panels = [ax for ax in fig.figure.axes if ax.get_label() != "<colorbar>"]
        assert suptitle or panels[0].get_title(), fig.name
        assert all(ax.get_ylabel() for ax in panels), fig.name
        assert any(ax.get_xlabel() for ax in panels), fig.name


# ------------------------------------------------------------------ generic


def test_log10_exact_handles_values_below_the_float_range():
    from fractions import Fraction

    assert log10_exact(Fraction(1, 10**400)) == pytest.approx(-400)
    assert log10_exact(Fraction(3, 7)) == pytest.approx(math.log10(3 / 7))
    assert log10_exact(Fraction(0)) == -math.inf


def test_drawing_a_figure_leaves_matplotlibs_backend_as_the_user_set_it(tmp_path):
    src = os.path.join(os.path.dirname(__file__), os.pardir, "src")
    code = ("import matplotlib\nfrom exactplay.present.report.figures import new_figure\n"
            f"f = new_figure(2, 2); f.add_subplot().plot([0, 1]); f.savefig({str(tmp_path / 'f.png')!r})\n"
            "print(matplotlib.get_backend())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**os.environ, "PYTHONPATH": src, "MPLBACKEND": "template"})
    assert out.stdout.strip() == "template" and (tmp_path / "f.png").stat().st_size > 0


def test_a_game_that_is_not_built_is_a_one_line_usage_error(monkeypatch):
    monkeypatch.setitem(GAME_MODULES, "ghost", "exactplay.games.ghost")
    with pytest.raises(UsageError, match="not available"):
        game_report("ghost", {})


def test_an_unknown_game_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown game"):
        game_report("nosuch", {})


# ------------------------------------------------------------------ race


pytestmark = pytest.mark.xdist_group("test_report")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def race_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("race-report")
    return build_report("race", {"target": 12}, out, with_claims=False), out


def test_race_report_is_one_html_file_with_every_png_embedded(race_report):
    files, out = race_report
    page = files.html.read_text(encoding="utf-8")
    assert files.html.name == "race-report.html" and files.html.parent == out
    assert [p.name for p in files.pngs] == ["race-optimal-t.png", "race-float-ulps.png", "race-decision-gap.png"]
    assert embedded_images(page) == [p.read_bytes() for p in files.pngs]
    assert all(p.read_bytes().startswith(PNG_MAGIC) for p in files.pngs)
    assert_self_contained(page)


def test_race_report_figures_have_titles_axis_labels_and_captions(race_report):
    files, _ = race_report
    assert_figures_are_labelled(files.report)
    page = files.html.read_text(encoding="utf-8")
    for fig in files.report.figures:
        assert fig.title in page.replace("&#x27;", "'")


def test_race_optimal_t_figure_draws_the_exact_best_t(race_report):
    from exactplay.games.race import solve_table

    files, _ = race_report
    exact = solve_table(12, "fraction")
    drawn = files.report.figures[0].figure.axes[0].images[0].get_array()
    assert [[int(drawn[a - 1][b - 1]) for b in range(1, 13)] for a in range(1, 13)] == [
        [exact.best_t[(a, b)] for b in range(1, 13)] for a in range(1, 13)
    ]


def test_race_ulps_figure_maximum_is_the_audited_maximum(race_report):
    from exactplay.games.race import run_audit

    files, _ = race_report
    drawn = files.report.figures[1].figure.axes[0].images[0].get_array()
    assert float(drawn.max()) == pytest.approx(run_audit(12)["values"].max_ulps, rel=1e-12)


def test_race_gap_figure_marks_exactly_the_float_unresolvable_cells(race_report):
    from exactplay.audit.judge import UNRESOLVABLE
    from exactplay.games.race import run_audit

    files, _ = race_report
    d = run_audit(12)["decisions"]
    expected = {(b, a) for (a, b), c in d.classes.items() if c == UNRESOLVABLE}
    ax = files.report.figures[2].figure.axes[0]
    marked = set()
    for coll in ax.collections:
        if coll.get_label().startswith("float-unresolvable"):
            marked |= {(int(x), int(y)) for x, y in coll.get_offsets()}
    assert marked == expected
    drawn = ax.images[0].get_array()
    a, b = d.smallest_gap_at
    assert float(drawn[a - 1][b - 1]) == pytest.approx(log10_exact(d.smallest_gap))


def test_race_report_includes_the_claims_table_when_asked(tmp_path, monkeypatch):
    from exactplay.claims import Claim, verdict
    from exactplay.present.report import ledger

    fake = [Claim("race.fake", "race", "race.md, Section 0", "a stated thing", "m", lambda: verdict(False, "found X"))]
    monkeypatch.setattr(ledger, "select_claims", lambda game=None, fast=False, ids=None: fake)
    files = build_report("race", {"target": 2}, tmp_path)
    page = files.html.read_text(encoding="utf-8")
    assert "race.fake" in page and "found X" in page and 'class="refuted"' in page


def test_report_builds_without_a_display_in_a_fresh_process(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "MPLBACKEND", "WAYLAND_DISPLAY")}
    proc = subprocess.run(
        [sys.executable, "-m", "exactplay", "report", "race", "--target", "3", "-o", str(tmp_path), "--no-claims"],
        capture_output=True, text=True, env=env, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert (tmp_path / "race-report.html").exists()


# ------------------------------------------------------------------ war


@pytest.fixture(scope="module")
def war_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("war-report")
    return build_report("war", {"ranks": 4, "suits": 2}, out, with_claims=False), out


def test_war_report_is_self_contained_with_labelled_figures(war_report):
    files, _ = war_report
    page = files.html.read_text(encoding="utf-8")
    assert embedded_images(page) == [p.read_bytes() for p in files.pngs] and len(files.pngs) == 2
    assert_self_contained(page)
    assert_figures_are_labelled(files.report)


def test_war_sweep_figure_draws_exact_and_float_sums_over_the_independent_guess(war_report):
    from fractions import Fraction

    from exactplay.games.war import turn_distributions

    files, _ = war_report
    exact = turn_distributions(4, 2, "fraction")
    w = Fraction(8 - 2, 2 * 7)  # 3/7: B's card of another rank, lower half the time
    lines = files.report.figures[0].figure.axes[0].get_lines()
    exact_line = next(l for l in lines if l.get_label().startswith("exact"))
    assert list(exact_line.get_ydata()) == pytest.approx([float(sum(P.values()) / w**t) for t, P in enumerate(exact)])
    assert float(sum(exact[-1].values())) == pytest.approx(1 / 28)  # seed: p_sweeps of make_deck(4, 2)


def test_war_error_figure_puts_every_float_error_under_its_bound(war_report):
    from exactplay.games.war import run_audit

    files, _ = war_report
    r = run_audit(4, 2)
    ax = files.report.figures[1].figure.axes[0]
    dots = ax.collections[0].get_offsets()
    bound = dict(zip(*next(l for l in ax.get_lines() if l.get_label().startswith("a-priori")).get_data()))
    assert all(y <= bound[x] for x, y in dots)
    assert r["entries_over_bound"] == 0


# ------------------------------------------------------------------ coins


@pytest.fixture(scope="module")
def coins_report(tmp_path_factory):
    from fractions import Fraction

    out = tmp_path_factory.mktemp("coins-report")
    row = tuple(Fraction(k, 10) for k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 3, 3))
    return build_report("coins", {"coins": row, "file": None}, out, with_claims=False), row


def test_coins_report_is_self_contained_with_labelled_figures(coins_report):
    files, _ = coins_report
    page = files.html.read_text(encoding="utf-8")
    assert [p.name for p in files.pngs] == ["coins-line-of-play.png", "coins-float-errors.png", "coins-decisions.png"]
    assert embedded_images(page) == [p.read_bytes() for p in files.pngs]
    assert_self_contained(page)
    assert_figures_are_labelled(files.report)


def test_coins_line_of_play_gives_player_one_the_exact_value(tmp_path):
    """Seed coins.md: for (10, 20, 8, 7) the first player gets 7 + 20 = 27."""
    from fractions import Fraction

    files = build_report("coins", {"coins": tuple(map(Fraction, (10, 20, 8, 7))), "file": None}, tmp_path,
                         with_claims=False)
    ax = files.report.figures[0].figure.axes[0]
    blue = [p.get_height() for p in ax.patches if p.get_facecolor()[:3] == pytest.approx((0.1216, 0.4667, 0.7059), abs=1e-3)]
    assert sorted(blue) == [7, 20]


def test_coins_decision_figure_marks_exactly_the_uncertified_float_choices(coins_report):
    from exactplay.audit.judge import CERTIFIED, EXACT_TIE
    from exactplay.games.coins import run_audit

    files, row = coins_report
    r = run_audit(row)
    ax = files.report.figures[2].figure.axes[0]
    for coll, key in zip(ax.collections, ("min", "sum")):
        a = r[key]
        expected = set(a["flipped"]) | set(a["ties_broken_by_rounding"]) | set(a["float_ties_not_exact"]) | {
            s for s, c in a["decisions"].classes.items() if c not in (CERTIFIED, EXACT_TIE)}
        assert {(int(y), int(x)) for x, y in coll.get_offsets()} == expected
    drawn = ax.images[0].get_array()
    ties = {(i, j) for (i, j), c in r["exact"].choice.items() if c == "tie"}
    assert {(i, j) for i in range(len(row)) for j in range(len(row)) if drawn[i][j] == 2} == ties


def test_coins_report_with_one_coin_is_a_usage_error(tmp_path):
    from fractions import Fraction

    with pytest.raises(UsageError, match="at least two coins"):
        build_report("coins", {"coins": (Fraction(5),), "file": None}, tmp_path)


# ------------------------------------------------------------------ chefs


@pytest.fixture(scope="module")
def chefs_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("chefs-report")
    return build_report("chefs", {"n": 6, "skills": None}, out, with_claims=False)


def test_chefs_report_is_self_contained_with_labelled_figures(chefs_report):
    page = chefs_report.html.read_text(encoding="utf-8")
    assert [p.name for p in chefs_report.pngs] == ["chefs-expected-dishes.png", "chefs-ties.png",
                                                   "chefs-tie-dependence.png"]
    assert embedded_images(page) == [p.read_bytes() for p in chefs_report.pngs]
    assert_self_contained(page)
    assert_figures_are_labelled(chefs_report.report)


def test_chefs_figures_draw_the_exact_E_and_the_tie_rule_difference_of_every_m(chefs_report):
    from exactplay.games.chefs import cycle
    from exactplay.games.chefs import fibonacci_skills
    from exactplay.numbers.backends import get_backend

    B = get_backend("fraction")
    sols = {m: {tie: cycle.solve([B.q(s.numerator, s.denominator) for s in fibonacci_skills(m)], B, tie=tie)
                for tie in ("nearest", "farthest")} for m in range(2, 7)}
    top = chefs_report.report.figures[0].figure.axes[0]
    exact_line = next(l for l in top.get_lines() if l.get_label() == "exact E(m)")
    assert list(exact_line.get_ydata()) == pytest.approx([float(sols[m]["nearest"].E) for m in range(2, 7)])
    bars = chefs_report.report.figures[2].figure.axes[0].patches
    expected = [100 * float((s["farthest"].E - s["nearest"].E) / s["nearest"].E) for s in sols.values()]
    assert [b.get_height() for b in bars] == pytest.approx(expected)
    ties = chefs_report.report.figures[1].figure.axes[0].patches[:5]
    assert [int(b.get_height()) for b in ties] == [len(sols[m]["nearest"].ties) for m in range(2, 7)]


def test_chefs_report_with_the_seed_skills_draws_the_checkpoint_W3_of_chef_1(tmp_path):
    """Seed chefs.md: with skills 1/4, 1/2, 1 chef 1 wins with probability 0.29375."""
    files = build_report("chefs", {"n": None, "skills": "1/4,1/2,1"}, tmp_path, with_claims=False)
    winners = files.report.figures[2].figure.axes[1].patches
    assert winners[0].get_height() == pytest.approx(0.29375, abs=1e-15)


def test_a_report_that_cannot_be_written_is_a_one_line_usage_error(tmp_path):
    (tmp_path / "race-report.html").mkdir()  # the page's name is taken by a directory
    with pytest.raises(UsageError, match="cannot write the report"):
        build_report("race", {"target": 2}, tmp_path, with_claims=False)


# ------------------------------------------------------------------ hold


@pytest.fixture(scope="module")
def hold_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("hold-report")
    return build_report("hold", {"target": 12, "faces": 4}, out, with_claims=False)


def test_hold_report_is_self_contained_with_labelled_figures(hold_report):
    page = hold_report.html.read_text(encoding="utf-8")
    assert [p.name for p in hold_report.pngs] == ["hold-decision-maps.png", "hold-wrong-decisions.png",
                                                  "hold-values.png"]
    assert embedded_images(page) == [p.read_bytes() for p in hold_report.pngs]
    assert_self_contained(page)
    assert_figures_are_labelled(hold_report.report)


def test_hold_decision_maps_draw_the_exact_policy_and_mark_the_published_mistakes(hold_report):
    from exactplay.games.hold import exact_table, seed_table
    from exactplay.games.hold.report import opponent_scores

    T = 12
    exact, seed = exact_table(T, 4, "fraction"), seed_table(T, 4)
    axes = [ax for ax in hold_report.report.figures[0].figure.axes if ax.get_visible()]
    assert len(axes) == len(opponent_scores(T))
    for ax, h in zip(axes, opponent_scores(T)):
        drawn = ax.images[0].get_array()
        for c in range(T - 1):
            for x in range(2, T - c + 1):
                assert int(drawn[c][x - 2]) in ((1, 2) if exact.policy[c][h][x - 2] == "H" else (0,))  # ties hold
        dots = {(int(x), int(c)) for coll in ax.collections for x, c in coll.get_offsets()}
        wrong = {(x, c) for c in range(T - 1) for x in range(2, T - c + 1)
                 if seed.answer(c, h, x) != exact.policy[c][h][x - 2]}
        assert dots == wrong


def test_hold_value_figure_draws_the_published_table_minus_the_exact_value(hold_report):
    from fractions import Fraction

    from exactplay.games.hold import exact_table, seed_table

    T = 12
    exact, seed = exact_table(T, 4, "fraction"), seed_table(T, 4)
    right = hold_report.report.figures[2].figure.axes[1]
    drawn = right.images[0].get_array()
    for c in range(T - 1):
        for h in range(T - 1):
            assert drawn[c][h] == pytest.approx(seed.dp[c][h] - float(Fraction(exact.V[c][h])), abs=1e-15)


def test_every_registered_game_has_a_report_module_with_build():
    import importlib

    from exactplay.present.report import REPORT_MODULES

    assert set(REPORT_MODULES) == set(GAME_MODULES)
    for name, module_name in REPORT_MODULES.items():
        assert callable(importlib.import_module(module_name).build), name


@pytest.mark.parametrize("game, params", [
    ("race", {"target": 6}),
    ("war", {"ranks": 3, "suits": 2}),
    ("coins", {"coins": ("1/10", "3/10", "1/5"), "file": None}),
])
def test_figures_draw_the_same_data_with_both_exact_backends(exact_backend, game, params):
    """Drawing needs no PNG: compare the plotted arrays of the Fraction run with the mpq run."""
    import numpy

    if game == "coins":
        from fractions import Fraction

        params = {**params, "coins": tuple(Fraction(c) for c in params["coins"])}
    ours = game_report(game, params, exact_backend.name)
    ref = game_report(game, params, "mpq")
    for a, b in zip(ours.figures, ref.figures):
        for ax_a, ax_b in zip(a.figure.axes, b.figure.axes):
            for im_a, im_b in zip(ax_a.images, ax_b.images):
                assert numpy.ma.allequal(im_a.get_array(), im_b.get_array()), a.name
            for l_a, l_b in zip(ax_a.get_lines(), ax_b.get_lines()):
                assert list(l_a.get_ydata()) == list(l_b.get_ydata()), a.name
    assert ours.summary == ref.summary
