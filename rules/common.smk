# What every rule of the Snakefile shares: the checked config, the list of studies, the library
# stamp, each study's outputs and parameters, and the shard plans of the simulation steps.

import hashlib
import sys
from pathlib import Path

from cvsuite.published.registry import RegistryError, read_registry
from cvsuite.workflow.catalog import CatalogError, figure_key, load_catalog
from cvsuite.workflow.config_checks import ConfigError, checked_config, load_schema
from cvsuite.workflow.shards import shard_ranges


configfile: "config.yaml"


# Refuse a bad config before any job runs: one message naming each bad key, nothing written.
try:
    config.update(checked_config(config, load_schema(Path(workflow.basedir, "schemas/config.schema.yaml"))))
except ConfigError as err:
    sys.exit(str(err))

try:
    CATALOG = load_catalog(Path(workflow.basedir, "studies.yaml"))
except CatalogError as err:
    sys.exit(str(err))

REGISTRY = "registry/published_numbers.csv"
# One input stands for the whole library: a file holding the content hash of src/cvsuite. The rule
# that writes it reruns when the hash changes (its params), and then every study reruns after it,
# so no table outlives the code that made it.
LIBRARY = "results/library.sha256"


def library_digest():
    digest = hashlib.sha256()
    for path in sorted(Path(workflow.basedir, "src", "cvsuite").rglob("*.py")):
        digest.update(path.relative_to(workflow.basedir).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def study(name):
    return CATALOG.studies[name] if name in CATALOG.studies else CATALOG.steps[name]


def study_outputs(name, folder=""):
    """Every table, figure (PNG for the report, with its caption; SVG for print) and provenance."""
    files = study(name).outputs(folder)
    for figure in study(name).figures:
        key = figure_key(figure, "png")
        files[key] = report(files[key], caption=f"report/{name}/{figure}.rst", category=name)
    return files


def study_params(name, blocks=None):
    """The config blocks the study reads (all of studies.yaml's `config`, unless given) and the
    columns of every table it declares, which its entry point checks before writing."""
    if blocks is None:
        blocks = {block: config[block] for block in study(name).config}
    return {"blocks": blocks, "columns": study(name).tables}


def shard_tables(step, table, shards):
    return [study(step).table_path(table, f"{start}-{stop}") for start, stop in shards]


def study_tables(names):
    return [study(n).table_path(t) for n in names for t in study(n).tables]


def study_figures(names):
    return [study(n).figure_path(f) for n in names for f in study(n).figures]
