"""Study kohavi_iris_majority: Kohavi (1995) as cited by "Cross-Validation", Variants (leave-one-out).

The majority-class predictor on Iris under leave-one-out (0% in every fold), stratified K-fold
and shuffled (unstratified) K-fold over many partitions, under each tie-breaking rule. Writes
the estimates per protocol and rule, every partition's estimate, the folds of each protocol's
first partition and the class counts; draws the fold scores and the spread over partitions,
with the published leave-one-out figure read from the registry.
"""

import numpy as np
import pandas as pd

from cvsuite.figures import style
from cvsuite.studies.kohavi_iris_majority import class_count_summary, majority_cv_study, protocol_estimates
from cvsuite.workflow.outputs import logged_to, save_figure, write_provenance, write_table
from cvsuite.published.registry import published_value
from cvsuite.published.registry import read_registry

PUBLISHED_LOO = "kohavi1995.loo.accuracy"  # registry row drawn as the published reference


def main(params: dict, inputs, out) -> None:
    from sklearn.datasets import load_iris  # ships with scikit-learn: no download

    iris = load_iris()
    labels, names = iris.target, list(iris.target_names)
    runs, folds = [], []
    for tie_break in params["tie_breaks"]:
        r, f = majority_cv_study(labels, len(names), params["folds"], params["partitions"],
                                 params["first_seed"], tie_break, params["tie_seed"])
        runs.append(r)
        folds.append(f)
    runs, folds = pd.concat(runs, ignore_index=True), pd.concat(folds, ignore_index=True)
    estimates = protocol_estimates(runs, np.bincount(labels, minlength=len(names)))
    folds["predicted_class_name"] = [names[c] for c in folds["predicted_class"]]

    write_table(estimates, out.estimates)
    write_table(runs, out.partitions)
    write_table(folds, out.folds)
    write_table(class_count_summary(labels, names), out.dataset)
    write_provenance(out.provenance, "kohavi_iris_majority", {"kohavi_iris_majority": params})
    published_loo = published_value(read_registry(inputs.registry), PUBLISHED_LOO)
    draw_fold_scores(estimates, runs, folds, params["tie_breaks"][0], published_loo, [out.figure, out.figure_svg])


def draw_fold_scores(estimates: pd.DataFrame, runs: pd.DataFrame, folds: pd.DataFrame, tie_break: str,
                     published_loo: float, paths) -> None:
    """Left: every fold's score in each protocol's first partition. Right: the estimates over partitions."""
    import matplotlib.pyplot as plt

    style.apply_style()
    shown = estimates[estimates["tie_break"] == tie_break].set_index("scheme")
    loo, strat, shuf = shown.loc["leave-one-out"], shown.loc["stratified"], shown.loc["shuffled"]
    truth = float(loo["full_data_accuracy_percent"])
    fig, (fold_ax, part_ax) = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1, 1.25]})

    jitter = np.random.default_rng(0)  # display only: spreads coincident points sideways
    for x, scheme in enumerate(["leave-one-out", "stratified", "shuffled"]):
        protocol = shown.loc[scheme, "protocol"]
        scores = folds[(folds["protocol"] == protocol) & (folds["tie_break"] == tie_break)]["accuracy_percent"]
        fold_ax.scatter(x + jitter.uniform(-0.25, 0.25, len(scores)), scores, s=12, alpha=0.6, color="black",
                        label="one fold's accuracy" if x == 0 else None)
        first = runs[(runs["protocol"] == protocol) & (runs["tie_break"] == tie_break) & (runs["partition"] == 0)]
        fold_ax.plot([x - 0.32, x + 0.32], [first["accuracy_percent"].iloc[0]] * 2, color=style.EXPECTED, linewidth=2,
                     label="the partition's CV estimate" if x == 0 else None)
    fold_ax.axhline(published_loo, color=style.PUBLISHED, linestyle="--", linewidth=1.2,
                    label=f"published: {published_loo:g}% under leave-one-out")
    fold_ax.axhline(truth, color=style.REFERENCE, linestyle=":", label=f"trained on all 150: {truth:.1f}% expected")
    fold_ax.set_xticks([0, 1, 2], [f"leave-one-out\n({int(loo['n_folds'])} folds)", f"{strat['protocol']}\n(first partition)",
                                   f"{shuf['protocol']}\n(first partition)"])
    fold_ax.set(ylabel="accuracy of the fold's majority predictor (%)", ylim=(-4, 60),
                title="Per fold: leave-one-out and stratified folds never disagree")
    fold_ax.legend(loc="upper left", fontsize=8)

    shuffled = runs[(runs["scheme"] == "shuffled") & (runs["tie_break"] == tie_break)]["accuracy_percent"]
    step = 100.0 / int(loo["n_folds"])  # estimates move in steps of one hit out of n
    bins = np.arange(shuffled.min() - step / 2, shuffled.max() + step, step)
    heights, _, _ = part_ax.hist(shuffled, bins=bins, color=style.TRAIN, alpha=0.75,
                 label=f"{shuf['protocol']}, {int(shuf['partitions'])} shuffles")
    part_ax.axvline(shuf["expected_accuracy_percent"], color=style.TRAIN, linestyle="-.",
                    label=f"exact expectation {shuf['expected_accuracy_percent']:.2f}%")
    part_ax.axvline(strat["accuracy_percent"], color=style.EXPECTED, linewidth=2,
                    label=f"{strat['protocol']}: {strat['accuracy_percent']:.1f}% in all {int(strat['partitions'])} partitions")
    part_ax.axvline(published_loo, color=style.PUBLISHED, linestyle="--", linewidth=1.2,
                    label=f"leave-one-out, published: {published_loo:g}% (reproduced: {loo['accuracy_percent']:g}%)")
    part_ax.set(xlabel="cross-validated accuracy of the majority predictor (%)", ylabel="partitions",
                title=f"Over partitions: shuffled {int(shuf['n_folds'])}-fold spreads (s.d. {shuf['spread_over_partitions_percent']:.2f} points)")
    part_ax.set_xlim(-2, 58)
    part_ax.set_ylim(0, 1.7 * heights.max())  # room for the legend above the bars
    part_ax.legend(loc="upper right", fontsize=8)

    rules = estimates.groupby("protocol")["accuracy_percent"].nunique()
    same = "identical under every tie-breaking rule" if (rules == 1).all() else "depends on the tie-breaking rule"
    fig.suptitle(f"Majority class on Iris: leave-one-out {loo['accuracy_percent']:.0f}% with zero fold spread, "
                 f"stratified {strat['accuracy_percent']:.1f}%, shuffled {shuf['accuracy_percent']:.1f}% "
                 f"(truth {truth:.1f}%)\n{same.capitalize()} (shown: {tie_break.replace('_', ' ')})", y=1.04)
    save_figure(fig, paths)


if __name__ == "__main__":
    with logged_to(snakemake.log[0]):  # noqa: F821 - provided by Snakemake's script directive
        main(snakemake.params.study, snakemake.input, snakemake.output)  # noqa: F821
