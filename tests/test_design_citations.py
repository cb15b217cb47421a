"""Every citation of the design names a section that DESIGN.md has (issue 33: the principles
the code cites live in the project, so a clone stands alone).

A citation is "DESIGN > SECTION" (``DESIGN > Layers``, ``DESIGN > Models to follow``) or
"DESIGN > Principles N" (also "Principles 9 and 10", "Principles 9, 10 and 12"), possibly broken
across lines; it is looked for in the source, the tests, the benchmarks and the documents.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "DESIGN.md"
CITATION = re.compile(r"DESIGN\s+>\s+")
PRINCIPLES = re.compile(r"Principles\s+(\d+(?:(?:,\s*|\s+and\s+)\d+)*)")


def _sections() -> tuple[set[str], set[int]]:
    """DESIGN.md's section titles and its principles' numbers."""
    text = DESIGN.read_text(encoding="utf-8")
    titles = {line[3:].strip() for line in text.splitlines() if line.startswith("## ")}
    principles = text.split("## Principles", 1)[1].split("\n## ", 1)[0]
    numbers = {int(found) for found in re.findall(r"^(\d+)\. \*\*", principles, re.M)}
    return titles, numbers


def _cited_files() -> list[Path]:
    found = [*ROOT.glob("*.md")]
    for folder in ("src", "tests", "benchmarks"):
        found += [path for path in (ROOT / folder).rglob("*") if path.suffix in (".py", ".md")]
    return [path for path in found if path.name not in ("DESIGN.md", Path(__file__).name)]


def citations(text: str, titles: set[str]) -> list[tuple[str, list[int]]]:
    """Each citation in ``text``: the section of ``titles`` it names (its first words, when it
    names none) and the principles' numbers."""
    flat = re.sub(r"\s*\n\s*(?:#\s*)?", " ", text)  # a citation broken over lines (or comments)
    found = []
    for match in CITATION.finditer(flat):
        rest = flat[match.end() :]
        section = next((title for title in sorted(titles, key=len, reverse=True)
                        if rest.startswith(title)), " ".join(rest.split()[:2]))  # fmt: skip
        principles = PRINCIPLES.match(rest) if section == "Principles" else None
        numbers = [int(n) for n in re.findall(r"\d+", principles.group(1))] if principles else []
        found.append((section, numbers))
    return found


def test_every_citation_names_a_section_of_design_md() -> None:
    """Each "DESIGN > X" in the project is a section of DESIGN.md, each principle's number one
    of its principles."""
    titles, numbers = _sections()
    wrong, seen = [], 0
    for path in _cited_files():
        for section, cited in citations(path.read_text(encoding="utf-8"), titles):
            seen += 1
            bad_number = section == "Principles" and not (cited and set(cited) <= numbers)
            if section not in titles or bad_number:
                wrong.append(f"{path.relative_to(ROOT)}: DESIGN > {section} {cited}")
    assert wrong == []
    assert seen > 50  # the code does cite it: the pattern finds them


def test_a_citation_is_read_whole() -> None:
    """Line breaks, lists of principles and multi-word sections are read as one citation."""
    text = "(DESIGN >\n  Principles 9, 10 and 12), DESIGN > Models to follow, DESIGN > Nowhere 3."
    titles = {"Principles", "Models to follow", "Layers"}
    assert citations(text, titles) == [
        ("Principles", [9, 10, 12]),
        ("Models to follow", []),
        ("Nowhere 3.", []),
    ]
