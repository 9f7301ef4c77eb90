"""Study degree_sweep: page 802's least-squares sweep, quoted by "Regularization and Cross-Validation".

Writes training and expected risk, their ratio and ||theta|| for each degree, the summary the
document quotes (862 at degree 15; 11.83 at the best degree; 81,050 at degree 15; the one norm over
the other), and what the solvers give. Its figure, which sets the printed 81,050 (from the
registry) beside what the solvers give, is drawn from these tables by its figure rule
(cvsuite.figures.degree_sweep.draw).
"""

import numpy as np

from cvsuite.data.sine import train_and_test
from cvsuite.studies.degree_sweep import degree_sweep, degree_sweep_summary, least_squares_solvers
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    data, params = job.config["sine_data"], job.config["degree_sweep"]
    s = train_and_test(**data)
    degrees = np.arange(params["min_degree"], params["max_degree"] + 1)
    sweep = degree_sweep(s.x, s.y, s.x_test, s.y_test, degrees, data["half_width"])
    summary = degree_sweep_summary(sweep)
    solvers = least_squares_solvers(s.x, s.y, params["max_degree"], data["half_width"])
    return StudyResult(tables={"degree_sweep": sweep, "summary": summary, "solvers": solvers})


if __name__ == "__main__":
    run_job(main)
