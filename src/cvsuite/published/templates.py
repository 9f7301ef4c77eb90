"""Numbers in the registry's words, read from the run that is being judged.

A record's note, remark, erratum or measure names the numbers it rests on as placeholders, which
the comparison fills from the tables of the same run; so a rerun under another config or seed
keeps every sentence true. Three kinds:

- ``${k_bias/shuffle_summary.csv[K=2].shuffles_above_truth}``: a cell of a study's table, its row
  chosen as a statistic reference chooses it (``cvsuite.published.statistics``; none for a one-row
  table), written with an optional Python format spec after a colon:
  ``${k_bias/k_bias.csv[K=2].bias_over_truth:.1f}``, ``${...share_above_truth:.1%}``;
- ``${config:k_bias.shuffles}``: a setting of this run (a design number such as the 40 shuffles);
- ``${judge.statistic:.1f}`` and ``${judge.se:.2g}``: what the record's own judge found, the
  statistic its verdict rests on and that statistic's standard error.

(The dollar sign keeps them apart from the braces of sets and TeX the sentences also hold.)

A placeholder the run cannot fill (a what-if that does not compute K = 3) reads ``n/a``. Numbers a
sentence may keep as typed text are quotations and definitions, never results: see
``typed_numbers``.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from cvsuite.published.statistics import BadReference, parse_reference, reference_problem, select_rows

if TYPE_CHECKING:  # pandas only names the tables' type: the Snakefile reads the registry without it
    import pandas as pd

PLACEHOLDER = re.compile(r"\$\{([^{}]+)\}")
JUDGED = ("judge.statistic", "judge.se")
MISSING = "n/a"


class TemplateError(ValueError):
    """A placeholder that names no table, column, row or setting the way the registry can read it."""


def placeholders(text: str) -> list[str]:
    """The placeholders of ``text``, without their braces, in order."""
    return PLACEHOLDER.findall(text or "")


def parse_placeholder(inner: str) -> tuple[str, str, str, str]:
    """``table[row].column:format`` -> (table, row, column, format); ``config:a.b:format`` ->
    ("config", "a.b", "", format); ``judge.statistic:format`` -> ("judge", "statistic", "", format).
    TemplateError if it is none of them."""
    if inner.startswith("config:"):
        path, _, spec = inner[len("config:") :].partition(":")
        if not re.fullmatch(r"[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*", path):
            raise TemplateError(f"'${{{inner}}}' names no setting (config:<block>.<key>)")
        return "config", path, "", spec
    reference, _, spec = inner.partition(":")
    if reference in JUDGED:
        return "judge", reference.split(".", 1)[1], "", spec
    try:
        parsed = parse_reference(reference)
    except BadReference:
        raise TemplateError(
            f"'${{{inner}}}' is not of the form ${{<study>/<table>.csv[<row>].<column>:<format>}}"
        ) from None
    return parsed.table, parsed.rows, parsed.column, spec


def _formatted(value, spec: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return str(value)
    number = float(value)
    if not spec:
        return f"{int(number)}" if number.is_integer() else f"{number:g}"
    if spec.endswith("d") or spec.endswith(",") or spec == ",":
        return format(int(round(number)), spec)
    text = format(number, spec)
    # A value that rounds to zero keeps no sign of its own ("-0.0" reads as a result of its own).
    return re.sub(r"^-(?=0(\.0*)?%?$)", "", text)


def _cell_value(table: pd.DataFrame | None, row: str, column: str, cache: dict | None = None):
    if table is None or column not in table.columns:
        return None
    try:
        matches = select_rows(table, row, cache)
    except KeyError:
        return None
    if len(matches) != 1:
        return None
    return matches.iloc[0][column]


def _setting(config: dict, path: str):
    value = config
    for key in path.split("."):
        if not isinstance(value, dict) or key not in value:
            return None
        value = value[key]
    return value


def render(
    text: str,
    tables: dict[str, pd.DataFrame],
    config: dict | None = None,
    cache: dict | None = None,
    judged: dict | None = None,
) -> str:
    """``text`` with every placeholder filled from ``tables`` (keyed ``<study>/<table>.csv``),
    ``config`` and ``judged`` (the record's judgement: ``statistic`` and ``se``); what this run does
    not compute reads ``n/a``. ``cache``: see ``select_rows``."""
    if not text:
        return text

    def fill(match: re.Match) -> str:
        table, row, column, spec = parse_placeholder(match[1])
        if table == "judge":
            value = (judged or {}).get(row)
        elif table == "config":
            value = _setting(config or {}, row)
            if isinstance(value, list | tuple):
                return ", ".join(_formatted(v, spec) for v in value)
        else:
            value = _cell_value(tables.get(table), row, column, cache)
        return _formatted(value, spec)

    return PLACEHOLDER.sub(fill, text)


def check_placeholders(text: str, declared: dict[str, list[str]] | None) -> str | None:
    """What is wrong with the placeholders of ``text``, or None: each must parse, and name a table
    and columns (to read and to select on) that the studies declare."""
    for inner in placeholders(text):
        try:
            table, row, column, spec = parse_placeholder(inner)
            if spec:
                format(1.5, spec) if not spec.endswith("d") else format(1, spec)
            if table in ("config", "judge"):
                continue
            problem = reference_problem(parse_reference(inner.partition(":")[0]), declared)
        except (TemplateError, ValueError) as err:
            return f"placeholder ${{{inner}}}: {err}"
        if problem:
            return f"placeholder ${{{inner}}}: {problem}"
    return None


# Numbers a sentence may type: the references of a text (sections, equations, tables, figures,
# years), counts of units in a design or a criterion's definition (K = 5, degree 12, 2 SE, 5%),
# and digits inside names. Anything else must be a placeholder or a quotation of the document.
_ALLOWED = [
    r"§\s?[\d.]+",
    r"\b(?:Table|Figure|Equation|Eq\.|eq\.|Part|Section|page|p\.|pp\.|Chapter)\s+[\d.,–-]+",
    r"\b(?:19|20)\d\d\b",
    r"\b[KkNnmp] = \d+\b",
    r"\bk = n\b",
    r"\b(?:degree|degrees|fold|folds|seed|seeds|K|k)\s+\d+(?:(?:,| and| to|-|–)\s?\d+)*\b",
    r"\b\d+(?:\.\d+)? (?:SE|s\.e\.|standard errors?|SEs)\b",
    r"\b\d+% (?:two-sided|one-sided|power|test|level)\b",
    r"\b\d+(?:\.\d+)?% of the truth\b",
    r"\bp (?:below|under|<) 0?\.\d+",  # a test's level
    r"\b(?:to|within) \d(?:\.\d+)?e-\d+\b",  # a numerical tolerance
    r"\bx = 1\.\.12\b",
    r"[A-Za-z_]+\d[A-Za-z0-9_]*",  # names with digits (K2, b2, sigma^2 written sigma2)
    r"\b[A-Z][A-Za-z]*-\d+(?:\.\d+)?\b",  # names of datasets (Caltech-101, CIFAR-10.1)
    r"\^\d",
    r"\d+/\d+",  # fractions written as such (1/(1 - h), (K-1)/K)
]
_ALLOWED_RE = re.compile("|".join(f"(?:{a})" for a in _ALLOWED))
_QUOTED = re.compile(r"(?<![A-Za-z])'[^']*?'(?![A-Za-z])")
_NUMBER = re.compile(r"(?<![\w.])[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?")


def typed_numbers(text: str, quotations: set[str] = frozenset()) -> list[str]:
    """The numbers ``text`` types outside its placeholders that are neither a quotation of the
    document (``quotations``: numbers as the registry's ``where`` and ``published`` print them)
    nor a reference or a definition (``_ALLOWED``). A note's computed numbers must be placeholders."""
    literal = PLACEHOLDER.sub(" ", text or "")
    literal = _QUOTED.sub(" ", literal)  # words quoted from a document or a cited work, as printed there
    literal = _ALLOWED_RE.sub(" ", literal)
    found = []
    for number in _NUMBER.findall(literal):
        bare = number.lstrip("+-−")
        if bare in quotations or number in quotations or _scientific(bare) in quotations:
            continue
        if re.fullmatch(r"[0-9]", bare):  # a single digit: a count of things named in the sentence
            continue
        found.append(number)
    return found


def quoted_numbers(texts) -> set[str]:
    """Every number printed in ``texts`` (the document's own words), with and without thousands
    separators (and a number in scientific notation also as its value, 1.0e-08 as 1e-08), as
    ``typed_numbers`` compares them."""
    numbers = set()
    for text in texts:
        for number in _NUMBER.findall(re.sub(r"[{}$\\]", " ", text or "")):
            bare = number.lstrip("+-−")
            numbers |= {bare, bare.replace(",", ""), _scientific(bare)}
    return numbers


def _scientific(number: str) -> str:
    """A number in scientific notation as its value ("1.0e-08" and "1e-8" -> "1e-08"); others as given."""
    if "e" not in number:
        return number
    try:
        return f"{float(number):g}"
    except ValueError:
        return number
