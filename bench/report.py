#!/usr/bin/env python3
"""report.py DIR [MORE_DIR...]: turns what bench/run.sh wrote in DIR
(and in MORE_DIRs, other parts of the suite, merged in the order given)
into DIR/results.md (tables of times, ratios and floors) and
DIR/results.gp (a gnuplot script with its data, drawing results.png).

Inputs, in each directory: results.csv (benchmark,variant,size,ms_median,
ms_first), work.csv (benchmark,size,bytes_in,bytes_out,flop), profile.csv
(benchmark,variant,size,kernel_ms), placement.csv (benchmark,variant,size,
device_runs,host_runs), failures.txt, machine.txt, notes.txt,
flat-warnings.txt.

"Flat" in the ratios is the faster of the flat-* variants that ran and
passed their check; "vendor" is cuBLAS with the same transfers (variant
cublas) or, for the reductions, the scan and the histogram, CUB (variant
cub).  A ratio below 1 means Flat is faster.  Benchmarks named
X-resident (inputs kept on the device across calls) and X-data (a data
region around a time loop) are measured on the device variants only;
their seq and omp entries are those of X, the same code on the host, and
so is their cublas-dev entry (cuBLAS on data on the device, their vendor
where CUB has none).  A Flat time is marked where placement.csv says that
its nests did not all run on the device.  The section on reductions,
scans and histograms is written to be pasted into a note.
Python 3 standard library only, so that it runs on the GPU machine as it
is.
"""

import csv
import os
import statistics
import sys

VARIANTS = ["seq", "omp", "acc", "flat-cuda", "flat-opencl", "flat-auto",
            "flat-host", "cublas", "cublas-dev", "cub"]
FLAT = ["flat-cuda", "flat-opencl"]
HOST = ["seq", "omp"]
# Variants that a benchmark kept on the device takes from its base
# benchmark: the host's, and cuBLAS on device data.
FROM_BASE = HOST + ["cublas-dev"]
VENDORS = ["cublas", "cub", "cublas-dev"]
# The benchmarks of reductions, scans and histograms.
REDUCTIONS = ["sum", "dot", "max", "argmax", "scan", "histogram", "rowsums",
          "colsums"]
# Suffixes of the benchmarks whose data stays on the device.
ON_DEVICE = ["-resident", "-data"]


def base_benchmark(b):
    """X for X-resident and X-data, B itself otherwise."""
    for s in ON_DEVICE:
        if b.endswith(s):
            return b[:-len(s)]
    return b


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

    def __init__(self, dirs):
        self.times = {}      # (b, size) -> {variant: (median, first)}
        self.order = []      # datasets in the order they ran
        self.copies = {}     # (b, variant) -> (median ms, size)
        self.work = {}
        self.kernel = {}
        self.placement = {}  # (b, variant, size) -> (device runs, host runs)
        self.failures = []
        self.failed = set()
        self.transfers = []  # (device, MiB, h2d GB/s, d2h GB/s)
        self.machine = []
        self.notes = []
        self.warnings = []
        for d in dirs:
            self.read(d, os.path.basename(os.path.normpath(d))
                      if len(dirs) > 1 else None)
        self.variants = [v for v in VARIANTS
                         if any(v in t for t in self.times.values())]

    def read(self, d, part):
        """Adds what run.sh wrote in D; PART, when not None, prefixes D's
        notes.  A variant timed in several rounds (BENCH_ROUNDS) gets
        the median of their medians, and the first time of its first."""
        rounds = {}
        for row in read_rows(os.path.join(d, "results.csv"))[1:]:
            b, v, size, med, first = row
            if b.startswith("copy_"):
                self.copies[(b, v)] = (float(med), size)
                continue
            key = (b, size)
            if key not in self.times:
                self.times[key] = {}
                self.order.append(key)
            rounds.setdefault((key, v), []).append(float(med))
            if v not in self.times[key]:
                self.times[key][v] = (float(med), float(first))
        for (key, v), meds in rounds.items():
            if len(meds) > 1:
                self.times[key][v] = (statistics.median(meds),
                                      self.times[key][v][1])
        for row in read_rows(os.path.join(d, "transfer.csv"))[1:]:
            self.transfers.append((row[0], int(row[1]), float(row[2]),
                                   float(row[3])))
        for row in read_rows(os.path.join(d, "work.csv"))[1:]:
            self.work[(row[0], row[1])] = tuple(float(x) for x in row[2:])
        for b, v, size, ms in read_rows(os.path.join(d, "profile.csv")):
            self.kernel[(b, v, size)] = float(ms)
        for b, v, size, dev, host in read_rows(os.path.join(
                d, "placement.csv")):
            self.placement[(b, v, size)] = (int(dev), int(host))
        for line in read_lines(os.path.join(d, "failures.txt")):
            self.failures.append(line)
            parts = line.split(",")
            if parts[0] == "FAIL":
                self.failed.add((parts[1], parts[2], parts[3]))
        for lines, name in ((self.machine, "machine.txt"),
                            (self.warnings, "flat-warnings.txt")):
            lines += [line for line in read_lines(os.path.join(d, name))
                      if line not in lines]
        self.notes += [(part + ": " if part else "") + line
                       for line in read_lines(os.path.join(d, "notes.txt"))]

    def device_bandwidth(self):
        """The best measured device copy bandwidth, bytes per ms."""
        bws = [bw for bw in (self.bandwidth("copy_d2d", v)
                             for v in ("cudaMemcpy", "kernel")) if bw]
        return max(bws) if bws else None

    def source(self, key, v):
        """The dataset whose times stand for variant V on KEY: KEY itself,
        except for a variant of FROM_BASE on a benchmark kept on the
        device, which only its base benchmark runs."""
        if v in FROM_BASE and v not in self.times[key]:
            base = (base_benchmark(key[0]), key[1])
            if base in self.times:
                return base
        return key

    def entry(self, key, v):
        """(median, first, failed) of V on KEY, or None."""
        key = self.source(key, v)
        t = self.times[key].get(v)
        if t is None:
            return None
        return t + ((key[0], v, key[1]) in self.failed,)

    def median(self, key, v):
        e = self.entry(key, v)
        if e is None or e[2]:
            return None
        return e[0]

    def vendor(self, key):
        """The median of the vendor library with the same transfers (for
        a benchmark kept on the device: cub resident, or cublas-dev)."""
        for v in VENDORS:
            if v == "cublas-dev" and base_benchmark(key[0]) == key[0]:
                continue
            m = self.median(key, v)
            if m is not None:
                return m
        return None

    def where(self, key, v):
        """Where Flat variant V's nests ran on KEY: "" (all on the
        device, or not known), "host", "part host" or "not lifted" (no
        nest ran: the loops ran as compiled)."""
        p = self.placement.get((key[0], v, key[1]))
        if p is None or (p[0] > 0 and p[1] == 0):
            return ""
        if p[0] == 0 and p[1] == 0:
            return "not lifted"
        return "host" if p[0] == 0 else "part host"

    def moved(self, key):
        """Bytes read plus written by KEY's region, or None."""
        w = self.work.get(key)
        return None if w is None else w[0] + w[1]

    def kernel_ms(self, key, v):
        """Flat's kernel time per call of V on KEY; a benchmark kept on
        the device runs the kernels of its base benchmark."""
        for b in (key[0], base_benchmark(key[0])):
            k = self.kernel.get((b, v, key[1]))
            if k is not None:
                return k
        return None

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
        bw = self.device_bandwidth()
        w = self.work.get(key)
        if not (bw and w):
            return None
        return (w[0] + w[1]) / bw


def mark(res, key, v):
    """" (host)" and the like after a Flat time whose nests did not all run
    on the device."""
    where = res.where(key, v) if v in FLAT else ""
    return " (%s)" % where if where else ""


def cell(res, key, v):
    e = res.entry(key, v)
    if e is None:
        return "–"
    if e[2]:
        return "FAIL"
    return fmt_ms(e[0]) + mark(res, key, v)


def gbs(moved, ms):
    """GB/s of MOVED bytes in MS milliseconds, or None."""
    return None if moved is None or ms is None else moved / ms / 1e6


def fmt_gbs(x):
    if x is None:
        return "–"
    return "%.1f" % x if x >= 1 else "%.2g" % x


def fmt_percent(a, b):
    return "–" if a is None or b is None or b <= 0 else \
        "%.0f %%" % (100.0 * a / b)


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join(" --- " for _ in header) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return out


def resident_table(res):
    """Bandwidth of the benchmarks kept on the device, beside the device's
    copy bandwidth."""
    keys = [k for k in res.order if base_benchmark(k[0]) != k[0]]
    variants = [v for v in ["acc"] + FLAT + VENDORS
                if any(res.entry(k, v) for k in keys)]
    if not keys or not variants:
        return []
    md = ["## Data on the device: bandwidth (GB/s)", "",
          "Bytes read plus bytes written (for a reduction, essentially the "
          "bytes read; for jacobi-data, one read and one write of the grid "
          "per sweep, as if caches served every neighbour; for "
          "pathfinder-data, a wall row and a cost row read and a cost row "
          "written per step) over the median "
          "time, counted as the copy bandwidth is. copy: the best measured "
          "device-to-device copy bandwidth (cudaMemcpy or a kernel, bytes "
          "read plus written); Flat/copy and vendor/copy: the fraction of "
          "it that Flat (the faster flat-* variant) and the vendor reach "
          "(the vendor: cub, or cublas-dev where CUB has no such "
          "operation). X-data includes its region's transfers, once per "
          "call.", ""]
    copy = res.device_bandwidth()
    copy_gbs = None if copy is None else copy / 1e6
    header = ["benchmark", "size", "MB"] + variants + \
             ["copy", "Flat/copy", "vendor/copy"]
    rows = []
    for key in keys:
        moved = res.moved(key)
        if moved is None:
            continue
        rows.append([key[0], key[1], "%.1f" % (moved / 1e6)]
                    + [fmt_gbs(gbs(moved, res.median(key, v)))
                       + mark(res, key, v) for v in variants]
                    + ["–" if copy_gbs is None else "%.0f" % copy_gbs,
                       fmt_ratio(gbs(moved, res.flat(key)[1]), copy_gbs),
                       fmt_ratio(gbs(moved, res.vendor(key)), copy_gbs)])
    return md + table(header, rows) + [""]


def elements(size):
    """The number of elements of a reduction's dataset: N, M x N (row and
    column sums) or N of NxK (the histogram's keys)."""
    parts = [int(x) for x in size.split("x")]
    return parts[0] if len(parts) == 1 else parts[0] * parts[1]


def reductions_section(res):
    """The reductions, scans and histograms: bandwidth on the
    device as a fraction of the copy bandwidth, ratios to the vendor and
    OpenACC, and the same benchmarks with their transfers."""
    keys = [k for k in res.order if base_benchmark(k[0]) in REDUCTIONS]
    if not keys:
        return []
    copy = res.device_bandwidth()
    copy_gbs = None if copy is None else copy / 1e6
    resident = [k for k in keys if k[0].endswith("-resident")]
    plain = [k for k in keys if base_benchmark(k[0]) == k[0]]
    md = ["## Reductions, scans and histograms", "",
          "Flat is the faster of the flat-* variants (the variant named); "
          "vendor is CUB (DeviceReduce Sum, TransformReduce, Max, ArgMax, "
          "DeviceScan::InclusiveSum, DeviceHistogram::HistogramEven) and, "
          "for the row and column sums, cuBLAS's gemv with a vector of "
          "ones; acc is GCC's OpenACC offloading to nvptx, seq and omp the "
          "same source built with gcc -O3 without and with -fopenmp. "
          "The device copy bandwidth is %s GB/s (the best of cudaMemcpy "
          "and a copy kernel, bytes read plus written)."
          % fmt_gbs(copy_gbs), ""]
    md += ["Sizes: N elements; row and column sums MxN; histogram NxK "
           "(N keys, K bins). argmax is a declared reduction over a "
           "{value, index} struct (OpenACC: a max reduction, then a min "
           "reduction over the indices holding it, two loops in one data "
           "region); histogram is `reduce(+: hist[0:k])` (OpenACC: atomic "
           "updates; the K bins are copied in and out at every call, by "
           "Flat and OpenACC alike)."]
    if any(res.where(k, v) for k in keys for v in FLAT):
        md += ["", "A Flat time marked (host) ran its nests on the host "
               "(below the host threshold, or after a device failure), "
               "(part host) some of them, (not lifted) none: the plugin "
               "kept the loop as it was (see its warnings at the end)."]
    md += [""]
    if resident:
        md += ["### Data on the device", "",
               "The inputs stay on the device across the calls (a data "
               "region); a call is the device work plus the copy of its "
               "result back. GB/s: bytes read plus written over the median "
               "time. Flat/copy and vendor/copy: that bandwidth as a "
               "fraction of the copy bandwidth. Flat/vendor and Flat/acc: "
               "time over time, below 1 Flat is faster.", ""]
        header = ["benchmark", "size", "Flat", "Flat ms", "Flat GB/s",
                  "Flat/copy", "vendor ms", "vendor/copy", "Flat/vendor",
                  "acc ms", "Flat/acc"]
        rows = []
        for key in resident:
            v, f = res.flat(key)
            moved = res.moved(key)
            vendor = res.vendor(key)
            acc = res.median(key, "acc")
            rows.append([key[0], key[1], v or "–",
                         cell(res, key, v) if v else "–",
                         fmt_gbs(gbs(moved, f)),
                         fmt_percent(gbs(moved, f), copy_gbs),
                         fmt_ms(vendor),
                         fmt_percent(gbs(moved, vendor), copy_gbs),
                         fmt_ratio(f, vendor), fmt_ms(acc),
                         fmt_ratio(f, acc)])
        md += table(header, rows) + [""]
    if plain:
        md += ["### With transfers", "",
               "The whole region per call: a device variant copies its "
               "inputs in and its result out at every call. Median ms per "
               "call; ratios are time over time, below 1 Flat is faster.",
               ""]
        header = ["benchmark", "size", "seq", "omp", "acc", "Flat",
                  "vendor", "Flat/acc", "Flat/seq", "Flat/vendor"]
        rows = []
        for key in plain:
            v, f = res.flat(key)
            rows.append([key[0], key[1], cell(res, key, "seq"),
                         cell(res, key, "omp"), cell(res, key, "acc"),
                         cell(res, key, v) if v else "–",
                         fmt_ms(res.vendor(key)),
                         fmt_ratio(f, res.median(key, "acc")),
                         fmt_ratio(f, res.median(key, "seq")),
                         fmt_ratio(f, res.vendor(key))])
        md += table(header, rows) + [""]
    md += reductions_summary(res, resident, copy_gbs)
    return md


def reductions_summary(res, resident, copy_gbs):
    """One line per benchmark (per K for the histogram) at its largest
    size kept on the device."""
    largest = {}
    for key in resident:
        group = base_benchmark(key[0])
        if group == "histogram":
            group += " K=" + key[1].split("x")[1]
        if group not in largest \
           or elements(key[1]) > elements(largest[group][1]):
            largest[group] = key
    if not largest:
        return []
    md = ["### In short: the largest size of each, data on the device", ""]
    for group, key in largest.items():
        v, f = res.flat(key)
        if f is None:
            md.append("* %s %s: no Flat time." % (group, key[1]))
            continue
        moved = res.moved(key)
        vendor = res.vendor(key)
        base = (base_benchmark(key[0]), key[1])
        where = res.where(key, v)
        md.append("* %s %s: Flat (%s%s) %s GB/s = %s of the copy "
                  "bandwidth (vendor %s); Flat/vendor %s, Flat/acc %s; "
                  "with transfers Flat/acc %s, Flat/seq %s."
                  % (group, key[1], v, ", " + where if where else "",
                     fmt_gbs(gbs(moved, f)),
                     fmt_percent(gbs(moved, f), copy_gbs),
                     fmt_percent(gbs(moved, vendor), copy_gbs),
                     fmt_ratio(f, vendor),
                     fmt_ratio(f, res.median(key, "acc")),
                     fmt_ratio(res.flat(base)[1], res.median(base, "acc")),
                     fmt_ratio(res.flat(base)[1], res.median(base, "seq"))))
    return md + [""]


def default_section(res):
    """Flat's default build (FLAT_DEVICE=auto: the device or the parallel
    host version, by measured cost) against the faster of sequential and
    OpenMP, and against OpenACC."""
    keys = [k for k in res.order if res.median(k, "flat-auto") is not None]
    if not keys:
        return []
    md = ["## Flat's default against the host", "",
          "flat-auto is FLAT_DEVICE=auto, the default (each nest on the "
          "device or on its parallel host version, whichever its own "
          "measurements favour); flat-host is FLAT_DEVICE=host, the parallel "
          "host version alone. Best host is the faster of seq and omp. "
          "Median ms per call; ratios are time over time, at most 1.05 "
          "meets the target of never being slower than the host.", ""]
    header = ["benchmark", "size", "seq", "omp", "flat-host", "flat-auto",
              "acc", "auto/best host", "auto/acc"]
    rows = []
    met = 0
    counted = 0
    for key in keys:
        auto = res.median(key, "flat-auto")
        hosts = [t for t in (res.median(key, "seq"), res.median(key, "omp"))
                 if t is not None]
        best = min(hosts) if hosts else None
        if best is not None:
            counted += 1
            met += auto <= 1.05 * best
        rows.append([key[0], key[1], cell(res, key, "seq"),
                     cell(res, key, "omp"), cell(res, key, "flat-host"),
                     cell(res, key, "flat-auto"), cell(res, key, "acc"),
                     fmt_ratio(auto, best),
                     fmt_ratio(auto, res.median(key, "acc"))])
    md += table(header, rows) + [""]
    md += ["flat-auto within 1.05 x the best host time on %d of %d "
           "datasets." % (met, counted), ""]
    return md


def markdown(res):
    md = ["# Flat benchmarks, side by side", ""]
    md += ["Machine: " + "; ".join(res.machine) + ".", ""]
    if res.notes:
        md += ["Notes from run.sh:", ""]
        md += ["* " + n for n in res.notes]
        md += [""]

    md += default_section(res)
    md += reductions_section(res)

    md += ["## Median time per call (ms)", "",
           "Whole marked region per call, host-device transfers included "
           "(none for seq and omp), except: cublas-dev and the X-resident "
           "benchmarks have their inputs on the device already (the call "
           "and the copy of its result back: a scalar, argmax's value and "
           "index, the histogram's bins; nothing for the row and column "
           "sums, which come back after the calls); X-data runs a time "
           "loop inside a data region (transfers once per call); jacobi, "
           "pathfinder and their X-data forms are per time step (the call "
           "over its steps). "
           "Host variants of X-resident and X-data repeat X's time (the "
           "same code on the host), and so does their cublas-dev. Flat = "
           "the faster flat-* variant, marked (host), (part host) or (not "
           "lifted) where its nests did not all run on the device; vendor "
           "= cublas, or cub for the reductions, the scan and the "
           "histogram (same transfers, or the same residency; for "
           "rowsums-resident and colsums-resident, cublas-dev). Ratios are "
           "time over time: below 1, Flat is faster.", ""]
    header = ["benchmark", "size"] + res.variants + \
             ["Flat/acc", "Flat/vendor", "Flat/seq"]
    rows = []
    for key in res.order:
        _, f = res.flat(key)
        rows.append([key[0], key[1]]
                    + [cell(res, key, v) for v in res.variants]
                    + [fmt_ratio(f, res.median(key, "acc")),
                       fmt_ratio(f, res.vendor(key)),
                       fmt_ratio(f, res.median(key, "seq"))])
    md += table(header, rows) + [""]

    md += ["## Where Flat's time goes", "",
           "kernels: Flat's kernel time per call (FLAT_PROFILE, launch to "
           "finish, mean over all calls including the first). bus floor: "
           "the inputs' bytes over the measured host-to-device bandwidth "
           "plus the outputs' bytes over the device-to-host one, from "
           "pinned or pageable (malloc) memory; Flat and OpenACC copy from "
           "pageable memory. device floor: inputs read and outputs written "
           "once at the measured device copy bandwidth. No bus floor for "
           "the benchmarks kept on the device.", ""]
    header = ["benchmark", "size", "Flat", "Flat (ms)", "kernels (ms)",
              "share in kernels", "bus floor pinned (ms)",
              "bus floor pageable (ms)", "Flat / pageable floor",
              "device floor (ms)"]
    rows = []
    for key in res.order:
        v, f = res.flat(key)
        if v is None:
            continue
        k = res.kernel_ms(key, v)
        pinned = pageable = None
        if base_benchmark(key[0]) == key[0]:
            pinned = res.bus_floor(key, "pinned")
            pageable = res.bus_floor(key, "pageable")
        rows.append([key[0], key[1], v, fmt_ms(f) + mark(res, key, v),
                     fmt_ms(k),
                     "–" if k is None else "%.0f %%" % (100.0 * k / f),
                     fmt_ms(pinned), fmt_ms(pageable),
                     fmt_ratio(f, pageable), fmt_ms(res.device_floor(key))])
    md += table(header, rows) + [""]

    md += resident_table(res)

    md += ["## First call (ms)", "",
           "The first call of the region in a fresh process: device "
           "initialisation and kernel compilation (Flat: its kernels from "
           "source, with an empty kernel cache; OpenACC: the driver's JIT "
           "of GCC's PTX) come on top of one call.", ""]
    header = ["benchmark", "size"] + res.variants
    rows = [[key[0], key[1]]
            + [fmt_ms(res.entry(key, v)[1]) if res.entry(key, v) else "–"
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

    if res.transfers:
        md += ["## Flat's transfers (GB/s)", "",
               "transfer-flat: an array of ordinary (pageable) memory "
               "copied to the device and back by `#pragma flat update` "
               "inside a data region, median of its calls; beside it the "
               "pinned copy of copybw (at its own size).", ""]
        pinned = [res.bandwidth("copy_h2d", "pinned"),
                  res.bandwidth("copy_d2h", "pinned")]
        rows = [[dev, str(mib), "%.1f" % h2d, "%.1f" % d2h,
                 fmt_percent(h2d * 1e6, pinned[0]),
                 fmt_percent(d2h * 1e6, pinned[1])]
                for dev, mib, h2d, d2h in res.transfers]
        md += table(["device", "MiB", "to device", "to host",
                     "of pinned, to device", "of pinned, to host"],
                    rows) + [""]

    md += ["## Failures", ""]
    md += ["* " + f for f in res.failures] if res.failures else ["None."]
    if res.warnings:
        md += ["", "## The plugin's warnings when building the Flat "
               "variants", ""]
        md += ["* " + w for w in res.warnings]
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
    if len(sys.argv) < 2:
        sys.exit("usage: report.py DIR [MORE_DIR...]")
    d = sys.argv[1]
    res = Results(sys.argv[1:])
    with open(os.path.join(d, "results.md"), "w") as f:
        f.write(markdown(res))
    with open(os.path.join(d, "results.gp"), "w") as f:
        f.write(gnuplot(res))


if __name__ == "__main__":
    main()
