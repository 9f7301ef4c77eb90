"""Study twelve_points: the line against the degree-5 polynomial on twelve observations.

"Estimating Out-of-Sample Error", the worked example after "Checks", run on the table that
recover_twelve_points recovered from the document's printed statistics (the document's own table
did not survive), under the conventions that recovery settled. Writes the fits on all twelve
points, the fold table of both models, their summaries (training error, CV, fold s.d., standard
error), the ratios and differences, and how often the document's conclusions hold on fresh data
y = 2x + noise. Its figures (the data with both fits, the degree-5 fit trained without fold 4, the
per-fold errors, and the CV difference over fresh data, with the document's printed values beside
them) are drawn from these tables by its figure rule (cvsuite.figures.twelve_points.draw).

Also the numbers behind the document's other sentences about the example: the design of Steps 2-3
(design), the statistics of the recovered table (table_statistics), the ranking tested as an
inference (paired fold differences, every re-partition, fresh data: ranking_evidence), what CV_k
estimates at each k on this design, exactly (expectations_by_folds) and averaged over designs with x
drawn at random (random_design_expectations), each k against leave-one-out on both designs
(against_leave_one_out), with folds of unequal size by position (uneven_folds_against_leave_one_out)
and with folds assigned at random (random_folds_against_leave_one_out), what the dependence of
leave-one-out's held-out losses adds to the variance of their average (loo_loss_dependence), CV_k's
pessimism at larger n on the same design (pessimism_by_n), and the range of the statistics the
records quote over every table the recovery found consistent with the printed figures
(consistent_tables), every single split of one fold's size against the folds' spread
(single_splits), how far the fold fits move from the fit on all twelve (fold_fit_spread) and, exactly,
how close the fold fits come to it at each k (fold_fit_distance). Statistics only: the registry's
records decide.
"""

import numpy as np
import pandas as pd

from cvsuite.methods.fold_statistics import Design
from cvsuite.studies import twelve_points as tp
from cvsuite.studies import twelve_points_by_folds as by_folds
from cvsuite.studies import twelve_points_random_x as random_x
from cvsuite.studies import twelve_points_ranking as ranking
from cvsuite.studies import twelve_points_splits as splits
from cvsuite.studies import twelve_points_table_statistics as tps
from cvsuite.studies.recover_twelve_points import recovered_y, settled_convention
from cvsuite.workflow.study_job import Job, StudyResult, run_job

RECOVERED_DATA = "recovered table (not given in the document)"
EXPECTED_DATA = "exact expectations on fresh data y = a + b x + noise (no table)"
FRESH_DATA = "simulated fresh tables y = b x + noise at the recovered table's slope and noise (no table)"
BOTH_DESIGNS_DATA = "exact expectations on fresh data (no table): x as printed (design fixed) or drawn (random)"
CONSISTENT_DATA = (
    "every table consistent with the printed figures (the recovered one and recover_twelve_points' solutions)"
)


def main(job: Job) -> StudyResult:
    data, params = job.config["twelve_observations"], job.config["twelve_points"]
    design = Design.of(data["observations"], data["line_degree"], data["polynomial_degree"], data["folds"])
    slope = data["slope"]
    y = recovered_y(pd.read_csv(job.input.table), design, source=job.input.table)
    convention = settled_convention(pd.read_csv(job.input.conventions))
    edge, other = params["edge_fold"], params["compared_fold"]

    fits = tp.fits_table(y, design)
    folds = tp.fold_table(y, design, convention)
    summary = tp.model_summary(y, design, convention)
    contrasts = tp.contrasts(y, design, convention, fold_a=edge, fold_b=other)
    # The recovered table first, then every other table the recovery found consistent with the printed
    # figures: the statistics the records quote are also given over all of them.
    tables = np.vstack([y, tps.solution_tables(pd.read_csv(job.input.solutions), design.n)])
    evidence = ranking.ranking_evidence(tables, design, convention)
    statistics = tps.table_statistics(tables, design, convention, compared_fold=other)
    consistent = tps.across_tables(pd.concat([statistics, evidence], axis=1)).assign(data=CONSISTENT_DATA)
    fold_counts = by_folds.equal_fold_counts(design.n, max(design.degrees))
    expectations = by_folds.expectations_by_folds(design.x, design.degrees, fold_counts, convention)
    count, seed = params["random_designs"], params["random_design_seed"]
    moments: dict = {}  # the same random designs for both tables: each CV form computed once
    random_designs = random_x.random_design_expectations(
        design.n, design.degrees, (len(design.folds), design.n), count, seed, cache=moments
    )
    line_drawn = random_x.random_design_against_leave_one_out(
        design.n, design.degrees[0], fold_counts, count, seed, cache=moments
    )
    against_loo = pd.concat(
        [by_folds.against_leave_one_out(expectations), line_drawn],
        ignore_index=True,
    )
    for table in (fits, folds, summary, contrasts):
        table["data"] = RECOVERED_DATA

    noise_sd = tp.residual_sd(y, design.x)
    fresh = tp.fresh_data_statistics(
        design, convention, slope=slope, noise_sd=noise_sd, draws=params["draws"], seed=params["seed"]
    )
    robustness = tp.conclusion_frequencies(fresh, edge, reference_difference=contrasts.loc[0, "cv_difference"])
    robustness["noise_sd"] = noise_sd
    histogram = tp.histogram_table(
        tp.cv_differences(fresh), params["histogram_bins"], params["histogram_upper_quantile"]
    )
    evidence = evidence.iloc[[0]].assign(**ranking.fresh_ranking_evidence(fresh), data=RECOVERED_DATA)
    return StudyResult(
        tables={
            "fits": fits,
            "folds": folds,
            "summary": summary,
            "contrasts": contrasts,
            "robustness": robustness,
            "cv_difference_histogram": histogram,
            "design": tps.design_table(design),
            "table_statistics": statistics.iloc[[0]].assign(data=RECOVERED_DATA),
            "ranking_evidence": evidence,
            "expectations_by_folds": expectations.assign(data=EXPECTED_DATA),
            "random_design_expectations": random_designs,
            "against_leave_one_out": against_loo.assign(data=BOTH_DESIGNS_DATA),
            "uneven_folds_against_leave_one_out": by_folds.against_leave_one_out(
                by_folds.expectations_by_folds(
                    design.x,
                    design.degrees,
                    [*by_folds.unequal_fold_counts(design.n, max(design.degrees)), design.n],
                    convention,
                )
            ).assign(data=EXPECTED_DATA),
            "random_folds_against_leave_one_out": by_folds.random_folds_against_leave_one_out(
                design.x,
                design.degrees,
                params["random_fold_counts"],
                params["random_partitions"],
                params["random_partition_seed"],
                convention,
            ).assign(data=EXPECTED_DATA),
            "pessimism_by_n": by_folds.pessimism_by_sample_size(
                [design.n, *params["larger_samples"]], design.degrees, len(design.folds), convention
            ).assign(data=EXPECTED_DATA),
            "loo_loss_dependence": by_folds.leave_one_out_loss_dependence(design.x, design.degrees).assign(
                data=EXPECTED_DATA
            ),
            "consistent_tables": consistent,
            "single_splits": splits.single_splits(y, design, convention).assign(data=RECOVERED_DATA),
            "fold_fit_spread": splits.fold_fit_spread(y, design, noise_sd).assign(data=RECOVERED_DATA),
            "unlucky_splits": splits.unlucky_splits(
                design,
                convention,
                slope=slope,
                noise_sd=noise_sd,
                draws=params["unlucky_split_draws"],
                seed=params["unlucky_split_seed"],
            ).assign(data=FRESH_DATA),
            "partition_noise": splits.partition_noise(
                design,
                convention,
                slope=slope,
                noise_sd=noise_sd,
                draws=params["partition_noise_draws"],
                seed=params["partition_noise_seed"],
                repeats=params["partition_noise_repeats"],
            ).assign(data=FRESH_DATA),
            "fold_fit_distance": splits.fold_fit_distance(design.x, design.degrees, fold_counts).assign(
                data=EXPECTED_DATA
            ),
        },
        provenance={
            "convention": convention.label,
            "data": f"{job.input.table}: recovered from the printed statistics by recover_twelve_points, "
            "not given in the document",
        },
    )


if __name__ == "__main__":
    run_job(main)
