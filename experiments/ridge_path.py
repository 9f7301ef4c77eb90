"""Study ridge_path: the degree-12 ridge path of "Regularization and Cross-Validation", §8.2.3.

Writes the ten-lambda table, the 400-point log grid, the best lambda's exchange rate, the worked
example's closed form beside a numerical ridge solve, the fit below the grid, and the document's
sentences about the path and the worked example as claims. Its figures (the path's risks and norm,
and the worked example's closed form against ridge solves) are drawn from these tables by its
figure rule (cvsuite.figures.ridge_path.draw).
"""

import numpy as np

from cvsuite.data.sine import train_and_test
from cvsuite.methods.ridge import ridge_path
from cvsuite.studies.ridge_path import RidgeGrid, checked_worked_example, grid_and_exchange, worked_example_exchange
from cvsuite.studies.ridge_path_claims import RidgeEvidence, below_the_grid, ridge_claims
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

    near_zero = below_the_grid(samples, params["degree"], params["grid_start"])
    evidence = RidgeEvidence(grid, summary, near_zero, worked, exchange, train_design, samples.y, data["noise"])
    tables = {
        "lambda_table": table,
        "lambda_grid": grid,
        "summary": summary,
        "worked_example": worked,
        "worked_example_exchange": exchange,
        "below_the_grid": near_zero,
        "claims": ridge_claims(evidence, we_x, we_y),
    }
    return StudyResult(tables=tables)


if __name__ == "__main__":
    run_job(snakemake, main)  # noqa: F821 - provided by Snakemake's script directive
