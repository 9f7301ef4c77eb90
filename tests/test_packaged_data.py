"""Iris read from scikit-learn's shipped file is load_iris's Iris, bit for bit, without importing scikit-learn."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

from cvsuite.workflow.packaged_data import iris_as_shipped


def test_iris_as_shipped_is_load_iris_bit_for_bit():
    from sklearn.datasets import load_iris

    measurements, labels, names = iris_as_shipped()
    iris = load_iris()
    assert measurements.dtype == iris.data.dtype and labels.dtype == iris.target.dtype
    assert np.array_equal(measurements.view(np.uint64), iris.data.view(np.uint64))
    assert np.array_equal(labels, iris.target)
    assert names == list(iris.target_names)


def test_reading_iris_does_not_import_scikit_learn():
    code = (
        "import sys; from cvsuite.workflow.packaged_data import iris_as_shipped; "
        "iris_as_shipped(); print('sklearn' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "False"
