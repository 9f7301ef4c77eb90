"""What a job wrote, by checksum, and the check that refuses files changed since (output_records)."""

import json

import pandas as pd
import pytest

from cvsuite.published.comparison import RowsMissingAtDocumentSettings, refuse_missing_rows
from cvsuite.workflow.output_records import DamagedOutputs, check_recorded_outputs, damaged_outputs
from cvsuite.workflow.outputs import write_provenance


def a_job(tmp_path, rule="k_bias"):
    folder = tmp_path / "results" / rule
    folder.mkdir(parents=True)
    (folder / "k_bias.csv").write_text("K,truth\n2,0.1\n5,0.2\n")
    (folder / "claims.csv").write_text("claim,verdict\na,true\n")
    written = [f"results/{rule}/k_bias.csv", f"results/{rule}/claims.csv"]
    write_provenance(f"results/{rule}/provenance.json", rule, {}, written)
    return f"results/{rule}/provenance.json"


def test_untouched_outputs_pass_and_a_missing_one_is_left_to_snakemake(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = a_job(tmp_path)
    assert damaged_outputs(tmp_path, [record]) == []
    (tmp_path / "results" / "k_bias" / "claims.csv").unlink()  # Snakemake reruns the job that writes it
    assert damaged_outputs(tmp_path, [record]) == []


@pytest.mark.parametrize(
    "damage",
    [
        lambda text: text.splitlines(keepends=True)[0],  # truncated to its header
        lambda text: text.replace("0.2", "0.3"),  # one cell edited
    ],
    ids=["truncated", "one cell edited"],
)
def test_a_changed_table_is_named_with_its_rule_record_and_the_command_that_rebuilds_it(tmp_path, monkeypatch, damage):
    monkeypatch.chdir(tmp_path)
    record = a_job(tmp_path)
    table = tmp_path / "results" / "k_bias" / "k_bias.csv"
    table.write_text(damage(table.read_text()))
    with pytest.raises(DamagedOutputs) as err:
        check_recorded_outputs(tmp_path, [record])
    message = str(err.value)
    assert "results/k_bias/k_bias.csv: its bytes differ" in message
    assert "written by rule k_bias, recorded in results/k_bias/provenance.json" in message
    assert message.endswith(
        "run the same command with --forcerun k_bias (at the documents' settings: snakemake all --forcerun k_bias)"
    )
    assert "claims.csv" not in message
    check_recorded_outputs(tmp_path, [record], ignore_rules=lambda: {"k_bias"})  # --forcerun k_bias rebuilds it anyway


def test_an_unreadable_record_is_damage_of_the_record(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = a_job(tmp_path)
    (tmp_path / record).write_text('{"study": "k_bias", "outp')
    [found] = damaged_outputs(tmp_path, [record])
    assert found.path == record and found.rule == "k_bias" and "cannot be read" in found.why


def test_the_record_is_the_provenance_files_outputs_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    record = json.loads((tmp_path / a_job(tmp_path)).read_text())
    assert set(record["outputs"]) == {"results/k_bias/k_bias.csv", "results/k_bias/claims.csv"}
    assert all(len(digest) == 64 for digest in record["outputs"].values())


def test_a_number_not_computed_at_the_documents_settings_is_refused_naming_its_table():
    comparison = pd.DataFrame(
        {
            "claim": ["a", "b"],
            "status": ["reproduced", "not computed at this config"],
            "table": ["k_bias/k_bias.csv", "k_bias/k_bias.csv"],
            "note": ["", "no row K = 25"],
        }
    )
    with pytest.raises(RowsMissingAtDocumentSettings, match=r"k_bias/k_bias.csv lack rows .* --forcerun k_bias"):
        refuse_missing_rows(comparison)
    refuse_missing_rows(comparison.iloc[:1])
