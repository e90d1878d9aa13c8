#!/usr/bin/env python3
"""report.py (bench/versions-report.py): versions.csv -> a markdown table
per benchmark: for each dataset the median ms of every column, the best
single version, and the ratios of the default thresholds, the hand-picked
ones (tuned), those of flat-tune's search (autotuned), moderate and full
flattening to that best version (lower is better; 1.00 means as fast as
the best version)."""
import csv
import sys


def main():
    rows = list(csv.reader(open("versions.csv")))
    data = {}
    for r in rows:
        if len(r) < 5:
            continue
        bench, label, size, ms = r[0], r[1], r[2], float(r[3])
        data.setdefault(bench, {}).setdefault(size, {})[label] = ms
    machine = open("machine.txt").read().strip().splitlines()
    print("# Code versions of incremental flattening\n")
    for line in machine:
        print("    " + line)
    print()
    for bench, sizes in data.items():
        labels = []
        for cols in sizes.values():
            for label in cols:
                if label not in labels:
                    labels.append(label)
        versions = [l for l in labels if l.startswith("v")]
        print("## %s (ms per call, median)\n" % bench)
        head = ["dataset"] + labels + ["best version", "default/best",
                                       "tuned/best", "autotuned/best",
                                       "moderate/best", "full/best",
                                       "default/moderate"]
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for size, cols in sizes.items():
            cells = [size] + ["%.3f" % cols[l] if l in cols else "-"
                              for l in labels]
            timed = [(cols[v], v) for v in versions if v in cols]
            if timed:
                best_ms, best = min(timed)
                cells.append(best)
                for l in ("default", "tuned", "autotuned", "moderate",
                          "full"):
                    cells.append("%.2f" % (cols[l] / best_ms)
                                 if l in cols else "-")
                cells.append("%.2f" % (cols["default"] / cols["moderate"])
                             if "default" in cols and "moderate" in cols
                             else "-")
            else:
                cells += ["-"] * 7
            print("| " + " | ".join(cells) + " |")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
