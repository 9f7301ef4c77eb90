"""What moved between two runs: python experiments/compare_runs.py BEFORE AFTER [--out FILE].

BEFORE and AFTER are results folders, or copies of a run's results/comparison.csv and
results/provenance.json in one folder each (what a what-if needs: copy them before it reruns). Writes
Markdown (cvsuite.published.run_diff): the settings in which the runs differ, both runs' verdict
counts and every number whose verdict or printed value changed. Exit status 0 whatever moved; 2 when
a folder lacks either file, naming it.
"""

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from cvsuite.published.run_diff import run_diff_markdown, settings_between


def read_run(folder: Path) -> tuple[pd.DataFrame, list]:
    comparison, provenance = folder / "comparison.csv", folder / "provenance.json"
    for path in (comparison, provenance):
        if not path.is_file():
            raise SystemExit(f"compare_runs: {path} is missing: give a results folder of a finished run")
    try:
        changed = json.loads(provenance.read_text(encoding="utf-8"))["config"]["changed_settings"]
    except (ValueError, KeyError) as error:
        raise SystemExit(f"compare_runs: {provenance} is not the comparison's provenance ({error})") from None
    return pd.read_csv(comparison, dtype=str, keep_default_na=False), changed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--out", type=Path, help="write the Markdown here instead of printing it")
    args = parser.parse_args(argv)
    try:
        (first, was), (second, now) = read_run(args.before), read_run(args.after)
    except SystemExit as error:
        print(error, file=sys.stderr)
        return 2
    text = run_diff_markdown(first, second, settings_between(was, now), (str(args.before), str(args.after)))
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
