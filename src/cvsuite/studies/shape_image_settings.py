"""The settings of the shape-image kNN study of "Cross-Validation", section Example: every parameter
of its Parts 1 and 2, read from config.yaml's blocks shape_images, knn_estimators and nested_optimism,
and the names the document prints for its estimators.
"""

from __future__ import annotations

from dataclasses import dataclass

from cvsuite.data.shape_images import ShapeImageDesign


def holdout_name(holdout_folds: int) -> str:
    """The holdout as the document prints it: the first fold of K is "holdout 20%" for K = 5."""
    return f"holdout {round(100 / holdout_folds)}%"


def kfold_name(n_folds: int) -> str:
    """A K-fold estimator as the document prints it: "5-fold"."""
    return f"{n_folds}-fold"


@dataclass(frozen=True)
class ShapeStudySettings:
    """Every parameter of the study; the defaults in config.yaml are the document's."""

    images_per_class: int
    fresh_per_class: int
    design: ShapeImageDesign
    sigmas: tuple[float, ...]
    ks: tuple[int, ...]
    fixed_sigma: float
    fixed_k: int
    holdout_folds: int
    kfold_folds: tuple[int, ...]
    repartition_seed: int
    repartitions: int
    repartition_folds: int
    selection_folds: int
    outer_folds: int
    candidate_sets: tuple[tuple[tuple[float, ...], tuple[int, ...]], ...]
    ranked_seeds: tuple[int, int] = (0, 0)  # [start, stop): datasets whose every candidate's truth is measured

    @classmethod
    def from_config(cls, shape_images: dict, knn_estimators: dict, nested_optimism: dict) -> ShapeStudySettings:
        """Settings from the config blocks shape_images, knn_estimators (Part 1), nested_optimism (Part 2)."""
        images, p1, p2 = shape_images["images"], knn_estimators, nested_optimism
        return cls(
            images_per_class=images["per_class"],
            fresh_per_class=images["fresh_per_class"],
            design=ShapeImageDesign.from_config(images),
            sigmas=tuple(shape_images["grid"]["sigmas"]),
            ks=tuple(shape_images["grid"]["ks"]),
            fixed_sigma=p1["sigma"],
            fixed_k=p1["k"],
            holdout_folds=p1["holdout_folds"],
            kfold_folds=tuple(p1["kfold_folds"]),
            repartition_seed=p1["repartition_seed"],
            repartitions=p1["repartitions"],
            repartition_folds=p1["repartition_folds"],
            selection_folds=p2["selection_folds"],
            outer_folds=p2["outer_folds"],
            candidate_sets=tuple((tuple(c["sigmas"]), tuple(c["ks"])) for c in p2["candidate_sets"]),
            # The document's own datasets: every candidate's true accuracy costs a blur of the fresh
            # images per setting of blur, so it is measured there only.
            ranked_seeds=(shape_images["first_seed"], shape_images["first_seed"] + shape_images["datasets"]),
        )

    def estimator_names(self) -> list[str]:
        """Part 1's estimators in draw order, named as the document prints them."""
        return [holdout_name(self.holdout_folds)] + [kfold_name(k) for k in self.kfold_folds] + ["leave-one-out"]
