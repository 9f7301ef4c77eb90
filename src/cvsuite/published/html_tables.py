"""Tables a reader can sort, as one self-contained HTML page (no network, no library).

``snakemake --report`` embeds these pages beside the figures: the comparison of every published
number, and the errata. A click on a column heading sorts by it (numbers as numbers), a second
click reverses; a box filters the rows by any text.
"""

from __future__ import annotations

import html

import pandas as pd

_SCRIPT = """
const table = document.querySelector("table");
const body = table.tBodies[0];
document.querySelectorAll("th").forEach((th, column) => {
  th.addEventListener("click", () => {
    const rows = Array.from(body.rows);
    const up = th.dataset.order !== "up";
    document.querySelectorAll("th").forEach(other => { other.dataset.order = ""; });
    th.dataset.order = up ? "up" : "down";
    const key = row => row.cells[column].dataset.value ?? row.cells[column].textContent;
    rows.sort((a, b) => {
      const x = key(a), y = key(b), nx = parseFloat(x), ny = parseFloat(y);
      const order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return up ? order : -order;
    });
    rows.forEach(row => body.appendChild(row));
  });
});
document.querySelector("input").addEventListener("input", event => {
  const text = event.target.value.toLowerCase();
  Array.from(body.rows).forEach(row => {
    row.style.display = row.textContent.toLowerCase().includes(text) ? "" : "none";
  });
});
"""

_STYLE = """
body { font-family: sans-serif; font-size: 13px; margin: 1em; }
table { border-collapse: collapse; }
th { cursor: pointer; background: #eee; position: sticky; top: 0; }
th[data-order="up"]::after { content: " \\25B2"; } th[data-order="down"]::after { content: " \\25BC"; }
th, td { border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; text-align: left; }
input { margin: 0.5em 0; width: 30em; }
"""


def sortable_page(table: pd.DataFrame, title: str, intro: str = "") -> str:
    """One HTML page holding ``table``, sortable by any column and filterable by text."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in table.columns)
    rows = []
    for values in table.itertuples(index=False):
        cells = []
        for value in values:
            text = "" if value is None or (isinstance(value, float) and pd.isna(value)) else str(value)
            cells.append(f"<td>{html.escape(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (
        f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{_STYLE}</style></head><body>\n<h1>{html.escape(title)}</h1>\n"
        + (f"<p>{html.escape(intro)}</p>\n" if intro else "")
        + f"<input placeholder='filter rows by any text'>\n<table><thead><tr>{head}</tr></thead><tbody>\n"
        + "\n".join(rows)
        + f"\n</tbody></table>\n<script>{_SCRIPT}</script>\n</body></html>\n"
    )
