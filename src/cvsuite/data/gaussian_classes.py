"""Gaussian classes stored class by class ("Cross-Validation", Pitfalls: ordered data).

``n_classes`` classes in ``n_features`` dimensions, class means drawn N(0, separation^2 I) afresh
for every data set, unit within-class noise. The sample is stored one class after another, as
images are when "stored class by class", and comes with a fresh test sample from the same classes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class GaussianClasses:
    """``per_class`` training and ``test_per_class`` test observations of each of ``n_classes``
    classes in ``n_features`` dimensions; class means have s.d. ``separation`` (within-class s.d. 1)."""

    n_classes: int
    per_class: int
    test_per_class: int
    n_features: int
    separation: float


def class_ordered_sample(design: GaussianClasses, rng: np.random.Generator):
    """A training sample stored class by class, and a fresh test sample from the same classes.

    Draw order: the class means (n_classes x n_features), then the training features row by row
    (class 0's rows first, then class 1's, ...), then the test features in the same order.
    Returns (X, labels, X_test, labels_test).
    """
    means = design.separation * rng.standard_normal((design.n_classes, design.n_features))
    labels = np.repeat(np.arange(design.n_classes), design.per_class)
    X = means[labels] + rng.standard_normal((labels.size, design.n_features))
    labels_test = np.repeat(np.arange(design.n_classes), design.test_per_class)
    X_test = means[labels_test] + rng.standard_normal((labels_test.size, design.n_features))
    return X, labels, X_test, labels_test
