#!/usr/bin/env python3
"""Writes crates/core/src/collation/8bit/*.txt: the 8-bit character sets of a
stock MariaDB 10.11 (`mariadbd --no-defaults`, the one the tests compare
with), each byte's Unicode character and its weight under every one-weight
collation of the charset, as the server itself answers them (its tables are
strings/ctype-extra.c's), so OneLog converts, compares, groups and builds
index keys exactly as MariaDB does.

    .venv/bin/python tests/tools/gen_charsets.py

File format (as latin1.txt, see gen_collations.py): a `# BYTE UNICODE
<collation> ...` header, then one line per byte, hex: the byte, its code
point (`-` where MariaDB maps none: CONVERT makes it '?'), its weight per
collation. Charsets left out: swe7 (its ASCII bytes are not ASCII, which the
in-memory UTF-8 shortcuts assume) and tis620 (thai_ci expands); collations
left out: the multi-level czech_cs ones.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))
import harness  # noqa: E402

OUT = HERE.parent / "crates/core/src/collation/8bit"
SKIPPED_CHARSETS = ("latin1", "ascii", "binary", "swe7", "tis620")


def charsets(cur) -> dict[str, list[str]]:
    """Every 8-bit charset still to write, with its one-weight collations (pad
    ones only: a NO PAD collation weighs as its PAD SPACE twin), by id."""
    cur.execute("SELECT c.character_set_name, c.collation_name FROM information_schema.collations c "
                "JOIN information_schema.character_sets s USING (character_set_name) "
                "WHERE s.maxlen = 1 AND c.sortlen = 1 AND c.collation_name NOT LIKE '%nopad%' ORDER BY c.id")
    out: dict[str, list[str]] = {}
    for charset, collation in cur.fetchall():
        if charset not in SKIPPED_CHARSETS:
            out.setdefault(charset, []).append(collation)
    return out


def rows(cur, charset: str, collations: list[str]) -> list[str]:
    columns = ", ".join(f"HEX(WEIGHT_STRING(CHAR(seq USING {charset}) COLLATE {c}))" for c in collations)
    cur.execute(f"SELECT seq, HEX(CONVERT(CHAR(seq USING {charset}) USING utf32)), {columns} FROM seq_0_to_255")
    lines = []
    for byte, uni, *weights in cur.fetchall():
        cp = int(uni, 16)
        if byte < 0x80 and cp != byte:
            raise SystemExit(f"{charset}: byte {byte:02X} is not ASCII")
        code = "-" if cp == 0x3F and byte != 0x3F else f"{cp:X}"
        lines.append(" ".join([f"{byte:02X}", code] + [w or "-" for w in weights]))
    return lines


def main() -> None:
    with harness.throwaway_mariadb_cursor("onelog-gencs-") as (cur, version):
        tables = {cs: (colls, rows(cur, cs, colls)) for cs, colls in charsets(cur).items()}
    OUT.mkdir(exist_ok=True)
    for charset, (collations, lines) in tables.items():
        head = [f"# MariaDB {version} {charset} bytes, by tests/tools/gen_charsets.py",
                "# BYTE UNICODE " + " ".join(collations)]
        (OUT / f"{charset}.txt").write_text("\n".join(head + lines) + "\n")
        print(f"{charset}: {' '.join(collations)}")


if __name__ == "__main__":
    main()
