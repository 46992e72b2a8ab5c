"""Issue 4, "Done when" (tests part): `onelog bench` on a tiny matrix — three cells
(oltp_update_non_index × off, sync1, sync1 as a table-grant account over TLS ×
1 thread, 2 s each, no warm-up), OneLog and MariaDB side by side — writes
results.csv, the PNG charts and report.md, and they agree with each other. The
TLS cell fails unless both servers counted a TLS handshake per sysbench thread.
No test asserts a speed.

ONELOG_BENCH_SYSTEMS=onelog narrows it to OneLog (then each config is one cell).
"""
from __future__ import annotations

import csv
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import ONELOG_BIN  # noqa: E402

SYSTEMS = os.environ.get("ONELOG_BENCH_SYSTEMS", "onelog,mariadb")
CONFIGS = ["off", "sync1", "sync1+user+tls"]
WORKLOAD = "oltp_update_non_index"
CHART_SIZE = (1200, 720)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path.name}: not a PNG"
    assert data[12:16] == b"IHDR", f"{path.name}: no IHDR chunk"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def bench_out(tmp_path_factory):
    base = tmp_path_factory.mktemp("bench")
    out = base / "out"
    cmd = [str(ONELOG_BIN), "bench", "--out", str(out), "--workdir", str(base / "work"), "--workloads", WORKLOAD,
           "--configs", ",".join(CONFIGS), "--threads", "1", "--time", "2", "--warmup", "0",
           "--tables", "1", "--table-size", "1000", "--systems", SYSTEMS]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"onelog bench failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return out, r


def rows(out: Path):
    with open(out / "results.csv", newline="") as f:
        return list(csv.DictReader(f))


def test_csv_has_one_ok_row_per_cell(bench_out):
    out, _ = bench_out
    systems = SYSTEMS.split(",")
    got = rows(out)
    assert len(got) == len(systems) * len(CONFIGS)
    assert {(r["system"], r["config"]) for r in got} == {(s, c) for s in systems for c in CONFIGS}
    for r in got:
        assert r["status"] == "ok", r["error"]
        assert r["workload"] == WORKLOAD and r["threads"] == "1"
        assert int(r["transactions"]) > 0 and float(r["tps"]) > 0
        assert float(r["latency_p95_ms"]) > 0 and float(r["latency_p99_ms"]) > 0
        assert r["qps_per_s"] and all(float(q) >= 0 for q in r["qps_per_s"].split(";"))
        assert r["disk_device"], "the datadir's block device was not resolved"
        assert float(r["write_ios"]) >= 0 and float(r["server_cpu_s"]) > 0
        if r["system"] == "onelog" and r["config"] == "sync1":
            assert float(r["binlog_commits"]) > 0 and float(r["binlog_syncs"]) > 0
            assert float(r["avg_group_size"]) >= 1


def test_charts_are_pngs_of_the_expected_size(bench_out):
    out, _ = bench_out
    expected = [f"tps_vs_threads_{WORKLOAD}.png", f"qps_over_time_{WORKLOAD}_1threads.png",
                f"write_ios_per_txn_{WORKLOAD}.png", f"group_size_{WORKLOAD}.png"]
    for name in expected:
        p = out / name
        assert p.exists(), f"missing chart {name}; have {sorted(x.name for x in out.iterdir())}"
        assert p.stat().st_size > 5000, f"{name} is suspiciously small"
        assert png_size(p) == CHART_SIZE


def test_report_sections_and_agreement_with_csv(bench_out):
    out, _ = bench_out
    report = (out / "report.md").read_text()
    for section in ["# OneLog bench report", "## Machine", "## Settings", "## Results",
                    "## Ratios", "## Charts", "## Failed cells"]:
        assert section in report, f"report.md lacks {section!r}"
    for item in ["| CPU |", "| cores |", "| RAM |", "| disk |", "| kernel |",
                 "| filesystem of the data directories |", "| sysbench |", "| MariaDB |", "| OneLog |"]:
        assert item in report, f"machine description lacks {item!r}"
    # Every chart on disk is embedded, and every embedded chart exists.
    embedded = set(re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", report))
    assert embedded == {p.name for p in out.glob("*.png")}
    # Cell count: CSV distinct cells == "Cells: N" == rows of the results table.
    got = rows(out)
    cells = {(r["workload"], r["system"], r["config"], r["threads"]) for r in got}
    m = re.search(r"Cells: (\d+) \((\d+) runs in results.csv\)", report)
    assert m, "report.md lacks the cell count"
    assert int(m.group(1)) == len(cells) and int(m.group(2)) == len(got)
    results = report.split("## Results", 1)[1].split("## Ratios", 1)[0]
    table = [line for line in results.splitlines() if line.startswith(f"| {WORKLOAD} |")]
    assert len(table) == len(cells)
    for line in table:
        f = [c.strip() for c in line.strip("|").split("|")]
        key = (f[0], f[1], f[2], f[3])
        assert key in cells
        csv_tps = next(float(r["tps"]) for r in got if (r["workload"], r["system"], r["config"], r["threads"]) == key)
        assert abs(float(f[4]) - csv_tps) < 0.06, (line, csv_tps)
    ratios = report.split("## Ratios", 1)[1].split("## Charts", 1)[0]
    assert "sync1 / OFF" in ratios
    if "mariadb" in SYSTEMS:
        assert "OneLog / MariaDB" in ratios
    assert "None." in report.split("## Failed cells", 1)[1]


def test_no_server_left_running(bench_out):
    out, _ = bench_out
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert str(out.parent / "work") not in ps, "a server started by onelog bench is still running"
    assert not any((out.parent / "work").iterdir()), "temporary data directories were left behind"


def test_missing_sysbench_is_a_clear_error(tmp_path):
    r = subprocess.run([str(ONELOG_BIN), "bench", "--out", str(tmp_path / "o"), "--sysbench",
                        "/nonexistent/sysbench"], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "apt-get install sysbench mariadb-server" in r.stderr
