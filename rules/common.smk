# Helpers the Snakefile shares: the checked config, the list of studies, each rule's code inputs, each
# study's outputs and parameters, and the shard plans of the simulation steps.

import atexit
import json
import os
import sys
import time
from pathlib import Path

from cvsuite.published.published_values import extract_text
from cvsuite.published.records import DOCUMENTS, RecordError, read_records
from cvsuite.published.scales import SCALES_FILE
from cvsuite.workflow.catalog import CatalogError, figure_key, load_catalog, read_source
from cvsuite.workflow.config_checks import ConfigError, checked_config, load_schema
from cvsuite.workflow.config_file import load_config
from cvsuite.workflow.code_inputs import code_inputs, code_record, figure_code_inputs, quoted_names
from cvsuite.workflow.job_spec import job_argument
from cvsuite.workflow.memory_needs import memory_needs, oversized_jobs
from cvsuite.workflow.output_records import DamagedOutputs, check_recorded_outputs
from cvsuite.workflow.outputs import RUN_RECORD, run_record, write_text_if_changed
from cvsuite.workflow.shards import shard_plan, shard_ranges



# The config: config.yaml, then --configfile files and --config values over it, as Snakemake merges
# them, read here rather than by `configfile:` so that every problem names its origin (the file and
# line, or --config). A bad config stops the run before any job: one message per bad key.
try:
    _settings = workflow.config_settings
    _config, CONFIG_SOURCES = load_config(
        Path(workflow.basedir, "config.yaml"), command_line=dict(_settings.config), override_files=_settings.configfiles
    )
    _checked = checked_config(_config, load_schema(Path(workflow.basedir, "schemas/config.schema.yaml")), CONFIG_SOURCES)
except ConfigError as err:
    sys.exit(str(err))
config.clear()
config.update(_checked)

try:
    CATALOG = load_catalog(Path(workflow.basedir, "studies.yaml"))
except CatalogError as err:
    sys.exit(str(err))

# The registry: one file of records per document, and the scales of the vague words they share.
REGISTRY = [f"registry/{name}" for name in DOCUMENTS.values()] + [f"registry/{SCALES_FILE}"]
# Refuse a malformed record before any job runs, naming its file, line and id.
try:
    _claims = read_records("registry", CATALOG.table_columns())
except RecordError as err:
    sys.exit(str(err))

# Refuse a config whose simulations cannot fit in the memory their jobs get, before any job (a dry
# run too): this machine's memory, or under a profile that gives jobs memory (the cluster's), the
# rule's mem_mb (SLURM reads it in MiB).
def job_memory(rule):
    resources = workflow.resource_settings
    if resources.default_resources is None:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"), "this machine"
    given = {**dict(resources.default_resources), **dict(resources.overwrite_resources.get(rule, {}))}
    if "mem_mb" not in given or not isinstance(given["mem_mb"].value, (int, float)):
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"), "this machine"
    return given["mem_mb"].value * 2**20, f"the profile's mem_mb for {rule}"


_oversized = oversized_jobs(memory_needs(config), job_memory)
if _oversized:
    sys.exit("The config asks for more memory than a job gets, so no job was run:\n  " + "\n  ".join(_oversized))


# Every job's provenance records the commit and the package versions of this run: read once here
# and handed to the jobs (which inherit this environment) rather than looked up again in each job.
os.environ[RUN_RECORD] = json.dumps(run_record())


# Refuse to run on results that changed since the job that wrote them (a truncated or hand-edited
# table would otherwise pass into the verdict unseen), before any job runs: Snakemake deletes a job's
# outputs before running it, so a check inside a job would come too late. The jobs Snakemake itself
# starts (cluster jobs parse this file too) leave it to the run that started them.
def forced_rules():
    """The rules this command forces to rerun (--forcerun/-R; all for --forceall/-F), whose files it
    rebuilds anyway: read from the command line, since Snakemake gives the Snakefile its DAG settings
    only after parsing it. Called only when a file is damaged (the parser costs 0.1 s)."""
    from snakemake.cli import get_argument_parser

    args, _ = get_argument_parser().parse_known_args(sys.argv[1:])
    return {r.name for r in workflow.rules} if args.forceall else set(args.forcerun or ())


if workflow.is_main_process:
    _records = sorted(p.as_posix() for folder in ("results", "figures") for p in Path(folder).rglob("provenance.json"))
    try:
        check_recorded_outputs(".", _records, ignore_rules=forced_rules)
    except DamagedOutputs as err:
        sys.exit(str(err))

# What a job reads of the registry: the printed values of the records its code or its config blocks
# name, and of no other (results/published_values/<rule>.csv), rewritten only when one of them
# changes. So an edit to a record's note, reading, judge or erratum, or a new record, reruns the
# comparison and nothing else, and a corrected printed value reruns only the jobs that start from
# it or draw it. Written by the rules, after every check above, so that a refused run writes nothing.
PUBLISHED = "results/published_values"


def _named_in(value):
    """Every text in a config value, however nested (a record id a study's config names)."""
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return set().union(set(), *map(_named_in, value))
    return {value} if isinstance(value, str) else set()


def published_values(rule, files, blocks=()):
    """The extract of the printed values that the rule's code (``files``) and config ``blocks`` name."""
    named = set().union(set(), *(quoted_names(Path(workflow.basedir, f)) for f in files))
    named |= _named_in([config[block] for block in blocks])
    path = f"{PUBLISHED}/{rule}.csv"
    write_text_if_changed(extract_text([c for c in _claims if c.id in named]), path)
    return path


# Each rule's code input: one file, results/code/<rule>.txt, that lists the files its job runs (its
# entry point and the library modules it imports, transitively: cvsuite.workflow.code_inputs) with
# their sha256, rewritten here only when one of them changes. An edit then reruns exactly the jobs
# whose code it touches. One file stands for the 20-40 files themselves because Snakemake measures
# every input of every waiting job at each scheduling round, which costs with the files listed.
CODE = "results/code"


def code_stamp(rule, files):
    path = f"{CODE}/{rule}.txt"
    write_text_if_changed(code_record(workflow.basedir, files), path)
    return path


def code_files(entry):
    """The files a study or step's job runs: its entry point and the library modules it imports."""
    return [entry, *code_inputs(Path(workflow.basedir, "src"), Path(workflow.basedir, entry))]


def code_of(entry):
    """A study or step's code input (its rule is named as its entry point)."""
    return code_stamp(Path(entry).stem, code_files(entry))


def published_of(entry):
    """A study's extract of the printed values it starts from (its rule is named as its entry point)."""
    name = Path(entry).stem
    return published_values(name, code_files(entry), study(name).config)


def study(name):
    return CATALOG.studies[name] if name in CATALOG.studies else CATALOG.steps[name]


def study_outputs(name, folder=""):
    """Every table of a study's job, its figures' arrays (if it saves any) and its provenance."""
    return study(name).outputs(folder)


def figure_outputs(name):
    """Every file of a study's figure job: its figures (PNG for the report, with its caption; SVG for
    print), their layout checks and the job's provenance."""
    files = study(name).figure_outputs()
    for figure in study(name).figures:
        key = figure_key(figure, "png")
        # By absolute path: Snakemake reads a caption relative to the file that defines the rule
        # (rules/*.smk); the figure job writes it from studies.yaml.
        caption = Path(workflow.basedir, study(name).figure_path(figure, "rst"))
        files[key] = report(files[key], caption=caption, category=name)
    return files


def figure_files(name):
    """The files a study's figure job runs: the figure rules' entry point and the study's figure
    module, with what each imports."""
    entry = "experiments/draw_figures.py"
    return [entry, *figure_code_inputs(Path(workflow.basedir, "src"), Path(workflow.basedir, entry), name)]


def figure_code(name):
    """A figure job's code input."""
    return code_stamp(f"{name}_figures", figure_files(name))


def study_params(name, blocks=None):
    """The config blocks the study reads (all of studies.yaml's `config`, unless given), and the
    columns of every table and the names of the arrays it declares, which its entry point checks
    before writing; and the job's command-line text (``job_params``)."""
    if blocks is None:
        blocks = {block: config[block] for block in study(name).config}
    return job_params(name, {"blocks": blocks, "columns": study(name).tables, "arrays": study(name).figure_arrays})


def figure_params(name):
    """A figure job's study, its config blocks and its tables' paths, and its command-line text."""
    return job_params(
        f"{name}_figures",
        {
            "study": name,
            "blocks": {block: config[block] for block in study(name).config},
            "tables": {t: study(name).table_path(t) for t in study(name).tables},
            "captions": study(name).captions,
        },
    )


# Every job runs its entry point as a plain command (``job_command``), which reads its job from the
# command line (cvsuite.workflow.job_spec) rather than from the object Snakemake's `script:` hands it:
# that preamble imports Snakemake into each job. The interpreter is this Snakefile's, so jobs run in
# the environment the workflow was started from (on a cluster node too, where Snakemake parses this
# file again); it is named in the environment the jobs inherit, not in the command, so that a run
# moved to another folder or environment does not count as changed code.
PYTHON = "CVSUITE_PYTHON"
os.environ[PYTHON] = sys.executable
# glibc's malloc hands each array above its mmap threshold fresh pages from the kernel, and takes
# them back on free, so a simulation that makes and drops the same arrays pays a page fault for every
# page every time. Below 128 MiB, jobs keep freed memory for the next array, which saves CPU and
# leaves every table the same. Only the jobs inherit it (glibc reads it at start); a value the user
# set wins; other C libraries ignore it.
os.environ.setdefault("MALLOC_MMAP_THRESHOLD_", "134217728")
os.environ.setdefault("MALLOC_TRIM_THRESHOLD_", "268435456")


def job_command(entry):
    return f'"${PYTHON}" {entry} {{params.job:q}} {{log:q}}'


def job_params(rule, params):
    """The rule's parameters, and `job`: the JSON text of each of its jobs, built by Snakemake from
    the job's files, wildcards and threads. Derived from the files, `job` never triggers a rerun;
    the parameters beside it do, as before."""

    def job(wildcards, input, output, threads):
        return job_argument(rule, wildcards, input, output, threads, params)

    return {**params, "job": job}


def study_tables(names):
    return [study(n).table_path(t) for n in names for t in study(n).tables]


def study_figures(names):
    return [study(n).figure_path(f) for n in names for f in study(n).figures]


# The simulation steps are the longest jobs, and the gathers wait for them: started first, they
# leave the short study jobs to fill the cores at the end instead of one core idling behind them.
SIMULATION_PRIORITY = 10
# Figures are drawn after the studies (Snakemake otherwise prefers the jobs with the most input
# bytes, as a figure job often is): the run then ends on many short independent figure jobs that
# fill both cores, not on a study and its figure job waiting on each other with one core idle.
FIGURE_PRIORITY = -1


# Shard plans: the seed ranges of each simulation step, and the parameters its shards get. These
# leave out the seed range and the shard size, which only decide the file names, so a new split
# reruns nothing it need not. A shard job sees only the keys given here: one its science starts to
# read and that is missing fails the job with a KeyError naming it, rather than going unwatched.
SHAPE = config["shape_images"]
SHAPE_SHARDS = shard_ranges(SHAPE["first_seed"], SHAPE["datasets"], SHAPE["datasets_per_shard"])
SHAPE_SIMULATION = {
    # first_seed and datasets say which seeds are the document's (every candidate's truth is measured there).
    "shape_images": {k: SHAPE[k] for k in ("images", "grid", "first_seed", "datasets")},
    "knn_estimators": config["knn_estimators"],
    "nested_optimism": config["nested_optimism"],
}

CV_VARIANCE = config["cv_variance"]
CV_VARIANCE_SHARDS = shard_ranges(CV_VARIANCE["first_seed"], CV_VARIANCE["datasets"], CV_VARIANCE["datasets_per_shard"])
CV_VARIANCE_SIMULATION = {
    "cv_variance": {k: v for k, v in CV_VARIANCE.items() if k not in ("datasets", "first_seed", "datasets_per_shard")},
    "shape_images": {"images": SHAPE["images"]},
}

ROBUST = config["robustness"]
ROBUST_SHAPE_SHARDS = shard_ranges(ROBUST["shape_first_seed"], ROBUST["shape_datasets"], ROBUST["datasets_per_shard"])
ROBUST_SINE_SHARDS = shard_ranges(ROBUST["sine_first_seed"], ROBUST["sine_datasets"], ROBUST["datasets_per_shard"])
FRESH_SINE = {
    "sine_data": config["sine_data"],
    "ridge_path": {k: config["ridge_path"][k] for k in ("degree", "grid_start", "grid_stop", "grid_points")},
    "k_bias": {k: config["k_bias"][k] for k in ("degree", "folds", "first_seed")},  # shuffles: robustness's
    "robustness": {k: ROBUST[k] for k in ("sine_test_seed_offset", "sine_shuffles")},
}

VARMA_SIMON = config["varma_simon_selection_bias"]
VARMA_SIMON_SHARDS = shard_plan(
    VARMA_SIMON["scenarios"], VARMA_SIMON["datasets_per_shard"], VARMA_SIMON["nested_per_shard"]
)
VARMA_SIMON_SIMULATION = {
    "varma_simon_selection_bias": {
        k: v for k, v in VARMA_SIMON.items() if k not in ("datasets_per_shard", "nested_per_shard")
    },
}


# Each step's shards by plan, as folders under results/<step>/: a study that reads `<step>.<table>`
# reads that table of every shard of the plan named for the step, and `<step>.<table>@<plan>` of the
# plan `<step>@<plan>` (studies.yaml).
def range_folders(shards):
    return [f"{start}-{stop}" for start, stop in shards]  # the steps' "{start}-{stop}" wildcards


SHARD_FOLDERS = {
    "shape_image_datasets": range_folders(SHAPE_SHARDS),
    "shape_image_datasets@robustness": range_folders(ROBUST_SHAPE_SHARDS),
    "cv_variance_datasets": range_folders(CV_VARIANCE_SHARDS),
    "fresh_sine_datasets": range_folders(ROBUST_SINE_SHARDS),
    "varma_simon_datasets": [f"{scenario}/{start}-{stop}" for scenario, start, stop in VARMA_SIMON_SHARDS],
}


def study_inputs(name):
    """A study's inputs, from its entry in studies.yaml: its code, the printed values it starts from
    (if it does), then each table it reads, by the input name it gives (a step's, one per shard)."""
    entry = f"experiments/{name}.py"
    files = {"code": code_of(entry)}
    if study(name).starts_from_published:
        files["published"] = published_of(entry)
    for input_name, source in study(name).reads.items():
        read, table, plan = read_source(source)
        if read in CATALOG.steps:
            folders = SHARD_FOLDERS[f"{read}@{plan}" if plan else read]
            files[input_name] = [study(read).table_path(table, folder) for folder in folders]
        else:
            files[input_name] = study(read).table_path(table)
    return files


# The verdict is what a run is for: print it as the very last lines (after Snakemake's own summary,
# hence at exit), when this run wrote the comparison.
RUN_STARTED = time.time()


def announce_verdict():
    comparison = Path("results/comparison.csv")
    if not comparison.exists() or comparison.stat().st_mtime < RUN_STARTED:
        return

    def say():
        import pandas as pd  # here, not at the top: every Snakemake start would pay for it

        from cvsuite.published.report import verdict_line

        line = verdict_line(pd.read_csv(comparison, keep_default_na=False)).strip("*")
        print(f"\nVerdict: {line}", file=sys.stderr)
        print("Details: results/REPORT.md (results/comparison.csv)", file=sys.stderr)

    atexit.register(say)
