"""Two runs side by side (cvsuite.published.run_diff and experiments/compare_runs.py): the settings in
which they differ, and every number whose verdict or printed value moved."""

import json
import subprocess
import sys

import pandas as pd

from conftest import ROOT
from cvsuite.published.comparison import COMPARISON_COLUMNS
from cvsuite.published.run_diff import moved_numbers, run_diff_markdown, settings_between


def a_run(**changes) -> pd.DataFrame:
    base = {column: "" for column in COMPARISON_COLUMNS}
    rows = [
        {
            **base,
            "claim": "a",
            "section": "§8.2.4",
            "published": "0.59",
            "reproduced_as_printed": "0.59",
            "status": "reproduced",
        },
        {
            **base,
            "claim": "b",
            "section": "Quiz | 3",
            "published": "33",
            "reproduced_as_printed": "46",
            "status": "differs",
        },
    ]
    for claim, (value, status) in changes.items():
        row = next(r for r in rows if r["claim"] == claim)
        row["reproduced_as_printed"], row["status"] = value, status
    return pd.DataFrame(rows, columns=COMPARISON_COLUMNS)


def test_settings_between_two_runs_are_those_whose_values_differ():
    before = [["k_bias.shuffles", 40, 200]]
    after = [["k_bias.shuffles", 40, 200], ["k_bias.folds", [2, 3, 5, 10, 25], [2, 5, 10, 25]]]
    assert settings_between(before, after) == [("k_bias.folds", "[2, 3, 5, 10, 25]", "[2, 5, 10, 25]")]
    assert settings_between(after, []) == [
        ("k_bias.folds", "[2, 5, 10, 25]", "[2, 3, 5, 10, 25]"),
        ("k_bias.shuffles", "200", "40"),
    ]


def test_a_number_moves_when_its_verdict_or_printed_value_changes_and_only_then():
    assert moved_numbers(a_run(), a_run()).empty
    moved = moved_numbers(a_run(), a_run(a=("", "not computed at this config")))
    assert list(moved["claim"]) == ["a"] and moved.loc[0, "status_after"] == "not computed at this config"
    assert list(moved_numbers(a_run(), a_run(b=("45", "differs")))["claim"]) == ["b"]
    text = run_diff_markdown(a_run(), a_run(b=("45", "differs")), [], ("documents", "what-if"))
    assert "| `b` | Quiz \\| 3 | 33 | 46 (differs) | 45 (differs) |" in text
    assert "None: both runs use the same settings." in text and "## Numbers that moved: 1 of 2" in text


def test_the_command_names_a_missing_file_and_exits_2(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    for folder, run in ((before, a_run()), (after, a_run(a=("", "not computed at this config")))):
        folder.mkdir()
        run.to_csv(folder / "comparison.csv", index=False)
        changed = [] if folder is before else [["k_bias.folds", [2, 3], [2]]]
        (folder / "provenance.json").write_text(json.dumps({"config": {"changed_settings": changed}}))
    script = str(ROOT / "experiments" / "compare_runs.py")
    done = subprocess.run([sys.executable, script, str(before), str(after)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "| `k_bias.folds` | [2, 3] | [2] |" in done.stdout and "| `a` |" in done.stdout
    (after / "provenance.json").unlink()
    done = subprocess.run([sys.executable, script, str(before), str(after)], capture_output=True, text=True)
    assert done.returncode == 2 and str(after / "provenance.json") in done.stderr and not done.stdout
