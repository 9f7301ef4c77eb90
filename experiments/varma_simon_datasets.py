"""Step varma_simon_datasets: one shard of the Varma and Simon (2006) re-simulation.

Datasets start .. stop - 1 of one scenario ("Cross-Validation", Evidence and Impact): per dataset
and classifier its minimum cross-validation error, nested estimate and true error. The study
varma_simon_selection_bias gathers the shards.
"""

from cvsuite.studies.varma_simon_datasets import SimulationSettings, simulate_datasets
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    params = job.config["varma_simon_selection_bias"]
    scenario, start, stop = job.wildcards.scenario, int(job.wildcards.start), int(job.wildcards.stop)
    settings = SimulationSettings.from_config(params)
    per_dataset = simulate_datasets(
        scenario, params["scenarios"][scenario], range(start, stop), settings, progress=job.progress
    )
    return StudyResult(
        tables={"per_dataset": per_dataset}, provenance={"scenario": scenario, "datasets": [start, stop - 1]}
    )


if __name__ == "__main__":
    run_job(main)
