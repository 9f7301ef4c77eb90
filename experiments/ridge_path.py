"""Study ridge_path: the degree-12 ridge path of "Regularization and Cross-Validation", §8.2.3.

Writes the ten-lambda table, the 400-point log grid (with each lambda's steps from the best), the
best lambda's exchange rate with what the path's words rest on (the penalty against a Gaussian
prior, how far the unregularised terms cancel, the grid's least training risk against the
unregularised one), the worked example's closed form beside a numerical ridge solve with its printed
algebra, Step 1's expansion, the fit below the grid, the penalised unit feature against an
unpenalised intercept, how the best lambda moves with the scale of the design, and the fit's shape
along the path (effective degrees of freedom, roughness, its gap to the true curve), and one
penalty on a design whose column spreads differ by the Pitfalls' factor, and K-fold CV at each
lambda of the table against its truth (See it move: "Two knobs, and they interact"). Its figures
(the path's risks and norm, and the worked example's closed form against ridge solves) are drawn
from these tables by its figure rule (cvsuite.figures.ridge_path.draw).
"""

import numpy as np

from cvsuite.data.sine import train_and_test
from cvsuite.methods.ridge import ridge_path
from cvsuite.studies.ridge_path import RidgeGrid, checked_worked_example, grid_and_exchange, worked_example_exchange
from cvsuite.studies.ridge_path_folds import lambda_by_folds
from cvsuite.studies.ridge_path_mechanics import (
    below_the_grid,
    intercept_penalty,
    lambda_scale,
    step1_expansion,
    with_mechanics,
    with_printed_algebra,
    with_steps_from_best,
)
from cvsuite.studies.ridge_path_scales import unstandardised_penalty
from cvsuite.studies.ridge_path_shape import curve_shape, curve_shape_summary
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    data, params = job.config["sine_data"], job.config["ridge_path"]
    samples = train_and_test(**data)
    train_design, test_design = samples.designs(params["degree"])
    lambdas = np.array(params["lambdas"], dtype=float)
    table = ridge_path(train_design, samples.y, test_design, samples.y_test, lambdas)
    table.insert(1, "degree", params["degree"])
    table.insert(2, "n_parameters", params["degree"] + 1)
    grid, summary = grid_and_exchange(samples, RidgeGrid.from_block(params))

    we = params["worked_example"]
    we_x, we_y = np.array(we["x"], float), np.array(we["y"], float)
    worked = checked_worked_example(we_x, we_y, [float(v) for v in we["lambdas"]])
    # Step 4 reads the exchange rate between the table's first two rows (lambda = 0 and 1).
    exchange = worked_example_exchange(worked, float(we["lambdas"][0]), float(we["lambdas"][1]))

    knobs = job.config["lambda_by_folds"]
    by_folds, folds_effect = lambda_by_folds(
        samples,
        params["degree"],
        lambdas,
        table["expected_risk"].to_numpy(),
        knobs["folds"],
        knobs["shuffles"],
        knobs["first_seed"],
    )
    shape = curve_shape(samples, params["degree"], RidgeGrid.from_block(params).lambdas())
    tables = {
        "lambda_table": table,
        "lambda_grid": with_steps_from_best(grid),
        "summary": with_mechanics(summary, grid, train_design, samples.y, data["noise"]),
        "worked_example": with_printed_algebra(worked),
        "worked_example_exchange": exchange,
        "worked_example_step1": step1_expansion(we_x, we_y),
        "below_the_grid": below_the_grid(samples, params["degree"], params["grid_start"]),
        "intercept_penalty": intercept_penalty(samples, params["degree"], params["lambdas"]),
        "lambda_scale": lambda_scale(
            samples, params["degree"], RidgeGrid.from_block(params).lambdas(), params["lambda_scale_factor"]
        ),
        "curve_shape": shape,
        "unstandardised_design": unstandardised_penalty(
            **{"lam" if k == "lambda" else k: v for k, v in job.config["unstandardised_design"].items()}
        ),
        "lambda_by_folds": by_folds,
        "folds_effect_by_lambda": folds_effect,
        "curve_shape_summary": curve_shape_summary(
            shape, samples, params["degree"], table, float(summary["best_lambda"].iloc[0])
        ),
    }
    return StudyResult(tables=tables)


if __name__ == "__main__":
    run_job(main)
