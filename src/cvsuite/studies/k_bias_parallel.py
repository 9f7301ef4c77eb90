"""The K fold fits as separate tasks: "cross-validation is an embarrassingly parallel problem".

"Regularization and Cross-Validation", §8.2.4, The cost, and why it is bearable: "cross-validation
is an embarrassingly parallel problem, i.e., little effort is needed to separate the problem into a
number of parallel tasks. With K machines it costs no more wall-clock time than a single
assessment." Each fold of a seeded partition (``shuffled_partition`` with the table's first
seed) is sent, with nothing but its own training and held-out points, to a pool of worker
processes; the fold risks that come back are
set beside the serial computation, and each task counts the fits it made. Wall-clock time is not
tabulated: it depends on the machine, and a table must come out the same on any. What the claim
rests on is computed instead: every fold is a task that shares nothing with the others, and each
task is one fit, as a single assessment is.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pandas as pd

from cvsuite.data.sine import SineSamples, mean_squared_error, polynomial_design
from cvsuite.methods.folds import canonical_partition, shuffled_partition
from cvsuite.studies.k_bias import KBiasSettings, cv_fold_risks


def fold_task(x_train, y_train, x_fold, y_fold, degree: int, half_width: float) -> tuple[float, int, int]:
    """One fold as a task on its own points: the least-squares fit to the training points scored on
    the fold, the fits it made and the points it trained on."""
    theta = np.linalg.lstsq(polynomial_design(x_train, degree, half_width), y_train, rcond=None)[0]
    return mean_squared_error(y_fold, polynomial_design(x_fold, degree, half_width) @ theta), 1, len(y_train)


def parallel_folds(samples: SineSamples, settings: KBiasSettings, workers: int) -> pd.DataFrame:
    """Per K of the table: its first partition's folds run as separate tasks on ``workers``
    processes against the serial fold risks (the largest difference, absolute and relative), the
    tasks, the most fits one task made, the largest training set a task used against N, and the
    held-out points that their task's training set also holds."""
    n = len(samples.y)
    rows = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for k in settings.fold_counts:
            folds = canonical_partition(shuffled_partition(n, k, settings.first_seed))
            serial = cv_fold_risks(samples.x, samples.y, folds, settings.degree, samples.half_width)
            tasks, overlap = [], 0
            for fold in folds:
                train = np.ones(n, dtype=bool)
                train[fold] = False
                overlap += int(train[fold].sum())  # held-out points the task would also train on
                arguments = (samples.x[train], samples.y[train], samples.x[fold], samples.y[fold])
                tasks.append(pool.submit(fold_task, *arguments, settings.degree, samples.half_width))
            results = [task.result() for task in tasks]
            risks = np.array([risk for risk, _, _ in results])
            rows.append(
                {
                    "K": int(k),
                    "tasks": len(results),
                    "workers": int(workers),
                    "largest_difference": float(np.abs(risks - serial).max()),
                    "largest_relative_difference": float((np.abs(risks - serial) / np.abs(serial)).max()),
                    "fits_per_task_max": max(fits for _, fits, _ in results),
                    "training_size_max": max(size for _, _, size in results),
                    "held_out_in_training": overlap,
                    "points": n,
                }
            )
    return pd.DataFrame(rows)
