"""Two-class data whose predictors carry no information, and the folds cut from it.

The setting of Hastie, Tibshirani and Friedman (2009), ESL §7.10.2 and §7.10.3: N samples in two
equal-sized classes, p standard Gaussian predictors drawn independently of the labels, so that the
true error rate of any classifier is 50%. Both studies (esl_wrong_and_right_way and
esl_label_free_split) draw their datasets here, so a dataset is the same draw in either.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np


def balanced_labels(n: int) -> np.ndarray:
    """Class labels 0.0 for the first n/2 samples and 1.0 for the rest ("two equal-sized classes").

    The labels are fixed, not drawn: the predictors are independent of them and the folds are
    random, so which rows carry which label does not matter.
    """
    if n < 2 or n % 2:
        raise ValueError(f"two equal-sized classes need an even number of samples, got {n}")
    return np.repeat([0.0, 1.0], n // 2)


def dataset_rng(seed: int, dataset: int) -> np.random.Generator:
    """The generator of one simulated dataset: ``default_rng([seed, dataset])``.

    Keyed by the dataset's index, so dataset d is the same draw whatever the number of datasets, and
    changing a choice that does not draw (fold count, stratification, selection rule) leaves every
    dataset unchanged: the choices are compared on common random numbers.
    """
    return np.random.default_rng([seed, dataset])


def null_predictors(rng: np.random.Generator, n: int, p: int) -> np.ndarray:
    """An n x p matrix of independent standard Gaussians, drawn in one call (row-major)."""
    return rng.standard_normal((n, p))


@dataclass(frozen=True)
class NullDataset:
    """One simulated dataset: its index, predictors ``x``, the permutation its folds are cut from,
    and its generator, left where the next draw of the dataset (fresh test samples) continues."""

    index: int
    x: np.ndarray
    order: np.ndarray
    rng: np.random.Generator


@dataclass(frozen=True)
class NullDesign:
    """The simulation design of ESL §7.10.2 and §7.10.3: N samples in two equal classes, p null
    predictors, and the seed every dataset's generator is keyed by (``dataset_rng``)."""

    samples: int
    predictors: int
    seed: int

    @classmethod
    def from_block(cls, block: dict) -> NullDesign:
        """The design a study's config block sets (its ``samples``, ``predictors`` and ``seed``)."""
        return cls(block["samples"], block["predictors"], block["seed"])

    @property
    def labels(self) -> np.ndarray:
        """The class labels, the same in every dataset (``balanced_labels``)."""
        return balanced_labels(self.samples)

    def dataset(self, index: int) -> NullDataset:
        """Dataset ``index``, drawn from ``dataset_rng(seed, index)``.

        Draw order: the samples x predictors matrix of standard Gaussians (``null_predictors``),
        then one permutation of the samples, from which every fold construction of a study cuts its
        folds (``cvsuite.methods.folds.permutation_folds``).
        """
        rng = dataset_rng(self.seed, index)
        x = null_predictors(rng, self.samples, self.predictors)
        return NullDataset(index, x, rng.permutation(self.samples), rng)

    def datasets(self, count: int) -> Iterator[NullDataset]:
        """Datasets 0, 1, ..., ``count`` - 1, one at a time."""
        for index in range(count):
            yield self.dataset(index)
