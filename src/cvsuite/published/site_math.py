"""The documents' sentences as a browser shows them: text escaped, TeX between dollars as MathML.

The registry quotes each sentence as the document prints it, math in TeX (``$R_{\\text{emp}}$``,
``$81{,}050$``). The site renders the math with latex2mathml, whose MathML Chromium and Firefox draw
natively, so no script and no network are needed, and escapes everything else, so a sentence can
never inject markup.
"""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$", re.S)
MATHML = "http://www.w3.org/1998/Math/MathML"
ET.register_namespace("", MATHML)
# Presentation MathML: anything else in the converter's output (it copies \text{...} verbatim, so a
# "<script>" there would come out as an element) sends the formula back as escaped source.
_ELEMENTS = {
    "math", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msub", "msup", "msubsup", "munder", "mover",
    "munderover", "mfrac", "msqrt", "mroot", "mstyle", "mpadded", "mphantom", "menclose", "mtable", "mtr",
    "mtd", "mlabeledtr", "merror",
}  # fmt: skip


def sentence_html(text: str) -> str:
    """``text`` as HTML safe to insert unescaped: TeX between ``$...$`` (or ``$$...$$``, a block) as
    MathML, every other character escaped."""
    text = "" if text is None else str(text)
    parts, last = [], 0
    for match in _MATH.finditer(text):
        parts.append(html.escape(text[last : match.start()]))
        block, inline = match.groups()
        parts.append(math_html(block if block is not None else inline, display="block" if block else "inline"))
        last = match.end()
    parts.append(html.escape(text[last:]))
    return "".join(parts)


def math_html(tex: str, display: str = "inline") -> str:
    """One TeX formula as MathML; TeX latex2mathml cannot read is shown as escaped code instead."""
    try:
        tree = ET.fromstring(convert(tex, display=display))
    except Exception:  # noqa: BLE001 - any failure of the third-party converter or of its output: show the source
        return f"<code>{html.escape(tex)}</code>"
    if any(element.tag.removeprefix(f"{{{MATHML}}}") not in _ELEMENTS for element in tree.iter()):
        return f"<code>{html.escape(tex)}</code>"
    return ET.tostring(tree, encoding="unicode")  # serialised anew: every text node escaped
