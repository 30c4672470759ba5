# SPDX-License-Identifier: BSD-3-Clause
"""The rules of docs/output.md ("Field names", "Every record") that JSON Schema cannot say.

rule_problems(schema) -> list of problems of the schema itself:
  - every property of every record type has a description (or is a $ref to a described one);
  - every numeric field says its unit in its name, as the last part before a statistic's
    suffix (_median, _q1, _q3, _ci95_low, _ci95_high, _samples): _usec, _sec, bytes, _mib,
    _gib, mib_per_sec (2^20 B/s), mb_per_sec (10^6 B/s), mbit_per_sec (10^6 bit/s), messages_per_sec, _percent - or is
    one of COUNTS;
  - no field name uses a spelling the rule replaced (_us, _mbs, mbytes, _mb, _gb);
  - one name, one unit and one kind of value across all record types, and no description
    that gives a *_mb_per_sec field 2^20 bytes or a *_mib_per_sec field 10^6;
  - every record type requires type, schema_version, run_id and suite.
record_problems(records, schema) -> list of problems of one JSON Lines file's records:
  - every record names the schema's version, one run id (the same on every record) and the
    suite of the header it follows (a main job's phases nest their header..summary inside
    the job's, so the suite returns to the job's after each phase's summary).

Run as a script on the schema file: exit 1 and the problems, or "ok: ...".
"""
import json
import re
import sys

# Numeric fields that are counts, indices, ratios or identifiers: no unit.
COUNTS = {
    "bound_ranks", "compute_iterations", "defects", "epochs", "errors", "exit_status", "group",
    "groups", "hosts", "idle", "inner_iterations", "logavg_errors", "looplength",
    "messages_per_iteration", "messages_within_host", "n", "node_of_rank", "nodes", "ops",
    "participants", "partition", "partners", "partners_on_same_node", "pattern", "phase",
    "position", "processes", "processes_needed", "random_patterns", "ranks_per_host_max",
    "ranks_per_host_min", "release21_partition", "weighted_partition", "repetition",
    "repetitions", "repetitions_minimum", "rows", "sample_count", "schema_version", "seed",
    "ci95_coverage",  # a probability (0..1): the exact coverage of the median's interval
    "size_index", "steps_rank0", "ticks_min_sample", "time_units", "wrong_results",
    "messages", "grid",  # IMB-P2P: messages its figures count, the stencils' grid sides
    # The header's hardware and placement (hwloc): counts and logical indices.
    "host_count", "packages", "cores", "hardware_threads", "numa_nodes",
    "network_devices_not_listed", "placement_listed", "rank", "core", "numa_node", "package",
    "cpu",
    "round", "pairs", "outlier_links", "rank_a", "rank_b",  # mpibench map and levels
}

# (suffix, unit): the first that ends the name (after a statistic's suffix is taken off).
UNITS = [
    ("mbit_per_sec", "Mbit/s"),
    ("mib_per_sec", "MiB/s"),
    ("mb_per_sec", "MB/s"),
    ("_usec", "usec"),
    ("messages_per_sec", "1/s"),
    ("_sec", "s"),
    ("bytes", "bytes"),
    ("_mib", "MiB"),
    ("_gib", "GiB"),
    ("_percent", "%"),
]
STATISTICS = re.compile(r"_(median|q1|q3|ci95_low|ci95_high|samples)$")
REPLACED = re.compile(r"(_us|_mbs|mbytes|_mb|_gb|_kb|_ms)(_|$)")
# A description that contradicts the unit of the name (the bug of schema version 1).
CONTRADICTS = {"MB/s": re.compile(r"2\^20|MiB"), "MiB/s": re.compile(r"10\^6|1e6"),
               "usec": re.compile(r"\bseconds\b"), "s": re.compile(r"microsecond|usec")}
COMMON = ("type", "schema_version", "run_id", "suite")


def split_unit(name):
    """(the name without its unit and statistic, the unit or None)."""
    base = STATISTICS.sub("", name)
    for suffix, unit in UNITS:
        if base == suffix.lstrip("_") or base.endswith(suffix):
            return base[:-len(suffix)], unit
    return base, None


def unit_of(name):
    return split_unit(name)[1]


def _kind(prop):
    """'number', 'string', 'boolean', 'object', 'array:<kind>' or 'ref' of a property."""
    if "$ref" in prop:
        return "ref"
    if "const" in prop:
        c = prop["const"]
        return "boolean" if isinstance(c, bool) else "number" if isinstance(c, (int, float)) \
            else "string"
    if "enum" in prop and "type" not in prop:
        return "string"
    t = prop.get("type")
    t = [x for x in t if x != "null"][0] if isinstance(t, list) else t
    if t in ("integer", "number"):
        return "number"
    if t == "array":
        return "array:" + _kind(prop.get("items", {}))
    return t or "?"


def record_types(schema):
    return {n: d for n, d in schema["definitions"].items() if "type" in d.get("properties", {})}


def rule_problems(schema):
    problems = []
    seen = {}  # name -> (unit, kind, record type)
    for rtype, d in sorted(record_types(schema).items()):
        missing = [c for c in COMMON if c not in d.get("required", [])]
        if missing:
            problems.append(f"{rtype}: does not require {', '.join(missing)}")
        for name, prop in d["properties"].items():
            where = f"{rtype}.{name}"
            if "$ref" not in prop and not prop.get("description", "").strip():
                problems.append(f"{where}: no description")
            kind = _kind(prop).replace("array:", "")  # an array of lengths: still bytes
            unit = unit_of(name)
            if REPLACED.search(split_unit(name)[0]):
                problems.append(f"{where}: a unit spelling the field-name rule replaced")
            if kind == "number" and unit is None and name not in COUNTS:
                problems.append(f"{where}: a number whose name has no unit (_usec, _sec, "
                                "bytes, mib_per_sec, mb_per_sec, ...) and is not a count")
            bad = CONTRADICTS.get(unit)
            if bad and bad.search(prop.get("description", "")):
                problems.append(f"{where}: the description contradicts the unit {unit}")
            if name in seen and seen[name][:2] != (unit, kind) and "ref" not in (kind, seen[name][1]):
                problems.append(f"{where}: {kind} in {unit or 'no unit'}, but "
                                f"{seen[name][2]}.{name} is {seen[name][1]} in "
                                f"{seen[name][0] or 'no unit'}")
            seen.setdefault(name, (unit, kind, rtype))
    return problems


def record_problems(records, schema):
    version = schema["definitions"]["schema_version"]["const"]
    problems = []
    ids = set()
    stack = []  # the suites of the open header..summary spans
    for n, r in enumerate(records, 1):
        what = f"record {n} ({r.get('type')})"
        if r.get("schema_version") != version:
            problems.append(f"{what}: schema_version {r.get('schema_version')!r}, "
                            f"expected {version}")
        if not r.get("run_id"):
            problems.append(f"{what}: no run_id")
        ids.add(r.get("run_id"))
        if r.get("type") == "header":
            stack.append(r.get("suite"))
        if not stack or r.get("suite") != stack[-1]:
            problems.append(f"{what}: suite {r.get('suite')!r}, but it follows the header of "
                            f"{stack[-1] if stack else None!r}")
        if r.get("type") == "summary" and stack:
            stack.pop()
    if len(ids) > 1:
        problems.append(f"{len(ids)} run ids in one file: {sorted(map(str, ids))[:4]}")
    return problems


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        doc = json.load(f)
    found = rule_problems(doc)
    for p in found:
        print(p)
    if found:
        print(f"FAILED: {len(found)} problems")
        sys.exit(1)
    print(f"ok: {len(record_types(doc))} record types, "
          f"{sum(len(d['properties']) for d in record_types(doc).values())} fields")
