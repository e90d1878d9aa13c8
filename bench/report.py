#!/usr/bin/env python3
"""report.py DIR: turns what bench/run.sh wrote in DIR into results.md
(tables of times, ratios and floors) and results.gp (a gnuplot script with
its data, drawing results.png).

Inputs, all in DIR: results.csv (benchmark,variant,size,ms_median,
ms_first), work.csv (benchmark,size,bytes_in,bytes_out,flop), profile.csv
(benchmark,variant,size,kernel_ms), failures.txt, machine.txt, notes.txt.

"Flat" in the ratios is the faster of the flat-* variants that ran and
passed their check; "vendor" is cuBLAS with the same transfers (variant
cublas).  A ratio below 1 means Flat is faster.  Python 3 standard
library only, so that it runs on the GPU machine as it is.
"""

import csv
import os
import sys

VARIANTS = ["seq", "omp", "acc", "flat-cuda", "flat-opencl", "cublas",
            "cublas-dev"]
FLAT = ["flat-cuda", "flat-opencl"]


def read_rows(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.reader(f))


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def fmt_ms(x):
    if x is None:
        return "–"
    if x >= 100:
        return "%.0f" % x
    if x >= 10:
        return "%.1f" % x
    if x >= 1:
        return "%.2f" % x
    return "%.3f" % x


def fmt_ratio(a, b):
    if a is None or b is None or b <= 0:
        return "–"
    r = a / b
    if r >= 100:
        return "%.0f" % r
    if r >= 10:
        return "%.1f" % r
    if r >= 1:
        return "%.2f" % r
    return "%.2g" % r


class Results:
    """Everything run.sh measured, keyed by dataset (benchmark, size)."""

    def __init__(self, d):
        self.times = {}      # (b, size) -> {variant: (median, first)}
        self.order = []      # datasets in the order they ran
        self.copies = {}     # (b, variant) -> (median ms, size)
        for row in read_rows(os.path.join(d, "results.csv"))[1:]:
            b, v, size, med, first = row
            if b.startswith("copy_"):
                self.copies[(b, v)] = (float(med), size)
                continue
            key = (b, size)
            if key not in self.times:
                self.times[key] = {}
                self.order.append(key)
            self.times[key][v] = (float(med), float(first))
        self.work = {}
        for row in read_rows(os.path.join(d, "work.csv"))[1:]:
            self.work[(row[0], row[1])] = tuple(float(x) for x in row[2:])
        self.kernel = {}
        for b, v, size, ms in read_rows(os.path.join(d, "profile.csv")):
            self.kernel[(b, v, size)] = float(ms)
        self.failures = read_lines(os.path.join(d, "failures.txt"))
        self.failed = set()
        for line in self.failures:
            parts = line.split(",")
            if parts[0] == "FAIL":
                self.failed.add((parts[1], parts[2], parts[3]))
        self.machine = read_lines(os.path.join(d, "machine.txt"))
        self.notes = read_lines(os.path.join(d, "notes.txt"))
        self.variants = [v for v in VARIANTS
                         if any(v in t for t in self.times.values())]

    def median(self, key, v):
        t = self.times[key].get(v)
        if t is None or (key[0], v, key[1]) in self.failed:
            return None
        return t[0]

    def flat(self, key):
        """(variant, median) of the faster Flat variant, or (None, None)."""
        best = (None, None)
        for v in FLAT:
            m = self.median(key, v)
            if m is not None and (best[1] is None or m < best[1]):
                best = (v, m)
        return best

    def bandwidth(self, b, v):
        """Bytes per ms of a copy (read + written), or None."""
        t = self.copies.get((b, v))
        w = t and self.work.get((b, t[1]))
        if not w:
            return None
        return (w[0] + w[1]) / t[0]

    def bus_floor(self, key, kind):
        """Ms to move the dataset's inputs in and outputs out over the bus
        from KIND (pinned or pageable) host memory."""
        h2d = self.bandwidth("copy_h2d", kind)
        d2h = self.bandwidth("copy_d2h", kind)
        w = self.work.get(key)
        if not (h2d and d2h and w):
            return None
        return w[0] / h2d + w[1] / d2h

    def device_floor(self, key):
        """Ms to read the inputs and write the outputs once in device
        memory at the best measured device copy bandwidth."""
        bws = [bw for bw in (self.bandwidth("copy_d2d", v)
                             for v in ("cudaMemcpy", "kernel")) if bw]
        w = self.work.get(key)
        if not (bws and w):
            return None
        return (w[0] + w[1]) / max(bws)


def cell(res, key, v):
    t = res.times[key].get(v)
    if t is None:
        return "–"
    if (key[0], v, key[1]) in res.failed:
        return "FAIL"
    return fmt_ms(t[0])


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(" --- " for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def markdown(res):
    md = ["# Flat benchmarks, side by side", ""]
    md += ["Machine: " + "; ".join(res.machine) + ".", ""]
    if res.notes:
        md += ["Notes from run.sh:", ""]
        md += ["* " + n for n in res.notes]
        md += [""]

    md += ["## Median time per call (ms)", "",
           "Whole marked region per call, host-device transfers included "
           "(none for seq and omp; cublas-dev alone has its data on the "
           "device already). Flat = the faster flat-* variant; vendor = "
           "cublas (same transfers). Ratios are time over time: below 1, "
           "Flat is faster.", ""]
    header = ["benchmark", "size"] + res.variants + \
             ["Flat/acc", "Flat/vendor", "Flat/seq"]
    rows = []
    for key in res.order:
        _, f = res.flat(key)
        rows.append([key[0], key[1]]
                    + [cell(res, key, v) for v in res.variants]
                    + [fmt_ratio(f, res.median(key, "acc")),
                       fmt_ratio(f, res.median(key, "cublas")),
                       fmt_ratio(f, res.median(key, "seq"))])
    md += table(header, rows) + [""]

    md += ["## Where Flat's time goes", "",
           "kernels: Flat's kernel time per call (FLAT_PROFILE, launch to "
           "finish, mean over all calls including the first). bus floor: "
           "the inputs' bytes over the measured host-to-device bandwidth "
           "plus the outputs' bytes over the device-to-host one, from "
           "pinned or pageable (malloc) memory; Flat and OpenACC copy from "
           "pageable memory. device floor: inputs read and outputs written "
           "once at the measured device copy bandwidth.", ""]
    header = ["benchmark", "size", "Flat", "Flat (ms)", "kernels (ms)",
              "share in kernels", "bus floor pinned (ms)",
              "bus floor pageable (ms)", "Flat / pageable floor",
              "device floor (ms)"]
    rows = []
    for key in res.order:
        v, f = res.flat(key)
        if v is None:
            continue
        k = res.kernel.get((key[0], v, key[1]))
        pageable = res.bus_floor(key, "pageable")
        rows.append([key[0], key[1], v, fmt_ms(f), fmt_ms(k),
                     "–" if k is None else "%.0f %%" % (100.0 * k / f),
                     fmt_ms(res.bus_floor(key, "pinned")), fmt_ms(pageable),
                     fmt_ratio(f, pageable), fmt_ms(res.device_floor(key))])
    md += table(header, rows) + [""]

    md += ["## First call (ms)", "",
           "The first call of the region in a fresh process: device "
           "initialisation and kernel compilation (Flat: its kernels from "
           "source, with an empty kernel cache; OpenACC: the driver's JIT "
           "of GCC's PTX) come on top of one call.", ""]
    header = ["benchmark", "size"] + res.variants
    rows = [[key[0], key[1]]
            + [fmt_ms(res.times[key][v][1]) if v in res.times[key] else "–"
               for v in res.variants]
            for key in res.order]
    md += table(header, rows) + [""]

    if res.copies:
        md += ["## Copy bandwidth (GB/s, bytes read + written)", ""]
        rows = []
        for (b, v), (ms, size) in sorted(res.copies.items()):
            bw = res.bandwidth(b, v)
            rows.append([b, v, size, fmt_ms(ms),
                         "–" if bw is None else "%.1f" % (bw / 1e6)])
        md += table(["copy", "how", "size", "ms", "GB/s"], rows) + [""]

    md += ["## Failures", ""]
    md += ["* " + f for f in res.failures] if res.failures else ["None."]
    return "\n".join(md) + "\n"


def gnuplot(res):
    """A script drawing the median times as a clustered histogram."""
    data = ["dataset " + " ".join(res.variants)]
    for key in res.order:
        vals = []
        for v in res.variants:
            m = res.median(key, v)
            vals.append("?" if m is None else "%.6g" % m)
        data.append('"%s %s" %s' % (key[0], key[1], " ".join(vals)))
    n = len(res.variants) + 1
    return "\n".join([
        "# Median ms per call of each benchmark and variant (bench/run.sh).",
        "# gnuplot results.gp  writes results.png.",
        "set terminal pngcairo noenhanced size 1600,800 font ',10'",
        "set output 'results.png'",
        "set title 'Flat benchmarks: median ms per call, transfers included"
        " (log scale, lower is better)'",
        "set datafile missing '?'",
        "set style data histograms",
        "set style histogram clustered gap 1",
        "set style fill solid 0.8 border -1",
        "set logscale y",
        "set ylabel 'ms per call'",
        "set xtics rotate by -40 left nomirror",
        "set grid ytics",
        "set key outside right top",
        "set bmargin 9",
        "$data << EOD"] + data + [
        "EOD",
        "plot for [i=2:%d] $data using i:xtic(1) title columnheader(i)" % n,
        ""])


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: report.py DIR")
    d = sys.argv[1]
    res = Results(d)
    with open(os.path.join(d, "results.md"), "w") as f:
        f.write(markdown(res))
    with open(os.path.join(d, "results.gp"), "w") as f:
        f.write(gnuplot(res))


if __name__ == "__main__":
    main()
