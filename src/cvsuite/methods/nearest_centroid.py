"""Nearest class centroid (Euclidean), alone and as the K models of a cross-validation.

The classifier of the study ordered_folds ("Cross-Validation", Pitfalls): each observation gets the
class whose training mean is nearest. Like any classifier it can only answer with a class it was
trained on, which is what unshuffled folds on class-ordered data break.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


def nearest_centroid_predict(X_train, labels_train, X_eval, n_classes: int) -> np.ndarray:
    """Label each row of X_eval with the training class whose mean is nearest (ties: lower label).

    Classes absent from the training rows cannot be predicted.
    """
    one_hot = (labels_train[:, None] == np.arange(n_classes)[None, :]).astype(float)
    sums, counts = one_hot.T @ X_train, one_hot.sum(axis=0)
    present = counts > 0
    centroids = sums[present] / counts[present, None]
    distances = np.einsum("ij,ij->i", centroids, centroids)[None, :] - 2 * X_eval @ centroids.T
    return np.flatnonzero(present)[np.argmin(distances, axis=1)]


@dataclass(frozen=True)
class FoldCentroids:
    """The nearest-centroid models of K-fold CV, all at once: model k is fitted on every fold but k.

    ``held_counts[k, c]`` members of class c are held out in fold k and ``train_counts[k, c]``
    train model k; ``centroids[k, c]`` is model k's mean of class c, and ``squared_norms[k, c]``
    its squared length, infinite for a class model k never saw (so it is never the nearest).
    """

    held_counts: np.ndarray
    train_counts: np.ndarray
    centroids: np.ndarray
    squared_norms: np.ndarray

    @classmethod
    def fit(cls, X, labels, fold_ids, n_folds: int, n_classes: int) -> FoldCentroids:
        """Fit the K models from the class sums held out by each fold (training sums are the whole
        data set's minus those); ``fold_ids`` gives each observation's fold, 0..K-1."""
        n_features = X.shape[1]
        cell = fold_ids * n_classes + labels
        held_counts = np.bincount(cell, minlength=n_folds * n_classes).reshape(n_folds, n_classes)
        one_hot = (cell[:, None] == np.arange(n_folds * n_classes)[None, :]).astype(float)
        held_sums = (one_hot.T @ X).reshape(n_folds, n_classes, n_features)
        train_counts = held_counts.sum(axis=0)[None, :] - held_counts
        centroids = (held_sums.sum(axis=0)[None, :, :] - held_sums) / np.maximum(train_counts, 1)[:, :, None]
        squared_norms = np.where(train_counts > 0, np.einsum("kcd,kcd->kc", centroids, centroids), np.inf)
        return cls(held_counts, train_counts, centroids, squared_norms)

    def predict_held_out(self, X, fold_ids) -> np.ndarray:
        """Each observation's label by the model of its own fold, the one that never saw it."""
        own = self.squared_norms[fold_ids] - 2 * np.einsum("nd,ncd->nc", X, self.centroids[fold_ids])
        return np.argmin(own, axis=1)

    def predict_each_model(self, X_eval) -> np.ndarray:
        """Every model's label for every row of X_eval: shape (n_eval, K)."""
        n_folds, n_classes, n_features = self.centroids.shape
        distances = self.squared_norms.reshape(1, -1) - 2 * X_eval @ self.centroids.reshape(-1, n_features).T
        return np.argmin(distances.reshape(len(X_eval), n_folds, n_classes), axis=2)
