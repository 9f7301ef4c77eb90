"""scikit-learn's gallery example "Nested versus non-nested cross-validation", re-run on our own code.

The example (iris, ``SVC(kernel="rbf")``, grid C in [1, 10, 100] and gamma in [0.01, 0.1], 30
trials, ``KFold(4, shuffle=True, random_state=i)`` for both loops of trial i) prints the mean and
the (population, ddof = 0) standard deviation of the per-trial difference non-nested minus
nested score. Here the same computation runs on ``cvsuite.methods.nested_selection`` under each
combination of combining rules for the inner selection and the outer estimate, and the
optimism it finds is set beside the shape-image study's ("Cross-Validation", Example, Part 2).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from cvsuite.methods.folds import consecutive_folds, legacy_shuffled_kfold
from cvsuite.methods.monte_carlo import standard_error
from cvsuite.methods.nested_selection import COMBINES, FitAndScore, GridProblem, nested_cv, non_nested_cv

# Registry rows of the gallery's printed output that the figures draw as references: today's mean
# and s.d. of the difference, and the mean printed before scikit-learn 0.22 (GridSearchCV iid=True).
PUBLISHED_REFERENCES = {
    "mean": "sklearn-gallery.nested.average-difference",
    "sd": "sklearn-gallery.nested.std-dev",
    "mean_iid": "sklearn-gallery.nested.iid.average-difference",
}
# The columns of the shape-image study's selection table that its optimism reads.
SHAPE_COLUMNS = ("dataset", "n_candidates", "non_nested_score", "nested_estimate")


def setting_label(setting: dict) -> str:
    """``{"C": 10, "gamma": 0.1}`` -> ``"C=10 gamma=0.1"``."""
    return " ".join(
        f"{name}={value:g}" if isinstance(value, (int, float)) else f"{name}={value}" for name, value in setting.items()
    )


def fold_sizes(n: int, outer: int, inner: int) -> str:
    """ "outer folds 38/38/37/37 items, inner folds 28-29 items": the sizes that make the two rules differ.

    The sizes of ``KFold`` (``consecutive_folds``) on n items, and inside each outer training set.
    """
    outer_sizes = [len(c) for c in consecutive_folds(n, outer)]
    inner_sizes = {len(c) for size in set(outer_sizes) for c in consecutive_folds(n - size, inner)}
    return (
        f"outer folds {'/'.join(map(str, outer_sizes))} items, inner folds {min(inner_sizes)}-{max(inner_sizes)} items"
    )


def gallery_trials(
    X,
    y,
    settings: list[dict],
    fit_and_score: FitAndScore,
    *,
    trials: int,
    n_outer: int,
    n_inner: int,
    first_seed: int,
    combines: Sequence[str] = COMBINES,
) -> pd.DataFrame:
    """One row per trial and pair (inner rule, outer rule): non-nested score, nested score, difference.

    Trial i uses ``random_state = first_seed + i`` for every splitter, as the gallery does:
    ``legacy_shuffled_kfold(n, n_inner, seed)`` for the non-nested search on all items,
    ``legacy_shuffled_kfold(n, n_outer, seed)`` for the outer folds, and
    ``legacy_shuffled_kfold(n_train_k, n_inner, seed)`` inside outer training set k. The inner
    rule picks the winners and gives the non-nested score; the outer rule combines the outer
    fold scores. One fit cache per trial: every model is fitted once whatever the rules.
    """
    for how in combines:
        if how not in COMBINES:
            raise ValueError(f"combine must be one of {', '.join(COMBINES)}, got '{how}'")
    n = len(y)
    rows = []
    for trial in range(trials):
        seed = first_seed + trial
        problem = GridProblem(fit_and_score, settings, X, y, cache={})
        search_folds = legacy_shuffled_kfold(n, n_inner, seed)
        outer_folds = legacy_shuffled_kfold(n, n_outer, seed)
        inner_folds = [legacy_shuffled_kfold(n - len(fold), n_inner, seed) for fold in outer_folds]
        for inner_how in combines:
            search = non_nested_cv(problem, search_folds, inner_how)
            nested = nested_cv(problem, outer_folds, inner_folds, inner_how)
            for outer_how in combines:
                estimate = nested.estimate(outer_how)
                rows.append(
                    {
                        "trial": trial,
                        "random_state": seed,
                        "inner_combine": inner_how,
                        "outer_combine": outer_how,
                        "non_nested_score": search.score,
                        "nested_score": estimate,
                        "difference": search.score - estimate,
                        "non_nested_setting": setting_label(settings[search.setting]),
                        "nested_settings": "; ".join(setting_label(settings[s]) for s in nested.chosen),
                    }
                )
    return pd.DataFrame(rows)


def difference_summary(trials: pd.DataFrame, reference: str = "mean_of_folds") -> pd.DataFrame:
    """Per pair of rules: the gallery's two printed statistics and what else the rules change.

    ``mean_difference`` and ``sd_difference`` are the gallery's ``score_difference.mean()`` and
    ``.std()`` (ddof = 0); ``mean_difference_se`` is the Monte Carlo standard error over trials
    (ddof = 1). ``non_nested_winner_changes`` counts trials whose non-nested winner differs from
    the one chosen under the ``reference`` inner rule; ``nested_choice_changes`` counts outer
    folds (over all trials) whose chosen setting differs likewise.
    """
    base = trials[(trials["inner_combine"] == reference) & (trials["outer_combine"] == reference)].set_index("trial")
    rows = []
    for (inner_how, outer_how), group in trials.groupby(["inner_combine", "outer_combine"], sort=False):
        group = group.set_index("trial")
        difference = group["difference"].to_numpy()
        nested_changes = sum(
            a != b
            for trial in group.index
            for a, b in zip(
                group.at[trial, "nested_settings"].split("; "), base.at[trial, "nested_settings"].split("; ")
            )
        )
        rows.append(
            {
                "inner_combine": inner_how,
                "outer_combine": outer_how,
                "trials": len(group),
                "mean_non_nested_score": group["non_nested_score"].mean(),
                "mean_nested_score": group["nested_score"].mean(),
                "mean_difference": float(difference.mean()),
                "sd_difference": float(difference.std()),
                "mean_difference_se": standard_error(difference),
                "trials_non_nested_higher": int(np.sum(difference > 0)),
                "trials_equal": int(np.sum(difference == 0)),
                "non_nested_winner_changes": int((group["non_nested_setting"] != base["non_nested_setting"]).sum()),
                "nested_choice_changes": int(nested_changes),
            }
        )
    return pd.DataFrame(rows)


def shape_image_optimism(table: pd.DataFrame, n_candidates: int) -> np.ndarray:
    """The shape-image study's optimism (non-nested score minus nested estimate), one per dataset.

    ``table`` is that study's ``per_dataset.csv`` (columns ``SHAPE_COLUMNS``); only the rows of
    the candidate-set size ``n_candidates`` are used (42 is the document's full grid).
    """
    missing = [c for c in SHAPE_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(
            f"the shape-image table lacks column(s) {', '.join(missing)} (it has {', '.join(map(str, table.columns))})"
        )
    chosen = table[table["n_candidates"] == n_candidates]
    if chosen.empty:
        sizes = sorted(table["n_candidates"].unique().tolist())
        raise ValueError(f"the shape-image table has no rows with n_candidates = {n_candidates} (it has {sizes})")
    if chosen["dataset"].duplicated().any():
        raise ValueError(f"the shape-image table repeats a dataset at n_candidates = {n_candidates}")
    chosen = chosen.sort_values("dataset")
    return (chosen["non_nested_score"] - chosen["nested_estimate"]).to_numpy(dtype=float)


def optimism_side_by_side(studies: dict[str, tuple[np.ndarray, int, int]]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per-replicate optimism of several studies, and one summary row each.

    ``studies`` maps a label to (optimism per replicate, number of candidate settings, number of
    labelled items). Optimism is the non-nested score minus the nested estimate of the same
    replicate (a trial of partitions for iris, a data set for the shape images).
    """
    long_rows, summary_rows = [], []
    for label, (optimism, candidates, n_items) in studies.items():
        optimism = np.asarray(optimism, dtype=float)
        long_rows += [{"study": label, "replicate": i, "optimism": value} for i, value in enumerate(optimism)]
        summary_rows.append(
            {
                "study": label,
                "n_candidates": candidates,
                "n_items": n_items,
                "replicates": len(optimism),
                "mean_optimism": float(optimism.mean()),
                "mean_optimism_se": standard_error(optimism),
                "sd_optimism": float(optimism.std(ddof=1)),
                "min_optimism": float(optimism.min()),
                "max_optimism": float(optimism.max()),
                "replicates_positive": int(np.sum(optimism > 0)),
            }
        )
    return pd.DataFrame(long_rows), pd.DataFrame(summary_rows)


def iris_beside_shape_images(
    gallery: pd.DataFrame,
    shapes: pd.DataFrame,
    *,
    n_settings: int,
    n_items: int,
    shape_candidates: int,
    shape_items: int,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``optimism_side_by_side`` of the gallery's trials (one row each) and the shape-image datasets.

    Iris's optimism is each trial's difference; the shape images' is ``shape_image_optimism`` of
    nested_optimism's ``per_dataset`` table at ``shape_candidates`` settings. Each is labelled with
    its learner, settings, items and replicates.
    """
    shape_optimism = shape_image_optimism(shapes, shape_candidates)
    return optimism_side_by_side(
        {
            f"iris, SVC ({n_settings} settings, {n_items} items, {len(gallery)} trials)": (
                gallery["difference"].to_numpy(),
                n_settings,
                n_items,
            ),
            f"shape images, kNN ({shape_candidates} settings, {shape_items} items, {len(shape_optimism)} datasets)": (
                shape_optimism,
                shape_candidates,
                shape_items,
            ),
        }
    )
