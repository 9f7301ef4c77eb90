"""Study ridge_path: the degree-12 ridge path of "Regularization and Cross-Validation", §8.2.3.

Writes the ten-lambda table, the 400-point log grid, the best lambda's exchange rate, and the
worked example's closed form beside a numerical ridge solve; draws the document's two panels.
"""

import numpy as np

from cvsuite.data.sine import polynomial_design, train_and_test
from cvsuite.figures import ridge_path as figures
from cvsuite.methods.ridge import ridge_path
from cvsuite.studies.ridge_path import best_lambda_summary, checked_worked_example, worked_example_exchange
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    data, params = job.config["sine_data"], job.config["ridge_path"]
    x, y, x_test, y_test = train_and_test(**data)
    train_design = polynomial_design(x, params["degree"], data["half_width"])
    test_design = polynomial_design(x_test, params["degree"], data["half_width"])

    table = ridge_path(train_design, y, test_design, y_test, np.array(params["lambdas"], dtype=float))
    table.insert(1, "degree", params["degree"])
    table.insert(2, "n_parameters", params["degree"] + 1)
    grid = ridge_path(
        train_design,
        y,
        test_design,
        y_test,
        np.geomspace(params["grid_start"], params["grid_stop"], params["grid_points"]),
    )
    unregularised = ridge_path(train_design, y, test_design, y_test, np.array([0.0])).iloc[0]
    summary = best_lambda_summary(unregularised, grid)

    we = params["worked_example"]
    we_x, we_y = np.array(we["x"], float), np.array(we["y"], float)
    worked = checked_worked_example(we_x, we_y, [float(v) for v in we["lambdas"]])
    # Step 4 reads the exchange rate between the table's first two rows (lambda = 0 and 1).
    exchange = worked_example_exchange(worked, float(we["lambdas"][0]), float(we["lambdas"][1]))

    return StudyResult(
        tables={
            "lambda_table": table,
            "lambda_grid": grid,
            "summary": summary,
            "worked_example": worked,
            "worked_example_exchange": exchange,
        },
        figures={
            "risk_and_norm_path": figures.risk_and_norm_path(
                grid, summary.iloc[0], params["degree"], data["train_size"]
            ),
            "worked_example": figures.worked_example(worked, we_x, we_y),
        },
    )


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
