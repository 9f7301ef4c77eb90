"""Datasets that ship inside an installed package, read without importing the package.

scikit-learn ships the Iris data as datasets/data/iris.csv and reads it with ``load_iris``; a
study that needs only the labels would spend 0.9 s of CPU importing scikit-learn to call it, more
than the study's own work.
"""

from __future__ import annotations

import csv
import importlib.util
from pathlib import Path

import numpy as np


def iris_as_shipped() -> tuple[np.ndarray, np.ndarray, list[str]]:
    """(measurements, labels, label names) of scikit-learn's iris.csv, parsed as ``load_iris``
    parses it: a header of the counts and the class names, then one flower per row, label last."""
    spec = importlib.util.find_spec("sklearn")  # finds the package; does not run it
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("scikit-learn is not installed: it ships the Iris data")
    path = Path(spec.submodule_search_locations[0], "datasets", "data", "iris.csv")
    with path.open(encoding="utf-8") as file:
        header, *rows = list(csv.reader(file))
    n_samples, n_features, names = int(header[0]), int(header[1]), header[2:]
    measurements = np.array([row[:-1] for row in rows], dtype=np.float64)
    labels = np.array([row[-1] for row in rows], dtype=int)
    if measurements.shape != (n_samples, n_features):
        raise ValueError(f"{path}: {measurements.shape} values, its header says {(n_samples, n_features)}")
    return measurements, labels, names
