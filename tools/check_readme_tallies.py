#!/usr/bin/env python3
"""Checks the README's table of measured own launches against the records it summarizes.

For each row naming `corpus/<topic>` folders (or `examples/launches.txt`), "measured" must be the
number of records with status ok in tests/data/h200/corpus/<topic>.jsonl (examples_h200.jsonl),
and "equal on every figure" that number less the launches named in the topic's known-differences
file. Prints README.md:line: and the mismatch; exits 1 on any.

  usage: tools/check_readme_tallies.py [ROOT]
"""
import json, re, sys
from pathlib import Path

root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
data = root / "tests/data/h200"

def files(topic):
    if topic == "examples":
        return data / "examples_h200.jsonl", data / "examples_known_differences.txt"
    return data / f"corpus/{topic}.jsonl", data / f"corpus/{topic}_known.txt"

def tally(topic):
    records, known = files(topic)
    ok = sum(1 for l in records.read_text().splitlines() if l.strip() and json.loads(l).get("status") == "ok")
    differing = {l.split()[0] for l in known.read_text().splitlines() if l.strip() and not l.startswith("#")}
    return ok, ok - len(differing)

failures = rows = 0
for number, line in enumerate((root / "README.md").read_text().splitlines(), 1):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) != 4 or not cells[1].isdigit():
        continue
    topics = re.findall(r"`corpus/(\w+)`", cells[0])
    if "`examples/launches.txt`" in cells[0]:
        topics.append("examples")
    if not topics:
        continue
    rows += 1
    measured = equal = 0
    for t in topics:
        m, e = tally(t)
        measured, equal = measured + m, equal + e
    if (int(cells[1]), int(cells[2])) != (measured, equal):
        failures += 1
        print(f"README.md:{number}: says {cells[1]} measured, {cells[2]} equal; the records give {measured} and {equal} ({', '.join(topics)})")
if rows == 0:
    print("README.md: no row of the measured-launches table found"); failures += 1
sys.exit(1 if failures else 0)
