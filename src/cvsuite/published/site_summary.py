"""What the site's index says before any table: what was found, in words, per document; how much of
each document the registry covers (results/coverage.csv); what each verdict means in one sentence;
and how to rerun the run the pages come from."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from cvsuite.published.comparison import verdict_counts

# Where each document comes from, as its own text says: none names an author.
ABOUT = {
    "Cross-Validation": "An article on k-fold cross-validation, a companion to one on training, validation and "
    "test sets: how the estimate is formed, what it measures, how noisy it is, the variants for grouped and "
    "time-ordered data, and nested cross-validation, worked through a k-nearest-neighbour study of shape "
    "images and the published results it cites.",
    "Regularization and Cross-Validation": "A study guide to §8.2.3 and §8.2.4 of Deisenroth, Faisal and Ong, "
    "Mathematics for Machine Learning (Cambridge University Press, 2020): the regularised least-squares "
    "problem, a degree-12 ridge path, and the bias of K-fold cross-validation against K.",
    "Estimating Out-of-Sample Error": "A course unit: the bias-variance decomposition, the resampling that "
    "withholds data, and the two cases where it stays too optimistic (data ordered in time, data reused to "
    "choose the model), worked through a twelve-point line-against-polynomial example.",
}

# Each verdict in one short sentence; the full rule is on verdicts.html.
SHORT = {
    "reproduced": "Computed independently, it comes out as printed.",
    "reproduced by construction": "It comes out as printed, but the printed number was an input: no evidence.",
    "consistent": "A re-simulated number agrees, by a test that could have found it wrong.",
    "depends on the reading": "True on one reasonable reading of its sentence, false on another: both are shown.",
    "differs": "Wrong on every reasonable reading of its sentence that is listed: an erratum.",
    "inconclusive": "The simulations run cannot decide either way.",
    "not reproducible": "The document does not give what the number needs.",
    "not computed at this config": "This run's settings do not compute it.",
}

# The README's Quick start, which tests/test_site.py holds to the README.
COMMANDS = (
    "python3 -m venv .venv && .venv/bin/pip install -r requirements.lock -e . && .venv/bin/snakemake all",
    "python3 -m venv .venv && .venv/bin/pip install -c requirements.lock -e '.[test]' && .venv/bin/pytest",
)


@dataclass(frozen=True)
class RunFacts:
    """How to rerun what the pages show: the commit, whether the tree had changes, the packages, the date."""

    commit: str = ""
    uncommitted_changes: bool = False
    packages: dict[str, str] = field(default_factory=dict)
    date: str = ""
    commands: tuple[str, ...] = COMMANDS


def in_words(comparison: pd.DataFrame) -> str:
    """The whole verdict as one plain sentence, for a reader who reads nothing else."""
    n = verdict_counts(comparison)
    # What an input matched is counted apart from what was confirmed: it is no evidence.
    confirmed = n["reproduced"] + n["consistent"]
    how = f"{n['reproduced']} reproduced" + (
        f", {n['consistent']} consistent with a fresh simulation" if n["consistent"] else ""
    )
    parts = [
        f"Of the {len(comparison)} numbers and claims the three documents print, {confirmed} are confirmed when the "
        f"workflow regenerates them independently ({how})"
    ]
    if n["reproduced by construction"]:
        parts.append(
            f"{n['reproduced by construction']} come out as printed only because the printed number was an input"
        )
    if n["depends on the reading"]:
        parts.append(f"{n['depends on the reading']} are true on one reasonable reading and false on another")
    if n["differs"]:
        parts.append(f"{n['differs']} are wrong on every reasonable reading listed")
    if n["inconclusive"]:
        parts.append(f"{n['inconclusive']} cannot be decided with the simulations run")
    if n["not reproducible"]:
        parts.append(f"{n['not reproducible']} cannot be checked, because the documents do not give what they need")
    if n["not computed at this config"]:
        parts.append(f"{n['not computed at this config']} are not computed at this run's settings")
    return (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + "."


def documents(comparison: pd.DataFrame, coverage: pd.DataFrame | None, findings: list[dict]) -> list[dict]:
    """Per document, in the documents' order: where it comes from, its verdict counts, its errata (as
    indices into ``findings``) and its coverage by the census (clauses judged, not checkable)."""
    out = []
    for name, about in ABOUT.items():
        rows = comparison[comparison["document"] == name]
        counts = {s: n for s, n in verdict_counts(rows).items() if n}
        listed = [i for i, f in enumerate(findings) if any(r["document"] == name for r in f["rows"])]
        covered = {}
        if coverage is not None and len(coverage):
            mine = coverage[coverage["document"] == name]
            covered = {
                k: int(pd.to_numeric(mine[k]).sum()) for k in ("clauses", "judged", "not_checkable", "not_judged_yet")
            }
        out.append(
            {
                "document": name,
                "about": about,
                "numbers": len(rows),
                "counts": counts,
                "findings": listed,
                "coverage": covered,
            }
        )
    return out
