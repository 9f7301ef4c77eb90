"""The documents' vague words on a few named scales: registry/scales.yaml.

A vague word ("a few percent", "almost every", "strongly") decides a verdict only through the bound
it is held to, so the bound is written once, where a referee reads it beside its reason. A scale
says what its words are measured against (its ``yardstick``: a share of the truth, a multiple of
the quantity compared, standard errors, a correlation, a share of the cases counted) and quotes the
document that sets that yardstick; each of its words has its bound (``at_least``, ``above``,
``at_most``, ``below``), the synonyms held to the same bound, and ``why``.

A record uses a word in one way only: as its judge's word (``{size: a few percent}``,
``{sign: no such bias}``). A word names its bound on its home scale, the first that lists it; a
reading whose yardstick is another scale's names that scale too
(``{size: {word: a few percent, scale: <name>}}``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cvsuite.published.registry_files import RecordError, load_yaml_text

SCALES_FILE = "scales.yaml"
BOUND_KEYS = ("at_least", "above", "at_most", "below")
SCALE_KEYS = {"yardstick", "document", "quote", "words"}
WORD_KEYS = {*BOUND_KEYS, "synonyms", "why"}


@dataclass(frozen=True)
class Word:
    """A vague word on its scale: its bounds (as written), its synonyms and the reason for the bound."""

    word: str
    scale: str
    bounds: dict[str, str]
    synonyms: tuple[str, ...]
    why: str

    @property
    def names(self) -> tuple[str, ...]:
        return (self.word, *self.synonyms)


@dataclass(frozen=True)
class Scale:
    """A yardstick, the document quote that sets it, and the words measured on it."""

    name: str
    yardstick: str
    document: str
    quote: str
    words: tuple[Word, ...]


@dataclass(frozen=True)
class Scales:
    """Every scale, in the file's order."""

    scales: tuple[Scale, ...]

    @property
    def words(self) -> dict[str, dict[str, str]]:
        """The bounds every judge reads, by name: each word and synonym on its home scale (the first
        that lists it) as ``<word>``, and on every scale as ``<scale>/<word>``. Each entry holds its
        bounds, ``why``, ``scale`` and ``word`` (the word whose bound a synonym shares)."""
        flat: dict[str, dict[str, str]] = {}
        for scale in self.scales:
            for word in scale.words:
                entry = {**word.bounds, "why": word.why, "scale": scale.name, "word": word.word}
                for name in word.names:
                    flat.setdefault(name, entry)
                    flat[f"{scale.name}/{name}"] = entry
        return flat


def read_scales(folder: str | Path) -> Scales:
    """registry/scales.yaml under ``folder``, checked whole: RecordError naming the file, the line and
    the scale or word that is malformed."""
    path = Path(folder) / SCALES_FILE
    if not path.exists():
        raise RecordError(f"{path}: the scales of the vague words are missing")
    label = f"registry/{SCALES_FILE}" if Path(folder).name == "registry" else str(path)
    data = load_yaml_text(path.read_text(encoding="utf-8"), label) or {}
    if not isinstance(data, dict):
        raise RecordError(f"{label}: must map each scale's name to its yardstick, document, quote and words")
    return Scales(tuple(_scale(name, entry, label) for name, entry in data.items()))


def _scale(name: str, entry, label: str) -> Scale:
    line = getattr(entry, "line", "?")
    if not isinstance(entry, dict):
        raise RecordError(f"{label}, line {line}: scale '{name}' must give its yardstick, document, quote and words")
    unknown = sorted(set(entry) - SCALE_KEYS)
    missing = sorted(k for k in SCALE_KEYS if not entry.get(k))
    if unknown or missing:
        problem = f"unknown key(s) {', '.join(unknown)}" if unknown else f"needs {', '.join(missing)}"
        raise RecordError(f"{label}, line {line}: scale '{name}' {problem}")
    if not isinstance(entry["words"], dict):
        raise RecordError(f"{label}, line {line}: scale '{name}': 'words' must map each word to its bound")
    words = tuple(_word(word, value, name, label) for word, value in entry["words"].items())
    names = [n for w in words for n in w.names]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise RecordError(f"{label}, line {line}: scale '{name}' lists {', '.join(repeated)} twice")
    return Scale(name, " ".join(entry["yardstick"].split()), entry["document"], entry["quote"], words)


def _word(word: str, entry, scale: str, label: str) -> Word:
    line = getattr(entry, "line", "?")
    where = f"{label}, line {line}: '{word}' (scale '{scale}')"
    if not isinstance(entry, dict) or not set(BOUND_KEYS) & set(entry):
        raise RecordError(f"{where} needs a bound (at_most, at_least, below or above)")
    unknown = sorted(set(entry) - WORD_KEYS)
    if unknown:
        raise RecordError(f"{where} has unknown key(s) {', '.join(unknown)}")
    if not entry.get("why"):
        raise RecordError(f"{where} needs a 'why': what the bound rests on")
    for key in BOUND_KEYS:
        if key in entry:
            try:
                float(entry[key])
            except ValueError:
                raise RecordError(f"{where}: {key} must be a number") from None
    synonyms = entry.get("synonyms", [])
    if not isinstance(synonyms, list) or not all(isinstance(s, str) and s for s in synonyms):
        raise RecordError(f"{where}: synonyms must be a list of words")
    bounds = {k: entry[k] for k in BOUND_KEYS if k in entry}
    return Word(word, scale, bounds, tuple(synonyms), " ".join(entry["why"].split()))
