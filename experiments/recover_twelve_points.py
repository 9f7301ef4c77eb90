"""Study recover_twelve_points: the lost table of "Estimating Out-of-Sample Error"'s worked example.

The document prints the statistics of twelve observations (x = 1..12, close to y = 2x) but not the
observations. This treats the table as an inverse problem: it settles which conventions the printed
figures allow, finds tables that reproduce every printed figure at its printed precision, prefers
the simplest (fewest decimals), and measures how unique the recovery is. The printed figures it aims
at are registry rows named in config (a published number lives in the registry only); twelve_points
is later compared with the same rows, which it reproduces by construction, and says so.

Writes the recovered table (with a note that it was recovered, not given), the convention screen,
the printed-figure check, the short-decimal tables found, the spread of y over consistent tables,
the lattice-neighbour check and every consistent solution. Its figures (the recovered table with its
spread, and the convention screen) are drawn from these tables by its figure rule
(cvsuite.figures.recover_twelve_points.draw).
"""

from cvsuite.methods.fold_statistics import Design, conventions_grid
from cvsuite.methods.printed_targets import PrintedTargets
from cvsuite.published.published_values import read_published_values
from cvsuite.studies.recover_twelve_points import RECOVERED_NOTE, SearchPlan, recovery_tables, search_for_table
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    data, params = job.config["twelve_observations"], job.config["recover_twelve_points"]
    design = Design.of(data["observations"], data["line_degree"], data["polynomial_degree"], data["folds"])
    targets = PrintedTargets.from_registry(read_published_values(job.input.published), params["printed"])
    plan = SearchPlan(**{key: value for key, value in params.items() if key not in ("printed", "conventions")})
    recovery = search_for_table(design, targets, conventions_grid(**params["conventions"]), plan, data["slope"])
    return StudyResult(tables=recovery_tables(recovery, design, targets), provenance={"note": RECOVERED_NOTE})


if __name__ == "__main__":
    run_job(main)
