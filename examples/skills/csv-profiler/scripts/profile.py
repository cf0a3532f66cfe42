#!/usr/bin/env python3
"""Profile a CSV file: columns, inferred types, nulls, distinct values, min/max.

Standard library only. Streams the file, so memory stays bounded on large inputs
(distinct values are tracked up to a cap per column).

usage: profile.py FILE [--delimiter C] [--encoding ENC] [--max-rows N] [--json]
       profile.py - < data.csv
"""

import argparse
import csv
import io
import json
import math
import re
import sys
from collections import Counter

NULL_TOKENS = {"", "na", "n/a", "nan", "null", "none", "nil", "-", "?", "#n/a"}
TRUE_TOKENS = {"true", "yes", "y", "t"}
FALSE_TOKENS = {"false", "no", "n", "f"}
DISTINCT_CAP = 10_000
TOP_N = 5

INT_RE = re.compile(r"^[+-]?\d{1,18}$")
FLOAT_RE = re.compile(r"^[+-]?(\d+\.\d*|\.\d+|\d+)([eE][+-]?\d+)?$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DATETIME_RE = re.compile(
    r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$"
)

# Narrowest first; a column's type is the narrowest one every non-null value fits.
TYPE_ORDER = ["boolean", "integer", "float", "date", "datetime", "string"]


def classify(value):
    """Return the narrowest type a single non-null value fits."""
    low = value.lower()
    if low in TRUE_TOKENS or low in FALSE_TOKENS:
        return "boolean"
    if INT_RE.match(value):
        return "integer"
    if FLOAT_RE.match(value):
        return "float"
    if DATE_RE.match(value):
        return "date"
    if DATETIME_RE.match(value):
        return "datetime"
    return "string"


def combine(types):
    """Collapse the set of per-value types seen in a column into one column type."""
    if not types:
        return "empty"
    if len(types) == 1:
        return next(iter(types))
    if types <= {"integer", "float"}:
        return "float"
    if types <= {"date", "datetime"}:
        return "datetime"
    # 0/1 columns look like integers and booleans at once.
    if types <= {"boolean", "integer"}:
        return "integer"
    return "string"


class Column:
    def __init__(self, name):
        self.name = name
        self.count = 0
        self.nulls = 0
        self.types = Counter()
        self.values = Counter()
        self.distinct_overflow = False
        self.num_min = math.inf
        self.num_max = -math.inf
        self.num_sum = 0.0
        self.num_count = 0
        self.text_min = None
        self.text_max = None
        self.len_min = math.inf
        self.len_max = 0

    def add(self, raw):
        self.count += 1
        value = raw.strip()
        if value.lower() in NULL_TOKENS:
            self.nulls += 1
            return
        kind = classify(value)
        self.types[kind] += 1
        if kind in ("integer", "float"):
            number = float(value)
            if math.isfinite(number):
                self.num_min = min(self.num_min, number)
                self.num_max = max(self.num_max, number)
                self.num_sum += number
                self.num_count += 1
        if self.text_min is None or value < self.text_min:
            self.text_min = value
        if self.text_max is None or value > self.text_max:
            self.text_max = value
        self.len_min = min(self.len_min, len(value))
        self.len_max = max(self.len_max, len(value))
        if value in self.values or len(self.values) < DISTINCT_CAP:
            self.values[value] += 1
        else:
            self.distinct_overflow = True

    def report(self):
        kind = combine(set(self.types))
        present = self.count - self.nulls
        out = {
            "name": self.name,
            "type": kind,
            "rows": self.count,
            "nulls": self.nulls,
            "null_pct": round(100.0 * self.nulls / self.count, 2) if self.count else 0.0,
            "distinct": len(self.values),
            "distinct_is_lower_bound": self.distinct_overflow,
        }
        if kind in ("integer", "float") and self.num_count:
            as_int = kind == "integer"
            out["min"] = int(self.num_min) if as_int else self.num_min
            out["max"] = int(self.num_max) if as_int else self.num_max
            out["mean"] = round(self.num_sum / self.num_count, 6)
        elif present:
            # ISO dates sort correctly as text; for strings this is the lexical range.
            out["min"] = self.text_min
            out["max"] = self.text_max
        if present:
            out["length_min"] = self.len_min
            out["length_max"] = self.len_max
        if len(set(self.types)) > 1:
            out["mixed_types"] = dict(self.types.most_common())
        if present and (len(self.values) <= 50 or kind == "boolean"):
            out["top"] = [[v, n] for v, n in self.values.most_common(TOP_N)]
        # A column with no nulls and no repeated value could serve as a key.
        if (self.nulls == 0 and present > 1 and not self.distinct_overflow
                and len(self.values) == present and kind in ("integer", "string")):
            out["unique"] = True
        return out


def sniff_dialect(sample, forced):
    if forced:
        delimiter = "\t" if forced in ("\\t", "tab") else forced
        return delimiter
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def profile(stream, delimiter, max_rows):
    sample = stream.read(64 * 1024)
    rest = stream
    delimiter = sniff_dialect(sample, delimiter)
    text = io.StringIO(sample)
    reader = csv.reader(_chain(text, rest), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        return {"delimiter": delimiter, "rows": 0, "columns": [], "warnings": ["file is empty"]}

    names = []
    seen = Counter()
    for i, h in enumerate(header):
        name = h.strip() or f"column_{i + 1}"
        seen[name] += 1
        names.append(name if seen[name] == 1 else f"{name}_{seen[name]}")
    columns = [Column(n) for n in names]
    warnings = []
    if len(set(h.strip() for h in header)) != len(header):
        warnings.append("duplicate or empty header names were renamed")

    rows = 0
    ragged = 0
    for row in reader:
        if max_rows and rows >= max_rows:
            warnings.append(f"stopped after {max_rows} rows (--max-rows)")
            break
        if not row:
            continue
        rows += 1
        if len(row) != len(columns):
            ragged += 1
        for col, value in zip(columns, row):
            col.add(value)
        for col in columns[len(row):]:
            col.add("")
    if ragged:
        warnings.append(f"{ragged} row(s) had a different number of fields than the header")

    return {
        "delimiter": delimiter,
        "rows": rows,
        "columns": [c.report() for c in columns],
        "warnings": warnings,
    }


def _chain(first, second):
    for line in first:
        # The sample may end mid-line: glue it to the start of the remaining stream.
        if not line.endswith("\n"):
            line += second.readline()
        yield line
    yield from second


def render_text(result, source):
    lines = [
        f"file: {source}",
        f"rows: {result['rows']}  columns: {len(result['columns'])}  "
        f"delimiter: {result['delimiter']!r}",
        "",
    ]
    if not result["columns"]:
        lines.extend(f"warning: {w}" for w in result["warnings"])
        return "\n".join(lines)
    header = ["column", "type", "nulls", "null%", "distinct", "min", "max"]
    table = [header]
    for c in result["columns"]:
        distinct = f"{c['distinct']}+" if c["distinct_is_lower_bound"] else str(c["distinct"])
        table.append([
            c["name"], c["type"], str(c["nulls"]), f"{c['null_pct']:.1f}", distinct,
            _short(c.get("min", "")), _short(c.get("max", "")),
        ])
    widths = [max(len(r[i]) for r in table) for i in range(len(header))]
    for n, r in enumerate(table):
        lines.append("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(r)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    notes = []
    for c in result["columns"]:
        if "mixed_types" in c:
            notes.append(f"{c['name']}: mixed values {c['mixed_types']}")
        if c.get("unique"):
            notes.append(f"{c['name']}: every non-null value is unique (candidate key)")
        if c["type"] == "empty":
            notes.append(f"{c['name']}: no non-null values")
    if notes or result["warnings"]:
        lines.append("")
        lines.extend(f"note: {n}" for n in notes)
        lines.extend(f"warning: {w}" for w in result["warnings"])
    return "\n".join(lines)


def _short(value, width=24):
    text = str(value)
    return text if len(text) <= width else text[: width - 1] + "~"


def main(argv=None):
    parser = argparse.ArgumentParser(description="Profile the columns of a CSV file.")
    parser.add_argument("file", help="CSV file, or - for standard input")
    parser.add_argument("--delimiter", help="field separator (default: sniffed); 'tab' for tabs")
    parser.add_argument("--encoding", default="utf-8-sig", help="text encoding (default utf-8-sig)")
    parser.add_argument("--max-rows", type=int, default=0, help="stop after N data rows")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    csv.field_size_limit(16 * 1024 * 1024)
    try:
        if args.file == "-":
            stream = io.TextIOWrapper(sys.stdin.buffer, encoding=args.encoding, newline="")
            result = profile(stream, args.delimiter, args.max_rows)
        else:
            with open(args.file, encoding=args.encoding, newline="") as stream:
                result = profile(stream, args.delimiter, args.max_rows)
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        print(f"profile.py: {exc}", file=sys.stderr)
        return 2

    if args.json:
        json.dump({"file": args.file, **result}, sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        print(render_text(result, args.file))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # Output piped into `head` or similar: stop quietly.
        sys.stderr.close()
        sys.exit(0)
