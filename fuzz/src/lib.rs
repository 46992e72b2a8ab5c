//! Input layouts of the fuzz targets, shared with the seed writer
//! (`examples/write_seeds.rs`): the flag bits of the binlog targets and the
//! column specs of `row_image`.

use onelog_core::{BlobSize, Collation, ColumnDef, ColumnType};

/// Bits of the flags byte that starts a `binlog_events` or
/// `binlog_recovery` input.
pub mod binlog_flags {
    /// Re-seal log_pos and CRC32s before decoding, so mutated bodies reach
    /// the decoders behind the checksum.
    pub const RESEAL: u8 = 1;
    /// `binlog_recovery`: append 300 zero bytes, as preallocation leaves them.
    pub const PREALLOCATED: u8 = 2;
    /// `binlog_recovery`: put the seed's first (complete, rotated) file
    /// before the live one.
    pub const EARLIER_FILE: u8 = 4;
    /// `binlog_recovery`: the checksum-free seed instead of the CRC32 one.
    pub const NO_CHECKSUM_SEED: u8 = 8;
    /// `binlog_recovery`: the earlier file comes from the input (after a
    /// 2-byte length), so it can be damaged too.
    pub const EARLIER_FILE_IN_INPUT: u8 = 16;
}

/// Column `i` of a `row_image` input from its three spec bytes: type (mod
/// 22), its size parameter, flags (bit 0 unsigned, bit 1 utf8mb4_bin, bits
/// 2-7 DECIMAL scale). Parameters stay in the ranges the catalog gives them
/// except where the decoder must cope anyway (DECIMAL precision and scale,
/// fractional-second digits out of range); ENUM labels and SET members
/// are distinct.
pub fn row_image_column(i: usize, spec: &[u8]) -> ColumnDef {
    let (kind, a, flags) = (spec[0], spec[1], spec[2]);
    let blob = [BlobSize::Tiny, BlobSize::Normal, BlobSize::Medium, BlobSize::Long][usize::from(a % 4)];
    let wide = u32::from(a) * 257;
    let ty = match kind % 22 {
        0 => ColumnType::TinyInt,
        1 => ColumnType::SmallInt,
        2 => ColumnType::MediumInt,
        3 => ColumnType::Int,
        4 => ColumnType::BigInt,
        5 => ColumnType::Decimal { precision: a % 81, scale: flags >> 2 },
        6 => ColumnType::Float,
        7 => ColumnType::Double,
        8 => ColumnType::Char(u32::from(a)),
        9 => ColumnType::VarChar(wide / 4),
        10 => ColumnType::Binary(u32::from(a)),
        11 => ColumnType::VarBinary(wide),
        12 => ColumnType::Text(blob),
        13 => ColumnType::Blob(blob),
        14 => ColumnType::Date,
        15 => ColumnType::DateTime { fsp: a % 10 },
        16 => ColumnType::Timestamp { fsp: a % 10 },
        17 => ColumnType::Time { fsp: a % 10 },
        18 => ColumnType::Year,
        // 1 to 64 members: every bitmask width (1, 2, 3, 4, 8 bytes).
        21 => ColumnType::Set((0..=usize::from(a % 64)).map(|m| format!("m{m}")).collect()),
        // Up to 511 labels: 2-byte indexes too.
        _ => ColumnType::Enum((0..=usize::from(a) * 2).map(|l| format!("l{l}")).collect()),
    };
    let mut c = ColumnDef { unsigned: flags & 1 != 0, ..ColumnDef::new(&format!("c{i}"), ty) };
    if c.ty.is_text() && flags & 2 != 0 {
        c.collation = Collation::Utf8mb4Bin;
    }
    c
}
