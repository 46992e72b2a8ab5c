//! Character sets and collations: which characters a text value may hold,
//! and the one rule by which two texts compare.
//!
//! Owns: [`Charset`] (utf8mb4, utf8mb3, ascii, binary and the one-byte
//! charsets latin1, latin2, koi8r, cp1251 ... with their byte tables) with its
//! conversion from and to OneLog's in-memory text (always UTF-8; one-byte
//! charsets are converted only where bytes leave or enter in the column's own
//! charset: row images and the client connection), and [`Collation`], whose
//! [`Collation::sort_key_into`] is the single definition of text order:
//! `=`/`<`, ORDER BY, GROUP BY, DISTINCT, unique and secondary index keys,
//! LIKE and MIN/MAX all derive from it, so they cannot disagree.
//!
//! Invariant: for every collation `c` and texts `a`, `b`,
//! `c.compare(a, b) == c.sort_key(a).cmp(&c.sort_key(b))`.
//!
//! The weights are MariaDB 10.11's own (`WEIGHT_STRING` of every character,
//! written by `tests/tools/gen_collations.py` into `collation/*.txt`), so
//! `é = E` under utf8mb4_general_ci and `ß = ss` under utf8mb4_unicode_ci as
//! in MariaDB. PAD SPACE collations ignore trailing characters that weigh as
//! a space; one deliberate simplification: a PAD SPACE comparison treats the
//! shorter text as ended, not as padded, so a trailing control character
//! (which weighs less than a space) sorts after the text without it, where
//! MariaDB sorts it before. Equality is exact.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

macro_rules! charsets {
    ($($variant:ident, $name:literal, $description:literal, $maxlen:literal, $default:ident, $bytes:expr;)*) => {
        /// A character set: which characters a value may hold and how they
        /// are stored outside memory.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Charset {
            $($variant,)*
        }

        impl Charset {
            /// Every charset, in `SHOW CHARACTER SET` order (MariaDB's).
            pub const ALL: &'static [Charset] = &[$(Charset::$variant,)*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Charset::$variant => $name,)*
                }
            }

            /// `SHOW CHARACTER SET`'s description.
            pub fn description(self) -> &'static str {
                match self {
                    $(Charset::$variant => $description,)*
                }
            }

            pub fn default_collation(self) -> Collation {
                match self {
                    $(Charset::$variant => Collation::$default,)*
                }
            }

            /// Maximum bytes per character in the charset's own encoding.
            pub fn mbmaxlen(self) -> u32 {
                match self {
                    $(Charset::$variant => $maxlen,)*
                }
            }

            /// The byte table of a one-byte charset (its `collation/` file).
            fn byte_table(self) -> Option<&'static ByteTable> {
                match self {
                    $(Charset::$variant => {
                        let source: Option<&'static str> = $bytes;
                        source.map(|text| {
                            static TABLE: OnceLock<ByteTable> = OnceLock::new();
                            TABLE.get_or_init(|| ByteTable::parse(text))
                        })
                    })*
                }
            }
        }
    };
}

// MariaDB 10.11's charsets but the multi-byte Asian ones, ucs2/utf16/utf32,
// swe7 (whose ASCII bytes are not ASCII) and tis620 (whose thai_ci
// expands). utf8mb3 is MariaDB's `utf8` (old_mode UTF8_IS_UTF8MB3, the
// 10.11 default): the Basic Multilingual Plane only. latin1 is cp1252 with
// its five undefined bytes mapped to the C1 controls.
charsets! {
    Dec8, "dec8", "DEC West European", 1, Dec8SwedishCi, Some(include_str!("collation/8bit/dec8.txt"));
    Cp850, "cp850", "DOS West European", 1, Cp850GeneralCi, Some(include_str!("collation/8bit/cp850.txt"));
    Hp8, "hp8", "HP West European", 1, Hp8EnglishCi, Some(include_str!("collation/8bit/hp8.txt"));
    Koi8r, "koi8r", "KOI8-R Relcom Russian", 1, Koi8rGeneralCi, Some(include_str!("collation/8bit/koi8r.txt"));
    Latin1, "latin1", "cp1252 West European", 1, Latin1SwedishCi, Some(include_str!("collation/latin1.txt"));
    Latin2, "latin2", "ISO 8859-2 Central European", 1, Latin2GeneralCi, Some(include_str!("collation/8bit/latin2.txt"));
    Ascii, "ascii", "US ASCII", 1, AsciiGeneralCi, None;
    Hebrew, "hebrew", "ISO 8859-8 Hebrew", 1, HebrewGeneralCi, Some(include_str!("collation/8bit/hebrew.txt"));
    Koi8u, "koi8u", "KOI8-U Ukrainian", 1, Koi8uGeneralCi, Some(include_str!("collation/8bit/koi8u.txt"));
    Greek, "greek", "ISO 8859-7 Greek", 1, GreekGeneralCi, Some(include_str!("collation/8bit/greek.txt"));
    Cp1250, "cp1250", "Windows Central European", 1, Cp1250GeneralCi, Some(include_str!("collation/8bit/cp1250.txt"));
    Latin5, "latin5", "ISO 8859-9 Turkish", 1, Latin5TurkishCi, Some(include_str!("collation/8bit/latin5.txt"));
    Armscii8, "armscii8", "ARMSCII-8 Armenian", 1, Armscii8GeneralCi, Some(include_str!("collation/8bit/armscii8.txt"));
    Utf8mb3, "utf8mb3", "UTF-8 Unicode", 3, Utf8mb3GeneralCi, None;
    Cp866, "cp866", "DOS Russian", 1, Cp866GeneralCi, Some(include_str!("collation/8bit/cp866.txt"));
    Keybcs2, "keybcs2", "DOS Kamenicky Czech-Slovak", 1, Keybcs2GeneralCi, Some(include_str!("collation/8bit/keybcs2.txt"));
    Macce, "macce", "Mac Central European", 1, MacceGeneralCi, Some(include_str!("collation/8bit/macce.txt"));
    Macroman, "macroman", "Mac West European", 1, MacromanGeneralCi, Some(include_str!("collation/8bit/macroman.txt"));
    Cp852, "cp852", "DOS Central European", 1, Cp852GeneralCi, Some(include_str!("collation/8bit/cp852.txt"));
    Latin7, "latin7", "ISO 8859-13 Baltic", 1, Latin7GeneralCi, Some(include_str!("collation/8bit/latin7.txt"));
    Utf8mb4, "utf8mb4", "UTF-8 Unicode", 4, Utf8mb4GeneralCi, None;
    Cp1251, "cp1251", "Windows Cyrillic", 1, Cp1251GeneralCi, Some(include_str!("collation/8bit/cp1251.txt"));
    Cp1256, "cp1256", "Windows Arabic", 1, Cp1256GeneralCi, Some(include_str!("collation/8bit/cp1256.txt"));
    Cp1257, "cp1257", "Windows Baltic", 1, Cp1257GeneralCi, Some(include_str!("collation/8bit/cp1257.txt"));
    Binary, "binary", "Binary pseudo charset", 1, Binary, None;
    Geostd8, "geostd8", "GEOSTD8 Georgian", 1, Geostd8GeneralCi, Some(include_str!("collation/8bit/geostd8.txt"));
}

/// A character the target charset cannot hold (error 1366 / warning).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unrepresentable;

impl Charset {
    /// A charset by name as SQL spells it (`utf8` is utf8mb3, as in
    /// MariaDB 10.11's default old_mode).
    pub fn named(name: &str) -> Option<Charset> {
        // No allocation: sessions look their charsets up on every statement.
        if name.eq_ignore_ascii_case("utf8") {
            return Some(Charset::Utf8mb3);
        }
        Charset::ALL.iter().copied().find(|c| c.name().eq_ignore_ascii_case(name))
    }

    /// [`Charset::named`], or MariaDB's error 1115 for a name it does not
    /// know.
    pub fn named_or_error(name: &str) -> crate::SqlResult<Charset> {
        Charset::named(name).ok_or_else(|| {
            crate::SqlError::new(crate::ErrorCode::UNKNOWN_CHARACTER_SET, format!("Unknown character set: '{name}'"))
        })
    }

    /// Whether the charset can hold `c`.
    pub fn holds(self, c: char) -> bool {
        match self {
            Charset::Utf8mb4 | Charset::Binary => true,
            Charset::Utf8mb3 => (c as u32) <= 0xFFFF,
            Charset::Ascii => c.is_ascii(),
            table => table.byte_table().is_some_and(|t| t.byte_of(c).is_some()),
        }
    }

    /// Whether the charset is one byte a character with a byte table
    /// (latin1, latin2, koi8r ...): its bytes convert one by one.
    pub fn is_byte_table(self) -> bool {
        self.byte_table().is_some()
    }

    /// The first character of `text` (UTF-8) the charset cannot hold, with
    /// its byte offset; `None` if all fit (or the text is not UTF-8: binary
    /// data stays as it is).
    pub fn first_unrepresentable(self, text: &[u8]) -> Option<(usize, char)> {
        if matches!(self, Charset::Utf8mb4 | Charset::Binary) || text.is_ascii() {
            return None;
        }
        let s = std::str::from_utf8(text).ok()?;
        s.char_indices().find(|(_, c)| !self.holds(*c))
    }

    /// `text` (UTF-8 in memory) in the charset's own encoding, as row images
    /// store it. Characters the charset cannot hold become `?`, as MariaDB
    /// stores them outside strict mode (the SQL layer has already refused or
    /// warned); bytes that are not UTF-8 are kept.
    pub fn encode(self, text: &[u8]) -> std::borrow::Cow<'_, [u8]> {
        match self {
            Charset::Utf8mb3 => self.fit(text),
            Charset::Utf8mb4 | Charset::Binary => text.into(),
            // Every one-byte charset here is ASCII below 0x80.
            _ if text.is_ascii() => text.into(),
            one_byte => match std::str::from_utf8(text) {
                Ok(s) => {
                    let table = one_byte.byte_table();
                    let byte_of = |c: char| match table {
                        Some(t) => t.byte_of(c),
                        None => Some(c as u8).filter(|_| c.is_ascii()),
                    };
                    s.chars().map(|c| byte_of(c).unwrap_or(b'?')).collect::<Vec<u8>>().into()
                }
                Err(_) => text.into(),
            },
        }
    }

    /// `text` (UTF-8) with each character the charset cannot hold replaced
    /// by '?', still UTF-8: what MariaDB stores or sends outside strict mode.
    pub fn fit(self, text: &[u8]) -> std::borrow::Cow<'_, [u8]> {
        if self.first_unrepresentable(text).is_none() {
            return text.into();
        }
        let s = String::from_utf8_lossy(text);
        s.chars().map(|c| if self.holds(c) { c } else { '?' }).collect::<String>().into_bytes().into()
    }

    /// The inverse of [`Charset::encode`]: stored bytes as in-memory UTF-8
    /// (a byte the charset maps to no character reads as '?', as MariaDB
    /// converts it).
    pub fn decode(self, stored: &[u8]) -> std::borrow::Cow<'_, [u8]> {
        match self.byte_table() {
            Some(table) if !stored.is_ascii() => {
                let s: String = stored.iter().map(|b| table.chars[usize::from(*b)].unwrap_or('?')).collect();
                s.into_bytes().into()
            }
            _ => stored.into(),
        }
    }
}

/// How a collation treats trailing spaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pad {
    /// Trailing spaces do not count (`'a' = 'a  '`).
    Space,
    /// Every character counts (`_nopad_` collations, `binary`).
    None,
}

/// Where a collation's character weights come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Weigher {
    /// The raw bytes (`binary`; `_bin` of UTF-8, whose byte order is code
    /// point order).
    Bytes,
    /// MariaDB's general_ci folding: one weight per character.
    GeneralCi,
    /// UCA 4.0.0 primary weights (`_unicode_ci`).
    Uca400,
    /// UCA 5.2.0 primary weights (`_unicode_520_ci`).
    Uca520,
    /// A one-byte charset's collation: column n of its byte table.
    Table(Charset, usize),
    /// ascii_general_ci: ASCII upper case.
    AsciiCi,
}

macro_rules! collations {
    ($($variant:ident = $id:literal, $name:literal, $charset:ident, $default:literal, $pad:ident, $weigher:expr, $sortlen:literal;)*) => {
        /// A collation MariaDB 10.11 defines and OneLog implements (the
        /// serialized name is the variant's, kept stable in catalogs).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
        pub enum Collation {
            #[default]
            $($variant,)*
        }

        impl Collation {
            /// Every collation (see [`Collation::listed`] for `SHOW
            /// COLLATION`'s order).
            pub const ALL: &'static [Collation] = &[$(Collation::$variant,)*];

            fn info(self) -> Info {
                match self {
                    $(Collation::$variant => Info {
                        id: $id,
                        name: $name,
                        charset: Charset::$charset,
                        is_default: $default,
                        pad: Pad::$pad,
                        weigher: $weigher,
                        sortlen: $sortlen,
                    },)*
                }
            }
        }
    };
}

struct Info {
    id: u16,
    name: &'static str,
    charset: Charset,
    is_default: bool,
    pad: Pad,
    weigher: Weigher,
    sortlen: u32,
}

// The first variant is the `#[default]` one: utf8mb4_general_ci, OneLog's
// default as it is MariaDB's for utf8mb4.
collations! {
    Utf8mb4GeneralCi = 45, "utf8mb4_general_ci", Utf8mb4, true, Space, Weigher::GeneralCi, 1;
    Utf8mb4Bin = 46, "utf8mb4_bin", Utf8mb4, false, Space, Weigher::Bytes, 1;
    Utf8mb4UnicodeCi = 224, "utf8mb4_unicode_ci", Utf8mb4, false, Space, Weigher::Uca400, 8;
    Utf8mb4Unicode520Ci = 246, "utf8mb4_unicode_520_ci", Utf8mb4, false, Space, Weigher::Uca520, 8;
    Utf8mb4GeneralNopadCi = 1069, "utf8mb4_general_nopad_ci", Utf8mb4, false, None, Weigher::GeneralCi, 1;
    Utf8mb4NopadBin = 1070, "utf8mb4_nopad_bin", Utf8mb4, false, None, Weigher::Bytes, 1;
    Utf8mb4UnicodeNopadCi = 1248, "utf8mb4_unicode_nopad_ci", Utf8mb4, false, None, Weigher::Uca400, 8;
    Utf8mb4Unicode520NopadCi = 1270, "utf8mb4_unicode_520_nopad_ci", Utf8mb4, false, None, Weigher::Uca520, 8;
    Utf8mb3GeneralCi = 33, "utf8mb3_general_ci", Utf8mb3, true, Space, Weigher::GeneralCi, 1;
    Utf8mb3Bin = 83, "utf8mb3_bin", Utf8mb3, false, Space, Weigher::Bytes, 1;
    Utf8mb3UnicodeCi = 192, "utf8mb3_unicode_ci", Utf8mb3, false, Space, Weigher::Uca400, 8;
    Utf8mb3Unicode520Ci = 214, "utf8mb3_unicode_520_ci", Utf8mb3, false, Space, Weigher::Uca520, 8;
    Utf8mb3GeneralNopadCi = 1057, "utf8mb3_general_nopad_ci", Utf8mb3, false, None, Weigher::GeneralCi, 1;
    Utf8mb3NopadBin = 1107, "utf8mb3_nopad_bin", Utf8mb3, false, None, Weigher::Bytes, 1;
    Utf8mb3UnicodeNopadCi = 1216, "utf8mb3_unicode_nopad_ci", Utf8mb3, false, None, Weigher::Uca400, 8;
    Utf8mb3Unicode520NopadCi = 1238, "utf8mb3_unicode_520_nopad_ci", Utf8mb3, false, None, Weigher::Uca520, 8;
    Latin1German1Ci = 5, "latin1_german1_ci", Latin1, false, Space, Weigher::Table(Charset::Latin1, 4), 1;
    Latin1SwedishCi = 8, "latin1_swedish_ci", Latin1, true, Space, Weigher::Table(Charset::Latin1, 0), 1;
    Latin1DanishCi = 15, "latin1_danish_ci", Latin1, false, Space, Weigher::Table(Charset::Latin1, 6), 1;
    Latin1German2Ci = 31, "latin1_german2_ci", Latin1, false, Space, Weigher::Table(Charset::Latin1, 5), 2;
    Latin1Bin = 47, "latin1_bin", Latin1, false, Space, Weigher::Table(Charset::Latin1, 1), 1;
    Latin1GeneralCi = 48, "latin1_general_ci", Latin1, false, Space, Weigher::Table(Charset::Latin1, 2), 1;
    Latin1GeneralCs = 49, "latin1_general_cs", Latin1, false, Space, Weigher::Table(Charset::Latin1, 3), 1;
    Latin1SpanishCi = 94, "latin1_spanish_ci", Latin1, false, Space, Weigher::Table(Charset::Latin1, 7), 1;
    Latin1SwedishNopadCi = 1032, "latin1_swedish_nopad_ci", Latin1, false, None, Weigher::Table(Charset::Latin1, 0), 1;
    Latin1NopadBin = 1071, "latin1_nopad_bin", Latin1, false, None, Weigher::Table(Charset::Latin1, 1), 1;
    Armscii8GeneralCi = 32, "armscii8_general_ci", Armscii8, true, Space, Weigher::Table(Charset::Armscii8, 0), 1;
    Armscii8Bin = 64, "armscii8_bin", Armscii8, false, Space, Weigher::Table(Charset::Armscii8, 1), 1;
    Armscii8GeneralNopadCi = 1056, "armscii8_general_nopad_ci", Armscii8, false, None, Weigher::Table(Charset::Armscii8, 0), 1;
    Armscii8NopadBin = 1088, "armscii8_nopad_bin", Armscii8, false, None, Weigher::Table(Charset::Armscii8, 1), 1;
    Cp1250GeneralCi = 26, "cp1250_general_ci", Cp1250, true, Space, Weigher::Table(Charset::Cp1250, 0), 1;
    Cp1250CroatianCi = 44, "cp1250_croatian_ci", Cp1250, false, Space, Weigher::Table(Charset::Cp1250, 1), 1;
    Cp1250Bin = 66, "cp1250_bin", Cp1250, false, Space, Weigher::Table(Charset::Cp1250, 2), 1;
    Cp1250PolishCi = 99, "cp1250_polish_ci", Cp1250, false, Space, Weigher::Table(Charset::Cp1250, 3), 1;
    Cp1250GeneralNopadCi = 1050, "cp1250_general_nopad_ci", Cp1250, false, None, Weigher::Table(Charset::Cp1250, 0), 1;
    Cp1250NopadBin = 1090, "cp1250_nopad_bin", Cp1250, false, None, Weigher::Table(Charset::Cp1250, 2), 1;
    Cp1251BulgarianCi = 14, "cp1251_bulgarian_ci", Cp1251, false, Space, Weigher::Table(Charset::Cp1251, 0), 1;
    Cp1251UkrainianCi = 23, "cp1251_ukrainian_ci", Cp1251, false, Space, Weigher::Table(Charset::Cp1251, 1), 1;
    Cp1251Bin = 50, "cp1251_bin", Cp1251, false, Space, Weigher::Table(Charset::Cp1251, 2), 1;
    Cp1251GeneralCi = 51, "cp1251_general_ci", Cp1251, true, Space, Weigher::Table(Charset::Cp1251, 3), 1;
    Cp1251GeneralCs = 52, "cp1251_general_cs", Cp1251, false, Space, Weigher::Table(Charset::Cp1251, 4), 1;
    Cp1251NopadBin = 1074, "cp1251_nopad_bin", Cp1251, false, None, Weigher::Table(Charset::Cp1251, 2), 1;
    Cp1251GeneralNopadCi = 1075, "cp1251_general_nopad_ci", Cp1251, false, None, Weigher::Table(Charset::Cp1251, 3), 1;
    Cp1256GeneralCi = 57, "cp1256_general_ci", Cp1256, true, Space, Weigher::Table(Charset::Cp1256, 0), 1;
    Cp1256Bin = 67, "cp1256_bin", Cp1256, false, Space, Weigher::Table(Charset::Cp1256, 1), 1;
    Cp1256GeneralNopadCi = 1081, "cp1256_general_nopad_ci", Cp1256, false, None, Weigher::Table(Charset::Cp1256, 0), 1;
    Cp1256NopadBin = 1091, "cp1256_nopad_bin", Cp1256, false, None, Weigher::Table(Charset::Cp1256, 1), 1;
    Cp1257LithuanianCi = 29, "cp1257_lithuanian_ci", Cp1257, false, Space, Weigher::Table(Charset::Cp1257, 0), 1;
    Cp1257Bin = 58, "cp1257_bin", Cp1257, false, Space, Weigher::Table(Charset::Cp1257, 1), 1;
    Cp1257GeneralCi = 59, "cp1257_general_ci", Cp1257, true, Space, Weigher::Table(Charset::Cp1257, 2), 1;
    Cp1257NopadBin = 1082, "cp1257_nopad_bin", Cp1257, false, None, Weigher::Table(Charset::Cp1257, 1), 1;
    Cp1257GeneralNopadCi = 1083, "cp1257_general_nopad_ci", Cp1257, false, None, Weigher::Table(Charset::Cp1257, 2), 1;
    Cp850GeneralCi = 4, "cp850_general_ci", Cp850, true, Space, Weigher::Table(Charset::Cp850, 0), 1;
    Cp850Bin = 80, "cp850_bin", Cp850, false, Space, Weigher::Table(Charset::Cp850, 1), 1;
    Cp850GeneralNopadCi = 1028, "cp850_general_nopad_ci", Cp850, false, None, Weigher::Table(Charset::Cp850, 0), 1;
    Cp850NopadBin = 1104, "cp850_nopad_bin", Cp850, false, None, Weigher::Table(Charset::Cp850, 1), 1;
    Cp852GeneralCi = 40, "cp852_general_ci", Cp852, true, Space, Weigher::Table(Charset::Cp852, 0), 1;
    Cp852Bin = 81, "cp852_bin", Cp852, false, Space, Weigher::Table(Charset::Cp852, 1), 1;
    Cp852GeneralNopadCi = 1064, "cp852_general_nopad_ci", Cp852, false, None, Weigher::Table(Charset::Cp852, 0), 1;
    Cp852NopadBin = 1105, "cp852_nopad_bin", Cp852, false, None, Weigher::Table(Charset::Cp852, 1), 1;
    Cp866GeneralCi = 36, "cp866_general_ci", Cp866, true, Space, Weigher::Table(Charset::Cp866, 0), 1;
    Cp866Bin = 68, "cp866_bin", Cp866, false, Space, Weigher::Table(Charset::Cp866, 1), 1;
    Cp866GeneralNopadCi = 1060, "cp866_general_nopad_ci", Cp866, false, None, Weigher::Table(Charset::Cp866, 0), 1;
    Cp866NopadBin = 1092, "cp866_nopad_bin", Cp866, false, None, Weigher::Table(Charset::Cp866, 1), 1;
    Dec8SwedishCi = 3, "dec8_swedish_ci", Dec8, true, Space, Weigher::Table(Charset::Dec8, 0), 1;
    Dec8Bin = 69, "dec8_bin", Dec8, false, Space, Weigher::Table(Charset::Dec8, 1), 1;
    Dec8SwedishNopadCi = 1027, "dec8_swedish_nopad_ci", Dec8, false, None, Weigher::Table(Charset::Dec8, 0), 1;
    Dec8NopadBin = 1093, "dec8_nopad_bin", Dec8, false, None, Weigher::Table(Charset::Dec8, 1), 1;
    Geostd8GeneralCi = 92, "geostd8_general_ci", Geostd8, true, Space, Weigher::Table(Charset::Geostd8, 0), 1;
    Geostd8Bin = 93, "geostd8_bin", Geostd8, false, Space, Weigher::Table(Charset::Geostd8, 1), 1;
    Geostd8GeneralNopadCi = 1116, "geostd8_general_nopad_ci", Geostd8, false, None, Weigher::Table(Charset::Geostd8, 0), 1;
    Geostd8NopadBin = 1117, "geostd8_nopad_bin", Geostd8, false, None, Weigher::Table(Charset::Geostd8, 1), 1;
    GreekGeneralCi = 25, "greek_general_ci", Greek, true, Space, Weigher::Table(Charset::Greek, 0), 1;
    GreekBin = 70, "greek_bin", Greek, false, Space, Weigher::Table(Charset::Greek, 1), 1;
    GreekGeneralNopadCi = 1049, "greek_general_nopad_ci", Greek, false, None, Weigher::Table(Charset::Greek, 0), 1;
    GreekNopadBin = 1094, "greek_nopad_bin", Greek, false, None, Weigher::Table(Charset::Greek, 1), 1;
    HebrewGeneralCi = 16, "hebrew_general_ci", Hebrew, true, Space, Weigher::Table(Charset::Hebrew, 0), 1;
    HebrewBin = 71, "hebrew_bin", Hebrew, false, Space, Weigher::Table(Charset::Hebrew, 1), 1;
    HebrewGeneralNopadCi = 1040, "hebrew_general_nopad_ci", Hebrew, false, None, Weigher::Table(Charset::Hebrew, 0), 1;
    HebrewNopadBin = 1095, "hebrew_nopad_bin", Hebrew, false, None, Weigher::Table(Charset::Hebrew, 1), 1;
    Hp8EnglishCi = 6, "hp8_english_ci", Hp8, true, Space, Weigher::Table(Charset::Hp8, 0), 1;
    Hp8Bin = 72, "hp8_bin", Hp8, false, Space, Weigher::Table(Charset::Hp8, 1), 1;
    Hp8EnglishNopadCi = 1030, "hp8_english_nopad_ci", Hp8, false, None, Weigher::Table(Charset::Hp8, 0), 1;
    Hp8NopadBin = 1096, "hp8_nopad_bin", Hp8, false, None, Weigher::Table(Charset::Hp8, 1), 1;
    Keybcs2GeneralCi = 37, "keybcs2_general_ci", Keybcs2, true, Space, Weigher::Table(Charset::Keybcs2, 0), 1;
    Keybcs2Bin = 73, "keybcs2_bin", Keybcs2, false, Space, Weigher::Table(Charset::Keybcs2, 1), 1;
    Keybcs2GeneralNopadCi = 1061, "keybcs2_general_nopad_ci", Keybcs2, false, None, Weigher::Table(Charset::Keybcs2, 0), 1;
    Keybcs2NopadBin = 1097, "keybcs2_nopad_bin", Keybcs2, false, None, Weigher::Table(Charset::Keybcs2, 1), 1;
    Koi8rGeneralCi = 7, "koi8r_general_ci", Koi8r, true, Space, Weigher::Table(Charset::Koi8r, 0), 1;
    Koi8rBin = 74, "koi8r_bin", Koi8r, false, Space, Weigher::Table(Charset::Koi8r, 1), 1;
    Koi8rGeneralNopadCi = 1031, "koi8r_general_nopad_ci", Koi8r, false, None, Weigher::Table(Charset::Koi8r, 0), 1;
    Koi8rNopadBin = 1098, "koi8r_nopad_bin", Koi8r, false, None, Weigher::Table(Charset::Koi8r, 1), 1;
    Koi8uGeneralCi = 22, "koi8u_general_ci", Koi8u, true, Space, Weigher::Table(Charset::Koi8u, 0), 1;
    Koi8uBin = 75, "koi8u_bin", Koi8u, false, Space, Weigher::Table(Charset::Koi8u, 1), 1;
    Koi8uGeneralNopadCi = 1046, "koi8u_general_nopad_ci", Koi8u, false, None, Weigher::Table(Charset::Koi8u, 0), 1;
    Koi8uNopadBin = 1099, "koi8u_nopad_bin", Koi8u, false, None, Weigher::Table(Charset::Koi8u, 1), 1;
    Latin2GeneralCi = 9, "latin2_general_ci", Latin2, true, Space, Weigher::Table(Charset::Latin2, 0), 1;
    Latin2HungarianCi = 21, "latin2_hungarian_ci", Latin2, false, Space, Weigher::Table(Charset::Latin2, 1), 1;
    Latin2CroatianCi = 27, "latin2_croatian_ci", Latin2, false, Space, Weigher::Table(Charset::Latin2, 2), 1;
    Latin2Bin = 77, "latin2_bin", Latin2, false, Space, Weigher::Table(Charset::Latin2, 3), 1;
    Latin2GeneralNopadCi = 1033, "latin2_general_nopad_ci", Latin2, false, None, Weigher::Table(Charset::Latin2, 0), 1;
    Latin2NopadBin = 1101, "latin2_nopad_bin", Latin2, false, None, Weigher::Table(Charset::Latin2, 3), 1;
    Latin5TurkishCi = 30, "latin5_turkish_ci", Latin5, true, Space, Weigher::Table(Charset::Latin5, 0), 1;
    Latin5Bin = 78, "latin5_bin", Latin5, false, Space, Weigher::Table(Charset::Latin5, 1), 1;
    Latin5TurkishNopadCi = 1054, "latin5_turkish_nopad_ci", Latin5, false, None, Weigher::Table(Charset::Latin5, 0), 1;
    Latin5NopadBin = 1102, "latin5_nopad_bin", Latin5, false, None, Weigher::Table(Charset::Latin5, 1), 1;
    Latin7EstonianCs = 20, "latin7_estonian_cs", Latin7, false, Space, Weigher::Table(Charset::Latin7, 0), 1;
    Latin7GeneralCi = 41, "latin7_general_ci", Latin7, true, Space, Weigher::Table(Charset::Latin7, 1), 1;
    Latin7GeneralCs = 42, "latin7_general_cs", Latin7, false, Space, Weigher::Table(Charset::Latin7, 2), 1;
    Latin7Bin = 79, "latin7_bin", Latin7, false, Space, Weigher::Table(Charset::Latin7, 3), 1;
    Latin7GeneralNopadCi = 1065, "latin7_general_nopad_ci", Latin7, false, None, Weigher::Table(Charset::Latin7, 1), 1;
    Latin7NopadBin = 1103, "latin7_nopad_bin", Latin7, false, None, Weigher::Table(Charset::Latin7, 3), 1;
    MacceGeneralCi = 38, "macce_general_ci", Macce, true, Space, Weigher::Table(Charset::Macce, 0), 1;
    MacceBin = 43, "macce_bin", Macce, false, Space, Weigher::Table(Charset::Macce, 1), 1;
    MacceGeneralNopadCi = 1062, "macce_general_nopad_ci", Macce, false, None, Weigher::Table(Charset::Macce, 0), 1;
    MacceNopadBin = 1067, "macce_nopad_bin", Macce, false, None, Weigher::Table(Charset::Macce, 1), 1;
    MacromanGeneralCi = 39, "macroman_general_ci", Macroman, true, Space, Weigher::Table(Charset::Macroman, 0), 1;
    MacromanBin = 53, "macroman_bin", Macroman, false, Space, Weigher::Table(Charset::Macroman, 1), 1;
    MacromanGeneralNopadCi = 1063, "macroman_general_nopad_ci", Macroman, false, None, Weigher::Table(Charset::Macroman, 0), 1;
    MacromanNopadBin = 1077, "macroman_nopad_bin", Macroman, false, None, Weigher::Table(Charset::Macroman, 1), 1;
    AsciiGeneralCi = 11, "ascii_general_ci", Ascii, true, Space, Weigher::AsciiCi, 1;
    AsciiBin = 65, "ascii_bin", Ascii, false, Space, Weigher::Bytes, 1;
    AsciiGeneralNopadCi = 1035, "ascii_general_nopad_ci", Ascii, false, None, Weigher::AsciiCi, 1;
    AsciiNopadBin = 1089, "ascii_nopad_bin", Ascii, false, None, Weigher::Bytes, 1;
    Binary = 63, "binary", Binary, true, None, Weigher::Bytes, 1;
}

impl Collation {
    /// MariaDB's collation id, as sent in column definitions and TABLE_MAP.
    pub fn id(self) -> u16 {
        self.info().id
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn charset(self) -> Charset {
        self.info().charset
    }

    /// Whether this is its charset's default collation.
    pub fn is_default(self) -> bool {
        self.info().is_default
    }

    pub fn pad(self) -> Pad {
        self.info().pad
    }

    /// Whether text compares by code point (`_bin`, `_nopad_bin`, `binary`):
    /// such a collation wins over another of its charset in a comparison.
    pub fn is_binary_order(self) -> bool {
        self.info().weigher == Weigher::Bytes || self.name().ends_with("_bin")
    }

    /// `SHOW COLLATION`'s Sortlen.
    pub fn sortlen(self) -> u32 {
        self.info().sortlen
    }

    /// Maximum bytes per character.
    pub fn mbmaxlen(self) -> u32 {
        self.charset().mbmaxlen()
    }

    /// Every collation in `SHOW COLLATION`'s order: by charset as
    /// [`Charset::ALL`], then by id.
    pub fn listed() -> Vec<Collation> {
        let mut all = Collation::ALL.to_vec();
        all.sort_by_key(|c| (Charset::ALL.iter().position(|cs| *cs == c.charset()), c.id()));
        all
    }

    /// A collation by name (`utf8_*` names are utf8mb3's).
    pub fn named(name: &str) -> Option<Collation> {
        let lower = name.to_ascii_lowercase();
        let lower = match lower.strip_prefix("utf8_") {
            Some(rest) => format!("utf8mb3_{rest}"),
            None => lower,
        };
        Collation::ALL.iter().copied().find(|c| c.name() == lower)
    }

    /// A collation by MariaDB id.
    pub fn from_id(id: u16) -> Option<Collation> {
        Collation::ALL.iter().copied().find(|c| c.id() == id)
    }

    /// Whether two texts are equal under the collation.
    pub fn equal(self, a: &[u8], b: &[u8]) -> bool {
        self.compare(a, b) == Ordering::Equal
    }

    /// Orders two texts: the same order as their [`Collation::sort_key`]s,
    /// without building them for the common ASCII prefix.
    pub fn compare(self, a: &[u8], b: &[u8]) -> Ordering {
        let info = self.info();
        if let Some(order) = compare_ascii_fast(&info, a, b) {
            return order;
        }
        self.sort_key(a).cmp(&self.sort_key(b))
    }

    /// The text's weights as bytes whose byte order is the collation's
    /// order and whose equality is the collation's equality.
    pub fn sort_key(self, text: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(text.len() * 2);
        self.sort_key_into(text, &mut out);
        out
    }

    /// [`Collation::sort_key`] appended to `out`.
    pub fn sort_key_into(self, text: &[u8], out: &mut Vec<u8>) {
        let info = self.info();
        let start = out.len();
        match info.weigher {
            Weigher::Bytes => {
                out.extend_from_slice(text);
                if info.pad == Pad::Space {
                    trim_trailing(out, start, b" ");
                }
            }
            // ASCII weighs as its upper case under general_ci (and ascii's):
            // no table lookups for the common case.
            Weigher::GeneralCi | Weigher::AsciiCi if text.is_ascii() => {
                for b in text {
                    out.extend_from_slice(&[0, b.to_ascii_uppercase()]);
                }
                if info.pad == Pad::Space {
                    trim_trailing(out, start, &[0, b' ']);
                }
            }
            weigher => {
                let mut weights = Vec::with_capacity(4);
                for c in chars_lossy(text) {
                    weights.clear();
                    char_weights(weigher, c, &mut weights);
                    for w in &weights {
                        out.extend_from_slice(&w.to_be_bytes());
                    }
                }
                if info.pad == Pad::Space {
                    let mut space = Vec::with_capacity(1);
                    char_weights(weigher, ' ', &mut space);
                    if let [w] = space.as_slice() {
                        trim_trailing(out, start, &w.to_be_bytes());
                    }
                }
            }
        }
    }

    /// The weights of one character (what LIKE compares character by
    /// character: `'ß' LIKE 'ss'` is false under unicode_ci while `'ß' =
    /// 'ss'` is true, as in MariaDB).
    pub fn char_weights(self, c: char, out: &mut Vec<u16>) {
        match self.info().weigher {
            Weigher::Bytes => {
                let mut buf = [0u8; 4];
                out.extend(c.encode_utf8(&mut buf).bytes().map(u16::from));
            }
            weigher => char_weights(weigher, c, out),
        }
    }
}

/// Text as characters; bytes that are not UTF-8 count one character each
/// (as U+FFFD would, but keeping distinct bytes distinct is not needed:
/// MariaDB compares such bytes as weight 0xFFFD too).
fn chars_lossy(text: &[u8]) -> impl Iterator<Item = char> + '_ {
    text.utf8_chunks()
        .flat_map(|chunk| chunk.valid().chars().chain(chunk.invalid().iter().map(|_| char::REPLACEMENT_CHARACTER)))
}

/// Drops whole trailing `unit`s from `out[start..]`.
fn trim_trailing(out: &mut Vec<u8>, start: usize, unit: &[u8]) {
    while out.len() >= start + unit.len() && out.ends_with(unit) {
        out.truncate(out.len() - unit.len());
    }
}

/// The order of two texts from their common ASCII prefix, when that
/// decides it for a collation whose ASCII weights are simple (one weight per
/// byte, in byte order after folding); `None` to take the general path.
/// Sorting CHAR columns compares O(n log n) times, mostly ASCII.
fn compare_ascii_fast(info: &Info, a: &[u8], b: &[u8]) -> Option<Ordering> {
    let fold: fn(u8) -> u8 = match info.weigher {
        Weigher::Bytes => |b| b,
        Weigher::GeneralCi | Weigher::AsciiCi => |b: u8| b.to_ascii_uppercase(),
        _ => return None,
    };
    let same = a.iter().zip(b).take_while(|(x, y)| x.is_ascii() && fold(**x) == fold(**y)).count();
    let (ra, rb) = (&a[same..], &b[same..]);
    let is_pad = |r: &[u8]| info.pad == Pad::Space && r.iter().all(|c| *c == b' ');
    match (ra.first(), rb.first()) {
        (None, None) => Some(Ordering::Equal),
        (None, Some(_)) if is_pad(rb) => Some(Ordering::Equal),
        (Some(_), None) if is_pad(ra) => Some(Ordering::Equal),
        // One side ended: the other is greater unless its rest is padding
        // (checked above) — as its sort key would be longer.
        (None, Some(_)) => Some(Ordering::Less),
        (Some(_), None) => Some(Ordering::Greater),
        (Some(x), Some(y)) if x.is_ascii() && y.is_ascii() => {
            // A space before more text is an ordinary character here; only
            // trailing ones are padding, which the general path handles.
            if (*x == b' ' || *y == b' ') && info.pad == Pad::Space {
                None
            } else {
                Some(fold(*x).cmp(&fold(*y)))
            }
        }
        _ => None,
    }
}

fn char_weights(weigher: Weigher, c: char, out: &mut Vec<u16>) {
    let cp = c as u32;
    match weigher {
        Weigher::Bytes => out.push(cp as u16),
        Weigher::AsciiCi => out.push(if c.is_ascii() { u16::from((c as u8).to_ascii_uppercase()) } else { 0xFFFD }),
        Weigher::GeneralCi => general_ci().weights(cp, out),
        Weigher::Uca400 => uca400().weights(cp, out),
        Weigher::Uca520 => uca520().weights(cp, out),
        Weigher::Table(charset, column) => {
            let Some(table) = charset.byte_table() else { return };
            // Not a character of the charset: MariaDB would have refused it
            // or stored '?'.
            let byte = table.byte_of(c).unwrap_or(b'?');
            out.extend(table.weights[usize::from(byte)][column].iter().map(|w| u16::from(*w)));
        }
    }
}

/// Which default a weight table falls back to for characters it does not
/// list (see `tests/tools/gen_collations.py`).
#[derive(Clone, Copy)]
enum DefaultRule {
    /// general_ci: the code point, U+FFFD above the BMP.
    CodePoint,
    /// UCA implicit weights; above the BMP U+FFFD instead when `bmp_only`.
    Implicit { bmp_only: bool },
}

/// A Unicode collation's weights: the characters whose weights differ from
/// the default rule.
struct WeightTable {
    rule: DefaultRule,
    /// Per BMP code point: its slice of `pool` (offset, len), or
    /// `UNLISTED` (a dense array: text is mostly BMP, and this is looked up
    /// per character of every compared or grouped text).
    bmp: Vec<(u32, u8)>,
    /// The same above the BMP.
    supplementary: HashMap<u32, (u32, u8)>,
    pool: Vec<u16>,
}

/// A [`WeightTable::bmp`] entry of a character the default rule weighs.
const UNLISTED: (u32, u8) = (u32::MAX, 0);

impl WeightTable {
    fn parse(text: &str, rule: DefaultRule) -> WeightTable {
        let mut table =
            WeightTable { rule, bmp: vec![UNLISTED; 0x10000], supplementary: HashMap::new(), pool: Vec::new() };
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
            let mut fields = line.split(' ').map(|f| u32::from_str_radix(f, 16).unwrap_or(0));
            let first = fields.next().unwrap_or(0);
            // COUNT is decimal.
            let count: u32 = line.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
            let weights: Vec<u16> = fields.skip(1).map(|w| w as u16).collect();
            for i in 0..count {
                let offset = table.pool.len() as u32;
                match weights.as_slice() {
                    [w] => table.pool.push(w.wrapping_add(i as u16)),
                    many => table.pool.extend_from_slice(many),
                }
                let entry = (offset, (table.pool.len() as u32 - offset) as u8);
                match table.bmp.get_mut((first + i) as usize) {
                    Some(slot) => *slot = entry,
                    None => _ = table.supplementary.insert(first + i, entry),
                }
            }
        }
        table
    }

    fn weights(&self, cp: u32, out: &mut Vec<u16>) {
        let listed = match self.bmp.get(cp as usize) {
            Some(entry) => Some(entry).filter(|e| **e != UNLISTED),
            None => self.supplementary.get(&cp),
        };
        if let Some((offset, len)) = listed {
            out.extend_from_slice(&self.pool[*offset as usize..*offset as usize + usize::from(*len)]);
            return;
        }
        match self.rule {
            DefaultRule::CodePoint => out.push(if cp <= 0xFFFF { cp as u16 } else { 0xFFFD }),
            DefaultRule::Implicit { bmp_only: true } if cp > 0xFFFF => out.push(0xFFFD),
            DefaultRule::Implicit { .. } => {
                let base: u32 = match cp {
                    0x4E00..=0x9FFF | 0xF900..=0xFAFF => 0xFB40,
                    0x3400..=0x4DBF => 0xFB80,
                    _ => 0xFBC0,
                };
                out.push((base + (cp >> 15)) as u16);
                out.push(((cp & 0x7FFF) | 0x8000) as u16);
            }
        }
    }
}

fn general_ci() -> &'static WeightTable {
    static TABLE: OnceLock<WeightTable> = OnceLock::new();
    TABLE.get_or_init(|| WeightTable::parse(include_str!("collation/general_ci.txt"), DefaultRule::CodePoint))
}

fn uca400() -> &'static WeightTable {
    static TABLE: OnceLock<WeightTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        WeightTable::parse(include_str!("collation/uca400.txt"), DefaultRule::Implicit { bmp_only: true })
    })
}

fn uca520() -> &'static WeightTable {
    static TABLE: OnceLock<WeightTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        WeightTable::parse(include_str!("collation/uca520.txt"), DefaultRule::Implicit { bmp_only: false })
    })
}

/// A one-byte charset's 256 bytes: their characters and their weights per
/// collation (the columns of its `collation/` file).
struct ByteTable {
    /// `None` for a byte the charset maps to no character.
    chars: [Option<char>; 256],
    weights: Vec<Vec<Vec<u8>>>,
    /// The byte of each non-ASCII character (the first byte where two
    /// bytes map to one character, as MariaDB converts it back).
    high: HashMap<char, u8>,
}

impl ByteTable {
    fn byte_of(&self, c: char) -> Option<u8> {
        if c.is_ascii() {
            return Some(c as u8);
        }
        self.high.get(&c).copied()
    }

    /// Reads `BYTE UNICODE W...` lines (see `tests/tools/gen_charsets.py`).
    fn parse(text: &str) -> ByteTable {
        let mut table = ByteTable { chars: [None; 256], weights: vec![Vec::new(); 256], high: HashMap::new() };
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split(' ').collect();
            let Some(byte) = fields.first().and_then(|f| u8::from_str_radix(f, 16).ok()) else {
                continue;
            };
            let ch = fields.get(1).and_then(|f| u32::from_str_radix(f, 16).ok()).and_then(char::from_u32);
            table.chars[usize::from(byte)] = ch;
            if let Some(c) = ch.filter(|c| !c.is_ascii()) {
                table.high.entry(c).or_insert(byte);
            }
            table.weights[usize::from(byte)] = fields.iter().skip(2).map(|w| hex_bytes(w)).collect();
        }
        table
    }
}

/// `"4145"` → `[0x41, 0x45]`; `"-"` (no weight) → `[]`.
fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2).filter_map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eq(c: Collation, a: &str, b: &str) -> bool {
        c.equal(a.as_bytes(), b.as_bytes())
    }

    #[test]
    fn general_ci_folds_case_and_latin_accents() {
        let c = Collation::Utf8mb4GeneralCi;
        assert!(eq(c, "é", "E") && eq(c, "e", "É") && eq(c, "abc", "ABC  "));
        assert!(eq(c, "ß", "s"), "general_ci weighs ß as s");
        assert!(!eq(c, "ß", "ss"));
        assert_eq!(c.sort_key("é".as_bytes()), c.sort_key(b"e"));
        assert_eq!(c.compare(b"a", b"B"), Ordering::Less);
    }

    #[test]
    fn unicode_ci_expands_and_ignores() {
        let c = Collation::Utf8mb4UnicodeCi;
        assert!(eq(c, "ß", "ss") && eq(c, "Straße", "STRASSE"));
        assert!(!eq(c, "a", "b"));
        assert!(eq(c, "😀", "🙂"), "UCA 4.0.0 weighs every supplementary character as U+FFFD");
        assert!(!eq(Collation::Utf8mb4Unicode520Ci, "😀", "🙂"));
    }

    #[test]
    fn pad_space_and_nopad() {
        assert!(eq(Collation::Utf8mb4Bin, "a", "a   "));
        assert!(!eq(Collation::Utf8mb4NopadBin, "a", "a "));
        assert!(!eq(Collation::Utf8mb4GeneralNopadCi, "a", "A "));
        assert!(eq(Collation::Utf8mb4GeneralNopadCi, "a", "A"));
        assert!(!eq(Collation::Binary, "a", "a "));
    }

    #[test]
    fn compare_agrees_with_sort_keys() {
        let texts = ["", " ", "a", "a ", "a b", "ab", "A", "é", "e", "ß", "ss", "z", "Z ", "\t", "a\t", "€", "ÿ", "😀"];
        for c in Collation::ALL.iter().copied() {
            for a in texts {
                for b in texts {
                    if c.charset() == Charset::Ascii && !(a.is_ascii() && b.is_ascii()) {
                        continue;
                    }
                    let by_key = c.sort_key(a.as_bytes()).cmp(&c.sort_key(b.as_bytes()));
                    assert_eq!(c.compare(a.as_bytes(), b.as_bytes()), by_key, "{} {a:?} {b:?}", c.name());
                }
            }
        }
    }

    #[test]
    fn latin1_round_trips_and_orders_as_latin1() {
        let text = "€ÿé";
        let stored = Charset::Latin1.encode(text.as_bytes());
        assert_eq!(stored.as_ref(), &[0x80, 0xFF, 0xE9]);
        assert_eq!(Charset::Latin1.decode(&stored).as_ref(), text.as_bytes());
        assert_eq!(Charset::Latin1.encode("中".as_bytes()).as_ref(), b"?");
        assert_eq!(Charset::Latin1.first_unrepresentable("a中".as_bytes()), Some((1, '中')));
        // latin1_bin orders by latin1 byte: € (0x80) before ÿ (0xFF).
        assert_eq!(Collation::Latin1Bin.compare("€".as_bytes(), "ÿ".as_bytes()), Ordering::Less);
        assert!(eq(Collation::Latin1SwedishCi, "a", "A"));
        assert!(eq(Collation::Latin1German2Ci, "ä", "ae"));
    }

    #[test]
    fn one_byte_charsets_round_trip_and_order_by_their_tables() {
        let stored = Charset::Latin2.encode("Łódź".as_bytes());
        assert_eq!(stored.as_ref(), &[0xA3, 0xF3, 0x64, 0xBC]);
        assert_eq!(Charset::Latin2.decode(&stored).as_ref(), "Łódź".as_bytes());
        assert_eq!(Charset::Koi8r.encode("привет".as_bytes()).as_ref(), &[0xD0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4]);
        assert_eq!(Charset::Cp850.encode("Ç€".as_bytes()).as_ref(), b"\x80?");
        assert_eq!(Charset::Cp1251.first_unrepresentable("aą".as_bytes()), Some((1, 'ą')));
        // A byte cp1250 maps to no character reads as '?', as MariaDB converts it.
        assert_eq!(Charset::Cp1250.decode(&[0x81]).as_ref(), b"?");
        assert!(eq(Collation::Koi8rGeneralCi, "привет", "ПРИВЕТ  "));
        assert!(!eq(Collation::Koi8rBin, "привет", "ПРИВЕТ"));
        assert!(!eq(Collation::Latin2GeneralNopadCi, "ą", "Ą "));
        assert!(eq(Collation::GreekGeneralCi, "αβ", "ΑΒ"));
        // koi8r_bin orders by koi8r byte: а (0xC1) before я (0xD1).
        assert_eq!(Collation::Koi8rBin.compare("а".as_bytes(), "я".as_bytes()), Ordering::Less);
        assert_eq!(Collation::Cp1251GeneralCi.compare("ё".as_bytes(), "ж".as_bytes()), Ordering::Less);
    }

    #[test]
    fn every_table_collation_weighs_every_byte() {
        for c in Collation::ALL.iter().copied() {
            let Weigher::Table(charset, column) = c.info().weigher else { continue };
            assert_eq!(charset, c.charset(), "{}", c.name());
            let table = charset.byte_table().expect("a one-byte charset has its table");
            for (byte, weights) in table.weights.iter().enumerate() {
                assert!(weights.get(column).is_some_and(|w| !w.is_empty()), "{} byte {byte:02X}", c.name());
            }
        }
    }

    #[test]
    fn names_ids_and_defaults() {
        assert_eq!(Collation::named("UTF8_GENERAL_CI"), Some(Collation::Utf8mb3GeneralCi));
        assert_eq!(Collation::named("utf8mb4_0900_ai_ci"), None);
        assert_eq!(Collation::from_id(8), Some(Collation::Latin1SwedishCi));
        for cs in Charset::ALL.iter().copied() {
            let d = cs.default_collation();
            assert!(d.is_default() && d.charset() == cs);
            assert_eq!(Collation::ALL.iter().filter(|c| c.charset() == cs && c.is_default()).count(), 1);
        }
        assert_eq!(Collation::default(), Collation::Utf8mb4GeneralCi);
        assert_eq!(Charset::named("KOI8R"), Some(Charset::Koi8r));
        assert_eq!(Collation::from_id(9), Some(Collation::Latin2GeneralCi));
        assert_eq!(Collation::named("cp850_general_ci").map(Collation::id), Some(4));
    }
}
