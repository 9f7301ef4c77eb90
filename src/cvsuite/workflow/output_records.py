"""What each job wrote, recorded by checksum, and the check that nothing has changed it since.

Every job writes its ``provenance.json`` last, with the sha256 of every other file it wrote
(``recorded_outputs``). Before any job runs, the Snakefile checks every file some record names
(``check_recorded_outputs``): a file that is there but no longer has its recorded bytes (a full disk,
an interrupted copy, a hand edit) stops the run with one message naming it, the record and the
command that rebuilds it. Snakemake itself would not notice (a file's bytes are not among its rerun
triggers) and the comparison would fold the damage into the verdict. A file that is missing is not
damage: Snakemake reruns the job that writes it. A job interrupted before its record is written
leaves no record (Snakemake deleted the old one when the job started), so it is never mistaken
for damage.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

RECORD_KEY = "outputs"  # the key of provenance.json that holds {path: sha256}


def file_digest(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def recorded_outputs(paths) -> dict[str, str]:
    """{path as the job was given it: sha256 of its bytes now}, for a job's record; a folder's files
    each by its own path (a folder output, such as the site)."""
    files = []
    for path in map(Path, paths):
        files += sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    return {p.as_posix(): file_digest(p) for p in files}


@dataclass(frozen=True)
class Damage:
    path: str  # the damaged file, relative to the working directory
    record: str  # the provenance.json that recorded it
    rule: str  # the rule that wrote it
    why: str  # "its bytes differ from the record" and the like


class DamagedOutputs(RuntimeError):
    """Files a job wrote no longer hold what it wrote; the message names each one."""


def damaged_outputs(workdir: str | Path, records) -> list[Damage]:
    """Every recorded file under ``workdir`` that is present with other bytes than recorded.

    ``records`` are provenance.json paths relative to ``workdir``. A record that cannot be read is
    damage of the record itself (its files cannot be vouched for)."""
    workdir = Path(workdir)
    found = []
    for record in records:
        try:
            data = json.loads((workdir / record).read_text(encoding="utf-8"))
            rule, outputs = data["study"], data.get(RECORD_KEY, {})
            if not isinstance(outputs, dict):
                raise TypeError(f"'{RECORD_KEY}' is not a mapping")
        except (OSError, ValueError, KeyError, TypeError) as err:
            found.append(Damage(str(record), str(record), _rule_of(record), f"the record cannot be read ({err})"))
            continue
        for path, digest in outputs.items():
            file = workdir / path
            if not file.exists():
                continue
            if file_digest(file) != digest:
                found.append(
                    Damage(path, str(record), rule, f"its bytes differ from those the job recorded ({_size(file)})")
                )
    return found


def check_recorded_outputs(workdir: str | Path, records, ignore_rules=frozenset) -> None:
    """Raise ``DamagedOutputs`` naming every damaged file (see ``damaged_outputs``), except those of
    the rules ``ignore_rules()`` returns (rules the run rebuilds anyway: ``--forcerun``), asked only
    when there is damage."""
    found = damaged_outputs(workdir, records)
    if found:
        ignored = ignore_rules()
        found = [d for d in found if d.rule not in ignored]
    if not found:
        return
    rules = sorted({d.rule for d in found})
    lines = [f"{d.path}: {d.why}; written by rule {d.rule}, recorded in {d.record}" for d in found]
    rebuild = " ".join(f"--forcerun {rule}" for rule in rules)
    raise DamagedOutputs(
        f"{len(found)} result file(s) changed since the job that wrote them, so no job was run and no "
        "file was changed:\n  "
        + "\n  ".join(lines)
        + f"\nTo rebuild them from the code and the config, run the same command with {rebuild} "
        f"(at the documents' settings: snakemake all {rebuild})"
    )


def _size(file: Path) -> str:
    return f"now {file.stat().st_size:,} bytes"


def _rule_of(record) -> str:
    """The rule of a record that cannot be read: its study folder, results/<rule>/..."""
    parts = Path(record).parts
    return parts[1] if len(parts) > 2 else "compare"
