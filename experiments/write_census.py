"""Write the census, registry/census.csv and docs/census.md, from the registry and the documents.

Run it after adding or removing a record or a left-out clause: python experiments/write_census.py
[folder of the documents, default ../shared/seeds]. It reads the three documents (which the
workflow does not have), so the census is written here and committed; tests/test_census.py fails
when the registry and the committed census disagree.
"""

import sys
from pathlib import Path

import yaml

from cvsuite.published.census import census_markdown, census_rows, read_left_out
from cvsuite.published.records import read_records
from cvsuite.workflow.catalog import load_catalog

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT_FILES = {
    "Cross-Validation": "000_03a96ac40e6e345a.txt",
    "Regularization and Cross-Validation": "001_5fb05c4d99f1d53f.txt",
    "Estimating Out-of-Sample Error": "003_ff2a940f8de55ba7.txt",
}


def main(seeds: Path, out: Path = ROOT) -> None:
    """Read the registry under ROOT and the documents under ``seeds``; write the census under ``out``."""
    records = read_records(ROOT / "registry", load_catalog(ROOT / "studies.yaml").table_columns())
    left_out = yaml.safe_load((ROOT / "registry" / "left_out.yaml").read_text(encoding="utf-8"))
    sections, clauses = read_left_out(left_out, "registry/left_out.yaml")
    texts = {document: (seeds / name).read_text(encoding="utf-8") for document, name in DOCUMENT_FILES.items()}
    census = census_rows(records, clauses, sections, texts)
    census.to_csv(out / "registry" / "census.csv", index=False)
    (out / "docs" / "census.md").write_text(census_markdown(census), encoding="utf-8")
    print(f"{len(census)} clauses: {census['status'].value_counts().to_dict()}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT.parent / "shared" / "seeds")
