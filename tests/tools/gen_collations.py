#!/usr/bin/env python3
"""Writes the collation weight tables of crates/core/src/collation/: what a
stock MariaDB 10.11 (`mariadbd --no-defaults`, the one the tests compare
with) answers for WEIGHT_STRING of every character, so OneLog's collations
compare, group and build index keys exactly as MariaDB's do.

    .venv/bin/python tests/tools/gen_collations.py

Why a table from the server and not a crate: utf8mb4_unicode_ci is UCA 4.0.0
and utf8mb4_unicode_520_ci UCA 5.2.0 as MariaDB builds them (primary level
only, its own implicit weights, supplementary characters equal to U+FFFD in
4.0.0), and utf8mb4_general_ci is MariaDB's own one-weight folding; the UCA
crates implement the current UCA with CLDR tailoring, which orders and
equates characters differently.

Files (one run a line, hex, `#` comments):

- general_ci.txt, uca400.txt, uca520.txt: `CP COUNT [W ...]` — COUNT code
  points from CP on whose weights differ from the default rule (general_ci:
  the code point itself; UCA: the implicit weight, see collation.rs). A run
  of COUNT > 1 has zero weights for each code point, or one weight that grows
  by one per code point.
- latin1.txt: `BYTE UNICODE W_swedish_ci W_bin W_general_ci ...` for the 256
  latin1 bytes (MariaDB's latin1 is cp1252 with its five holes mapped to
  U+0081, U+008D, U+008F, U+0090, U+009D); a weight column is the byte's
  weight string (more than one byte where the collation expands, e.g.
  german2's ä = ae).
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402

OUT = HERE.parent / "crates/core/src/collation"
UNICODE = {"general_ci": "utf8mb4_general_ci", "uca400": "utf8mb4_unicode_ci", "uca520": "utf8mb4_unicode_520_ci"}
LATIN1 = ["latin1_swedish_ci", "latin1_bin", "latin1_general_ci", "latin1_general_cs", "latin1_german1_ci",
          "latin1_german2_ci", "latin1_danish_ci", "latin1_spanish_ci"]
SURROGATES = range(0xD800, 0xE000)


def implicit(cp: int) -> list[int]:
    """UCA implicit weights as MariaDB computes them (mirrored in collation.rs)."""
    if 0x4E00 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF:
        base = 0xFB40
    elif 0x3400 <= cp <= 0x4DBF:
        base = 0xFB80
    else:
        base = 0xFBC0
    return [base + (cp >> 15), (cp & 0x7FFF) | 0x8000]


def default_weights(table: str, cp: int) -> list[int]:
    if table == "general_ci":
        return [cp] if cp <= 0xFFFF else [0xFFFD]
    if table == "uca400" and cp > 0xFFFF:
        return [0xFFFD]
    return implicit(cp)


def runs(table: str, weights: dict[int, list[int]]) -> list[str]:
    out: list[list] = []  # [first cp, count, weights of the first]
    for cp in sorted(weights):
        w = weights[cp]
        if w == default_weights(table, cp):
            continue
        if out:
            first, count, ws = out[-1]
            if first + count == cp and len(w) == len(ws) <= 1 and (not w or ws[0] + count == w[0]):
                out[-1][1] += 1
                continue
        out.append([cp, 1, w])
    return [" ".join([f"{cp:X}", str(n)] + [f"{x:X}" for x in ws]) for cp, n, ws in out]


def unicode_weights(cur, collation: str) -> dict[int, list[int]]:
    cur.execute("SELECT seq, HEX(WEIGHT_STRING(CONVERT(CHAR(seq USING utf32) USING utf8mb4) COLLATE "
                f"{collation})) FROM seq_0_to_1114111 WHERE seq NOT BETWEEN 55296 AND 57343")
    return {cp: [int(h[i:i + 4], 16) for i in range(0, len(h), 4)] for cp, h in cur.fetchall()}


def latin1_rows(cur) -> list[str]:
    columns = ", ".join(f"HEX(WEIGHT_STRING(CONVERT(CHAR(seq) USING latin1) COLLATE {c}))" for c in LATIN1)
    cur.execute(f"SELECT seq, HEX(CONVERT(CONVERT(CHAR(seq) USING latin1) USING utf32)), {columns} "
                "FROM seq_0_to_255")
    return [" ".join([f"{r[0]:02X}", f"{int(r[1], 16):X}"] + [w or "-" for w in r[2:]]) for r in cur.fetchall()]


def main() -> None:
    # seq_M_to_N (MariaDB's Sequence engine) answers in any database.
    with harness.throwaway_mariadb_cursor("onelog-gencoll-") as (cur, version):
        tables = {t: runs(t, unicode_weights(cur, c)) for t, c in UNICODE.items()}
        latin1 = latin1_rows(cur)
    OUT.mkdir(exist_ok=True)
    for table, lines in tables.items():
        head = f"# MariaDB {version} WEIGHT_STRING(... COLLATE {UNICODE[table]}), by tests/tools/gen_collations.py"
        (OUT / f"{table}.txt").write_text("\n".join([head] + lines) + "\n")
        print(f"{table}: {len(lines)} runs")
    head = [f"# MariaDB {version} latin1 bytes, by tests/tools/gen_collations.py",
            "# BYTE UNICODE " + " ".join(LATIN1)]
    (OUT / "latin1.txt").write_text("\n".join(head + latin1) + "\n")


if __name__ == "__main__":
    main()
