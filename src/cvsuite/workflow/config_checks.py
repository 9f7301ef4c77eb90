"""Refuse a bad config before any job runs, with one message per problem naming the key and its origin.

The JSON schema (schemas/config.schema.yaml) fixes types, ranges and the known keys, each of them
required (``load_schema``); the checks
here add what a schema cannot say (K at most the sample size, a grid that goes up). Values
given with ``snakemake --config`` arrive as text, so text is first read as the type the schema
asks for ("3" -> 3, "1e-8" -> 1e-08). Each problem is prefixed with where its key came from
(``ConfigSources.where``: "config.yaml, line 31" or "--config"); a misspelt key gets the nearest
known one.
"""

from __future__ import annotations

import difflib
import math
import re
from pathlib import Path
from typing import Any

import jsonschema

from cvsuite.workflow import yaml_text
from cvsuite.workflow.config_file import ConfigError, ConfigSources, key_name

__all__ = ["ConfigError", "checked_config", "load_schema", "coerce_to_schema"]


def load_schema(path: str | Path) -> dict:
    """The config schema, every key of every block required: a config names every parameter, so the
    schema lists each key once, under ``properties``, and its ``required`` lists are derived here."""
    return _every_key_required(yaml_text.safe_load(Path(path).read_text(encoding="utf-8")))


def _every_key_required(node: Any) -> Any:
    if isinstance(node, dict):
        node = {key: _every_key_required(value) for key, value in node.items()}
        if isinstance(node.get("properties"), dict):
            node["required"] = list(node["properties"])
    elif isinstance(node, list):
        node = [_every_key_required(value) for value in node]
    return node


def coerce_to_schema(value: Any, schema: dict) -> Any:
    """Read text as the number, integer or boolean the schema asks for; leave anything else alone."""
    kind = schema.get("type")
    if isinstance(value, dict) and kind == "object":
        props = schema.get("properties", {})
        return {k: coerce_to_schema(v, props[k]) if k in props else v for k, v in value.items()}
    if isinstance(value, list) and kind == "array":
        return [coerce_to_schema(v, schema.get("items", {})) for v in value]
    if isinstance(value, str):
        text = value.strip()
        try:
            if kind == "integer":
                return int(text)
            if kind == "number":
                return float(text)
        except ValueError:
            return value
        if kind == "boolean" and text.lower() in ("true", "false"):
            return text.lower() == "true"
    return value


def _describe(schema: dict, path) -> str:
    node = schema
    for part in path:
        if isinstance(part, int):
            node = node.get("items", {})
        else:
            node = node.get("properties", {}).get(part, {})
    return node.get("description", "")


def schema_problems(config: dict, schema: dict) -> list[tuple[tuple, str]]:
    """One (key path, message) per schema violation, the message naming the key as block.key[index]."""
    validator = jsonschema.Draft202012Validator(schema)
    problems = []
    for error in sorted(validator.iter_errors(config), key=lambda e: [str(p) for p in e.absolute_path]):
        path = list(error.absolute_path)
        if error.validator == "additionalProperties":
            known = sorted(error.schema.get("properties", {}))
            for name in sorted(set(error.instance) - set(known)):
                nearest = difflib.get_close_matches(str(name), known, n=1, cutoff=0.6)
                known_here = f"known here: {', '.join(known)}"
                hint = f"did you mean {key_name(path + [nearest[0]])}?" if nearest else known_here
                problems.append(((*path, name), f"{key_name(path + [name])} is not a known key ({hint})"))
            continue
        if error.validator == "required":
            problems.append((tuple(path), f"{key_name(path)}: {error.message}"))
            continue
        where = key_name(path)
        what = error.message
        if error.validator == "type" and isinstance(error.instance, str):
            what = f"'{error.instance}' is not of type '{error.validator_value}'"
        hint = _describe(schema, path)
        explained = f" ({where}: {hint})" if hint else ""
        problems.append((tuple(path), f"{where} = {error.instance!r}: {what}{explained}"))
    return problems


_LEADING_KEY = re.compile(r"^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*)")


def key_path(text: str) -> tuple:
    """The key a problem's message opens with, as a path: "k_bias.folds[1] = 30: ..." -> ("k_bias", "folds", 1)."""
    match = _LEADING_KEY.match(text)
    if not match:
        return ()
    return tuple(int(p) if p.isdigit() else p for p in re.findall(r"[A-Za-z_]\w*|\d+", match.group(1)))


def cross_field_problems(config: dict) -> list[str]:
    """What the schema cannot express: relations between keys."""
    problems = []
    n = config["sine_data"]["train_size"]
    kb = config["k_bias"]
    for i, k in enumerate(kb["folds"]):
        if k > n:
            problems.append(f"k_bias.folds[{i}] = {k}: K above the sample size sine_data.train_size = {n}")
    if len(set(kb["folds"])) != len(kb["folds"]):
        problems.append(f"k_bias.folds = {kb['folds']}: each K may appear only once")
    for key in ("std_error_min_folds", "partition_grid_folds"):
        if kb[key] > n:
            problems.append(f"k_bias.{key} = {kb[key]}: above the sample size sine_data.train_size = {n}")
    for i, k in enumerate(config["lambda_by_folds"]["folds"]):
        if k > n:
            problems.append(f"lambda_by_folds.folds[{i}] = {k}: K above the sample size sine_data.train_size = {n}")
    rp = config["ridge_path"]
    if not rp["grid_start"] < rp["grid_stop"]:
        problems.append(
            f"ridge_path.grid_start = {rp['grid_start']} must be below ridge_path.grid_stop = {rp['grid_stop']}"
        )
    if any(math.isinf(v) for v in rp["lambdas"]):
        problems.append("ridge_path.lambdas: an infinite lambda has no fit to tabulate")
    we = rp["worked_example"]
    if len(we["x"]) != len(we["y"]):
        problems.append(f"ridge_path.worked_example.x and .y differ in length ({len(we['x'])} and {len(we['y'])})")
    problems += _shape_image_problems(config)
    problems += _cited_study_problems(config)
    ds = config["degree_sweep"]
    if ds["min_degree"] > ds["max_degree"]:
        problems.append(
            f"degree_sweep.min_degree = {ds['min_degree']} is above degree_sweep.max_degree = {ds['max_degree']}"
        )
    bv = config["bias_variance"]
    if bv["max_degree"] - bv["min_degree"] < 2:
        problems.append(
            f"bias_variance.min_degree = {bv['min_degree']} and max_degree = {bv['max_degree']}: an intermediate "
            "degree needs at least three degrees"
        )
    if bv["max_degree"] + 1 > min(bv["sample_sizes"]):
        problems.append(
            f"bias_variance.max_degree = {bv['max_degree']}: a fit of that degree needs more points than the "
            f"smallest of bias_variance.sample_sizes = {min(bv['sample_sizes'])}"
        )
    if list(bv["sample_sizes"]) != sorted(set(bv["sample_sizes"])):
        problems.append(f"bias_variance.sample_sizes = {bv['sample_sizes']} must increase, smallest first")
    return problems


def checked_config(config: dict, schema: dict, sources: ConfigSources | None = None) -> dict:
    """The config with text read as numbers, or ConfigError listing every problem, each by key and origin."""
    sources = sources or ConfigSources()
    config = coerce_to_schema(config, schema)
    problems = schema_problems(config, schema)
    if not problems:
        problems = [(key_path(text), text) for text in cross_field_problems(config)]
    if problems:
        raise ConfigError("\n".join(f"{sources.where(path)}: {text}" for path, text in problems))
    return config


def _shape_image_problems(config: dict) -> list[str]:
    problems = []
    si, p1, p2 = config["shape_images"], config["knn_estimators"], config["nested_optimism"]
    grid = si["grid"]
    n = 4 * si["images"]["per_class"]  # four shapes
    if si["datasets_per_shard"] > si["datasets"]:
        problems.append(
            f"shape_images.datasets_per_shard = {si['datasets_per_shard']}: more than "
            f"shape_images.datasets = {si['datasets']}, so some shard would be empty"
        )
    img = si["images"]
    shift = config["new_source"]
    if not shift["contrast_low"] <= shift["contrast_high"]:
        problems.append(
            f"new_source.contrast_low = {shift['contrast_low']} is above "
            f"new_source.contrast_high = {shift['contrast_high']}"
        )
    if not img["contrast_low"] <= img["contrast_high"]:
        problems.append(
            f"shape_images.images.contrast_low = {img['contrast_low']} is above contrast_high = {img['contrast_high']}"
        )
    if p1["sigma"] not in grid["sigmas"]:
        problems.append(f"knn_estimators.sigma = {p1['sigma']}: not one of shape_images.grid.sigmas {grid['sigmas']}")
    if p1["k"] not in grid["ks"]:
        problems.append(f"knn_estimators.k = {p1['k']}: not one of shape_images.grid.ks {grid['ks']}")
    for key, values in (
        ("holdout_folds", [p1["holdout_folds"]]),
        ("kfold_folds", p1["kfold_folds"]),
        ("repartition_folds", [p1["repartition_folds"]]),
        ("crosscheck_folds", [p1["crosscheck_folds"]]),
    ):
        for k in values:
            if k > n:
                problems.append(f"knn_estimators.{key} = {k}: K above the sample size of {n} images")
    # Stratified folds take at most ceil(m / K) of a class's m images, so per class at least
    # q = per_class - ceil(per_class / outer) train each outer model, and q - ceil(q / inner) each inner one.
    per_class = si["images"]["per_class"]
    q = per_class - math.ceil(per_class / p2["outer_folds"])
    smallest_inner = 4 * (q - math.ceil(q / p2["selection_folds"]))
    if max(grid["ks"]) > smallest_inner:
        problems.append(
            f"shape_images.grid.ks: k = {max(grid['ks'])} is above the "
            f"{smallest_inner} images of the smallest inner training set"
        )
    previous = None
    for i, cs in enumerate(p2["candidate_sets"]):
        for key in ("sigmas", "ks"):
            outside = [v for v in cs[key] if v not in grid[key]]
            if outside:
                problems.append(
                    f"nested_optimism.candidate_sets[{i}].{key} = {cs[key]}: {outside} not in shape_images.grid.{key}"
                )
        if previous is not None and not (
            set(previous["sigmas"]) <= set(cs["sigmas"]) and set(previous["ks"]) <= set(cs["ks"])
        ):
            problems.append(
                f"nested_optimism.candidate_sets[{i}]: does not contain "
                f"candidate_sets[{i - 1}] (the sets must be nested)"
            )
        previous = cs
    cvv = config["cv_variance"]
    if cvv["datasets_per_shard"] > cvv["datasets"]:
        problems.append(
            f"cv_variance.datasets_per_shard = {cvv['datasets_per_shard']}: more than "
            f"cv_variance.datasets = {cvv['datasets']}, so some shard would be empty"
        )
    for i, k in enumerate(cvv["folds"]):
        if k > n:
            problems.append(f"cv_variance.folds[{i}] = {k}: K above the sample size of {n} images")
    rob = config["robustness"]
    doc_seeds = set(range(si["first_seed"], si["first_seed"] + si["datasets"]))
    if doc_seeds & set(range(rob["shape_first_seed"], rob["shape_first_seed"] + rob["shape_datasets"])):
        problems.append(
            f"robustness.shape_first_seed = {rob['shape_first_seed']}: its seeds "
            f"overlap the document's shape_images seeds; fresh seeds must be disjoint"
        )
    sine_seeds = range(rob["sine_first_seed"], rob["sine_first_seed"] + rob["sine_datasets"])
    if config["sine_data"]["train_seed"] in sine_seeds:
        problems.append(
            f"robustness.sine_first_seed = {rob['sine_first_seed']}: "
            f"its seeds include the document's sine_data.train_seed"
        )
    if rob["datasets_per_shard"] > max(rob["shape_datasets"], rob["sine_datasets"]):
        problems.append(
            f"robustness.datasets_per_shard = {rob['datasets_per_shard']}: "
            f"more than the datasets, so some shard would be empty"
        )
    last = p2["candidate_sets"][-1]
    if sorted(last["sigmas"]) != sorted(grid["sigmas"]) or sorted(last["ks"]) != sorted(grid["ks"]):
        problems.append(
            "nested_optimism.candidate_sets: the last set must be the whole grid (the document's selection)"
        )
    return problems


def _at_most(problems: list[str], key: str, value, bound_key: str, bound) -> None:
    values = value if isinstance(value, list) else [value]
    for v in values:
        if v > bound:
            problems.append(f"{key} = {value}: {v} is above {bound_key} = {bound}")


def _cited_study_problems(config: dict) -> list[str]:
    """Relations between keys of the studies of cited results."""
    problems: list[str] = []
    esl = config["esl_wrong_and_right_way"]
    _at_most(
        problems,
        "esl_wrong_and_right_way.selected",
        esl["selected"],
        "esl_wrong_and_right_way.predictors",
        esl["predictors"],
    )
    _at_most(problems, "esl_wrong_and_right_way.folds", esl["folds"], "esl_wrong_and_right_way.samples", esl["samples"])
    _at_most(
        problems,
        "esl_wrong_and_right_way.sensitivity_folds",
        esl["sensitivity_folds"],
        "esl_wrong_and_right_way.samples",
        esl["samples"],
    )
    stump = config["esl_label_free_split"]
    _at_most(problems, "esl_label_free_split.folds", stump["folds"], "esl_label_free_split.samples", stump["samples"])
    _at_most(
        problems,
        "esl_label_free_split.marked_predictors",
        stump["marked_predictors"],
        "esl_label_free_split.predictors",
        stump["predictors"],
    )
    _at_most(
        problems, "kohavi_iris_majority.folds", config["kohavi_iris_majority"]["folds"], "the Iris classes' size", 50
    )
    leak = config["preprocessing_leak"]
    if leak["sample_size"] not in leak["sample_sizes"]:
        problems.append(
            f"preprocessing_leak.sample_size = {leak['sample_size']}: not "
            f"one of preprocessing_leak.sample_sizes {leak['sample_sizes']}"
        )
    _at_most(
        problems,
        "preprocessing_leak.folds",
        leak["folds"],
        "the smallest of preprocessing_leak.sample_sizes",
        min(leak["sample_sizes"]),
    )
    _at_most(
        problems, "preprocessing_leak.selected", leak["selected"], "preprocessing_leak.predictors", leak["predictors"]
    )
    _at_most(
        problems,
        "preprocessing_leak.signal_predictors",
        leak["signal_predictors"],
        "preprocessing_leak.predictors",
        leak["predictors"],
    )
    ordered = config["ordered_folds"]
    if ordered["folds"] not in ordered["fold_counts"]:
        problems.append(
            f"ordered_folds.folds = {ordered['folds']}: not one of ordered_folds.fold_counts {ordered['fold_counts']}"
        )
    _at_most(
        problems, "ordered_folds.fold_counts", ordered["fold_counts"], "ordered_folds.per_class", ordered["per_class"]
    )
    grouped = config["grouped_folds"]
    _at_most(problems, "grouped_folds.folds", grouped["folds"], "grouped_folds.groups", grouped["groups"])
    reuse = config["test_set_reuse"]
    _at_most(problems, "test_set_reuse.subset", reuse["subset"], "test_set_reuse.features", reuse["features"])
    _at_most(problems, "test_set_reuse.checkpoints", reuse["checkpoints"], "test_set_reuse.rounds", reuse["rounds"])
    if list(reuse["checkpoints"]) != sorted(reuse["checkpoints"]):
        problems.append(f"test_set_reuse.checkpoints = {reuse['checkpoints']}: must rise")
    vs = config["varma_simon_selection_bias"]
    _at_most(
        problems,
        "varma_simon_selection_bias.shrunken_centroids.folds",
        vs["shrunken_centroids"]["folds"],
        "varma_simon_selection_bias.per_class - 1 (the smaller class of an outer training set)",
        vs["per_class"] - 1,
    )
    twelve, recover = config["twelve_observations"], config["recover_twelve_points"]
    _at_most(
        problems,
        "recover_twelve_points.screen_starts",
        recover["screen_starts"],
        "recover_twelve_points.starts",
        recover["starts"],
    )
    _at_most(
        problems,
        "twelve_observations.folds",
        twelve["folds"],
        "twelve_observations.observations",
        twelve["observations"],
    )
    smallest_train = twelve["observations"] - math.ceil(twelve["observations"] / twelve["folds"])
    degree = twelve["polynomial_degree"]
    if degree + 1 > smallest_train:
        problems.append(
            f"twelve_observations.polynomial_degree = {degree}: its {degree + 1} parameters outnumber the "
            f"smallest training set of {smallest_train} observations"
        )
    th = config["temporal_holdout"]
    _at_most(problems, "temporal_holdout.folds", th["folds"], "temporal_holdout.days", th["days"])
    for f in th["cut_fractions"]:
        if math.floor(f * th["days"]) + th["horizon_days"] > th["days"]:
            problems.append(
                f"temporal_holdout.cut_fractions: the cut at {f} leaves fewer than "
                f"temporal_holdout.horizon_days = {th['horizon_days']} days after it"
            )
    problems += _sklearn_nested_iris_problems(config["sklearn_nested_iris"])
    return problems


IRIS_SIZE = 150  # items in scikit-learn's Iris, which ships with it


def _sklearn_nested_iris_problems(sk: dict) -> list[str]:
    """The reference pair of rules must be among those run, and every outer training set of Iris
    must hold at least ``inner_folds`` items."""
    problems = []
    if sk["reference_combine"] not in sk["combines"]:
        problems.append(
            f"sklearn_nested_iris.reference_combine = {sk['reference_combine']} "
            f"is not among sklearn_nested_iris.combines = {sk['combines']}"
        )
    smallest_train = IRIS_SIZE - math.ceil(IRIS_SIZE / sk["outer_folds"])
    if sk["inner_folds"] > smallest_train:
        problems.append(
            f"sklearn_nested_iris.inner_folds = {sk['inner_folds']} exceeds the smallest outer training "
            f"set of Iris ({smallest_train} items with sklearn_nested_iris.outer_folds = {sk['outer_folds']})"
        )
    return problems
