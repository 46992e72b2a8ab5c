//! Writes the committed seed inputs of the binlog and row-image targets
//! into `seeds/<target>/`: binlogs the commit pipeline writes
//! (`onelog_binlog::fuzzing::write_seed_binlog`, with and without CRC32s)
//! framed as each target reads them, and row images of the seed rows.
//! The protocol seeds and a binlog of a running server come from
//! `capture_seeds.py`. Run from `fuzz/`: `cargo run --example write_seeds`.

use onelog_binlog::fuzzing::{scratch_parent, seed_value, write_seed_binlog};
use onelog_core::rowimage::encode_row;
use onelog_fuzz::binlog_flags::{EARLIER_FILE, EARLIER_FILE_IN_INPUT, NO_CHECKSUM_SEED, PREALLOCATED, RESEAL};
use onelog_fuzz::row_image_column;
use std::path::Path;

fn write(target: &str, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let dir = Path::new("seeds").join(target);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join(name), bytes)?;
    println!("seeds/{target}/{name}: {} bytes", bytes.len());
    Ok(())
}

fn framed(head: &[u8], body: &[u8]) -> Vec<u8> {
    [head, body].concat()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (checksum, tag) in [(true, "crc32"), (false, "no-checksum")] {
        let dir = tempfile::tempdir_in(scratch_parent())?;
        let seed = write_seed_binlog(dir.path(), checksum)?;
        let seed_flag = if checksum { 0 } else { NO_CHECKSUM_SEED };
        let (first, second) = (&seed.files[0], &seed.files[1]);
        // binlog_events: flags, the listing's start offset (4), the stream.
        write("binlog_events", &format!("{tag}-file1"), &framed(&[0, 4, 0], first))?;
        write("binlog_events", &format!("{tag}-file2"), &framed(&[RESEAL, 4, 0], second))?;
        // binlog_recovery: the first file alone; the second after it; the
        // second cut mid-transaction with preallocated zeros behind.
        write("binlog_recovery", &format!("{tag}-file1"), &framed(&[seed_flag], first))?;
        write("binlog_recovery", &format!("{tag}-file2"), &framed(&[seed_flag | EARLIER_FILE], second))?;
        let both = [&[seed_flag | EARLIER_FILE_IN_INPUT][..], &(first.len() as u16).to_le_bytes(), first, second];
        write("binlog_recovery", &format!("{tag}-both"), &both.concat())?;
        let cut = &second[..second.len() * 2 / 3];
        write("binlog_recovery", &format!("{tag}-torn"), &framed(&[seed_flag | EARLIER_FILE | PREALLOCATED], cut))?;
    }
    // row_image: column specs chosen to cover every type, then a row.
    let specs: [&[u8]; 2] = [
        &[0, 0, 0, 1, 0, 1, 2, 0, 0, 3, 0, 1, 4, 0, 0, 5, 20, 24, 6, 0, 0, 7, 0, 0, 8, 10, 0, 9, 40, 2],
        &[10, 4, 0, 11, 1, 0, 12, 1, 0, 13, 3, 0, 14, 0, 0, 15, 6, 0, 16, 3, 0, 17, 2, 0, 18, 0, 0, 19, 200, 0],
    ];
    for (i, spec) in specs.iter().enumerate() {
        let columns: Vec<_> = spec.chunks(3).enumerate().map(|(c, s)| row_image_column(c, s)).collect();
        let row: Vec<_> = columns.iter().map(|c| seed_value(c, 3)).collect();
        let mut image = vec![columns.len() as u8];
        image.extend_from_slice(spec);
        image.push(0b1010_1010);
        encode_row(&columns, &row, &mut image)?;
        write("row_image", &format!("types-{i}"), &image)?;
    }
    Ok(())
}
