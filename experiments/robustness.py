"""Study robustness: the documents' conclusions at their own scale and on many fresh datasets.

Reads the shape-image rows of the document's 40 datasets and of the fresh ones, the document's
regression sample and the fresh samples; writes one row per conclusion (the document's words, its
statistic at both scales with its Monte Carlo standard error, and its departure from the value it is
measured from), Part 1's estimators and the fresh samples' K-bias table at the fresh scale. The
records of the registry judge these statistics; its figures (cvsuite.figures.robustness.draw) draw
them with the bounds the records' judges apply.
"""

import pandas as pd

from cvsuite.studies.robustness import Evidence, ShapeSettings, conclusion_statistics, side_by_side
from cvsuite.studies.robustness_estimators import shape_estimators
from cvsuite.studies.robustness_regression import k_bias_by_k, leave_one_out_coverage
from cvsuite.studies.shape_image_settings import holdout_name, kfold_name
from cvsuite.workflow.outputs import read_tables
from cvsuite.workflow.study_job import Job, StudyResult, run_job


def main(job: Job) -> StudyResult:
    rob, p1, inputs = job.config["robustness"], job.config["knn_estimators"], job.input
    settings = ShapeSettings(
        holdout=holdout_name(p1["holdout_folds"]),
        kfold=kfold_name(p1["repartition_folds"]),
        bootstrap=rob["bootstrap"],
        bootstrap_seed=rob["bootstrap_seed"],
        document_datasets=job.config["shape_images"]["datasets"],
    )
    document = Evidence(
        estimates=read_tables(inputs.document_estimates),
        fold_models=read_tables(inputs.document_fold_models),
        selection=read_tables(inputs.document_selection),
        # The document's one regression sample is dataset 0.
        k_bias=pd.read_csv(inputs.document_k_bias).assign(dataset=0),
        error_sources=pd.read_csv(inputs.document_error_sources).assign(dataset=0),
        exchange=pd.read_csv(inputs.document_exchange),
    )
    fresh = Evidence(
        estimates=read_tables(inputs.fresh_estimates),
        fold_models=read_tables(inputs.fresh_fold_models),
        selection=read_tables(inputs.fresh_selection),
        k_bias=read_tables(inputs.fresh_k_bias),
        error_sources=read_tables(inputs.fresh_error_sources),
        exchange=read_tables(inputs.fresh_exchange),
    )
    table = side_by_side(conclusion_statistics(document, settings), conclusion_statistics(fresh, settings))
    print(table[["conclusion", "document_estimate", "new_estimate", "new_estimate_se", "new_z"]].to_string())
    return StudyResult(
        tables={
            "conclusions": table,
            "shape_estimators": shape_estimators(
                fresh.estimates, fresh.fold_models, settings.kfold, settings.document_datasets
            ),
            "k_bias_by_k": k_bias_by_k(fresh.k_bias, fresh.error_sources),
            "loo_coverage": leave_one_out_coverage(
                rob["loo_coverage_samples"],
                job.config["sine_data"]["train_size"],
                job.config["k_bias"]["degree"],
                job.config["sine_data"]["noise"],
                job.config["sine_data"]["half_width"],
                rob["loo_coverage_seed"],
            ),
        },
    )


if __name__ == "__main__":
    run_job(main)
