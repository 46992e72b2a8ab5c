//! Character sets and collations: which characters a text value may hold,
//! and the one rule by which two texts compare.
//!
//! Owns: [`Charset`] (utf8mb4, utf8mb3, latin1, ascii, binary) with its
//! conversion from and to OneLog's in-memory text (always UTF-8; latin1 and
//! ascii are converted only where bytes leave or enter in the column's own
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

/// A character set: which characters a value may hold and how they are
/// stored outside memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Charset {
    Utf8mb4,
    /// MariaDB's `utf8` (old_mode UTF8_IS_UTF8MB3, the 10.11 default): the
    /// Basic Multilingual Plane only.
    Utf8mb3,
    /// MariaDB's latin1: cp1252 with its five undefined bytes mapped to the
    /// C1 controls.
    Latin1,
    Ascii,
    Binary,
}

/// A character the target charset cannot hold (error 1366 / warning).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unrepresentable;

impl Charset {
    /// Every charset, in `SHOW CHARACTER SET` order (MariaDB's).
    pub const ALL: [Charset; 5] =
        [Charset::Latin1, Charset::Ascii, Charset::Utf8mb3, Charset::Utf8mb4, Charset::Binary];

    pub fn name(self) -> &'static str {
        match self {
            Charset::Utf8mb4 => "utf8mb4",
            Charset::Utf8mb3 => "utf8mb3",
            Charset::Latin1 => "latin1",
            Charset::Ascii => "ascii",
            Charset::Binary => "binary",
        }
    }

    /// `SHOW CHARACTER SET`'s description.
    pub fn description(self) -> &'static str {
        match self {
            Charset::Utf8mb4 | Charset::Utf8mb3 => "UTF-8 Unicode",
            Charset::Latin1 => "cp1252 West European",
            Charset::Ascii => "US ASCII",
            Charset::Binary => "Binary pseudo charset",
        }
    }

    /// A charset by name as SQL spells it (`utf8` is utf8mb3, as in
    /// MariaDB 10.11's default old_mode).
    pub fn named(name: &str) -> Option<Charset> {
        // No allocation: sessions look their charsets up on every statement.
        if name.eq_ignore_ascii_case("utf8") {
            return Some(Charset::Utf8mb3);
        }
        Charset::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }

    pub fn default_collation(self) -> Collation {
        match self {
            Charset::Utf8mb4 => Collation::Utf8mb4GeneralCi,
            Charset::Utf8mb3 => Collation::Utf8mb3GeneralCi,
            Charset::Latin1 => Collation::Latin1SwedishCi,
            Charset::Ascii => Collation::AsciiGeneralCi,
            Charset::Binary => Collation::Binary,
        }
    }

    /// Maximum bytes per character in the charset's own encoding.
    pub fn mbmaxlen(self) -> u32 {
        match self {
            Charset::Utf8mb4 => 4,
            Charset::Utf8mb3 => 3,
            Charset::Latin1 | Charset::Ascii | Charset::Binary => 1,
        }
    }

    /// Whether the charset can hold `c`.
    pub fn holds(self, c: char) -> bool {
        match self {
            Charset::Utf8mb4 | Charset::Binary => true,
            Charset::Utf8mb3 => (c as u32) <= 0xFFFF,
            Charset::Latin1 => latin1().byte_of(c).is_some(),
            Charset::Ascii => c.is_ascii(),
        }
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
            Charset::Latin1 | Charset::Ascii if !text.is_ascii() => match std::str::from_utf8(text) {
                Ok(s) => s
                    .chars()
                    .map(|c| match self {
                        Charset::Latin1 => latin1().byte_of(c).unwrap_or(b'?'),
                        _ if c.is_ascii() => c as u8,
                        _ => b'?',
                    })
                    .collect::<Vec<u8>>()
                    .into(),
                Err(_) => text.into(),
            },
            _ => text.into(),
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

    /// The inverse of [`Charset::encode`]: stored bytes as in-memory UTF-8.
    pub fn decode(self, stored: &[u8]) -> std::borrow::Cow<'_, [u8]> {
        match self {
            Charset::Latin1 if !stored.is_ascii() => {
                let table = latin1();
                let s: String = stored.iter().map(|b| table.chars[usize::from(*b)]).collect();
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
    /// A latin1 collation: column n of `latin1.txt`.
    Latin1(usize),
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
    Latin1German1Ci = 5, "latin1_german1_ci", Latin1, false, Space, Weigher::Latin1(4), 1;
    Latin1SwedishCi = 8, "latin1_swedish_ci", Latin1, true, Space, Weigher::Latin1(0), 1;
    Latin1DanishCi = 15, "latin1_danish_ci", Latin1, false, Space, Weigher::Latin1(6), 1;
    Latin1German2Ci = 31, "latin1_german2_ci", Latin1, false, Space, Weigher::Latin1(5), 2;
    Latin1Bin = 47, "latin1_bin", Latin1, false, Space, Weigher::Latin1(1), 1;
    Latin1GeneralCi = 48, "latin1_general_ci", Latin1, false, Space, Weigher::Latin1(2), 1;
    Latin1GeneralCs = 49, "latin1_general_cs", Latin1, false, Space, Weigher::Latin1(3), 1;
    Latin1SpanishCi = 94, "latin1_spanish_ci", Latin1, false, Space, Weigher::Latin1(7), 1;
    Latin1SwedishNopadCi = 1032, "latin1_swedish_nopad_ci", Latin1, false, None, Weigher::Latin1(0), 1;
    Latin1NopadBin = 1071, "latin1_nopad_bin", Latin1, false, None, Weigher::Latin1(1), 1;
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
        Weigher::Bytes if info.charset != Charset::Latin1 => |b| b,
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
        Weigher::Latin1(column) => {
            let table = latin1();
            match table.byte_of(c) {
                Some(b) => out.extend(table.weights[usize::from(b)][column].iter().map(|w| u16::from(*w))),
                // Not a latin1 character: MariaDB would have refused it or
                // stored '?'.
                None => out.extend(table.weights[usize::from(b'?')][column].iter().map(|w| u16::from(*w))),
            }
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

/// latin1's 256 bytes: their characters and their weights per latin1
/// collation (columns of `latin1.txt`).
struct Latin1Table {
    chars: [char; 256],
    weights: Vec<Vec<Vec<u8>>>,
    /// The bytes of the characters outside U+0000..U+00FF's identity
    /// mapping (cp1252's 0x80..0x9F).
    high: HashMap<char, u8>,
}

impl Latin1Table {
    fn byte_of(&self, c: char) -> Option<u8> {
        let cp = c as u32;
        if cp < 0x80 || (0xA0..=0xFF).contains(&cp) {
            return Some(cp as u8);
        }
        self.high.get(&c).copied()
    }
}

fn latin1() -> &'static Latin1Table {
    static TABLE: OnceLock<Latin1Table> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Latin1Table { chars: ['\0'; 256], weights: vec![Vec::new(); 256], high: HashMap::new() };
        for line in include_str!("collation/latin1.txt").lines().filter(|l| !l.starts_with('#')) {
            let fields: Vec<&str> = line.split(' ').collect();
            let (Some(byte), Some(cp)) = (
                fields.first().and_then(|f| u8::from_str_radix(f, 16).ok()),
                fields.get(1).and_then(|f| u32::from_str_radix(f, 16).ok()).and_then(char::from_u32),
            ) else {
                continue;
            };
            table.chars[usize::from(byte)] = cp;
            if (0x80..0xA0).contains(&byte) {
                table.high.insert(cp, byte);
            }
            table.weights[usize::from(byte)] = fields[2..].iter().map(|w| hex_bytes(w)).collect();
        }
        table
    })
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
    fn names_ids_and_defaults() {
        assert_eq!(Collation::named("UTF8_GENERAL_CI"), Some(Collation::Utf8mb3GeneralCi));
        assert_eq!(Collation::named("utf8mb4_0900_ai_ci"), None);
        assert_eq!(Collation::from_id(8), Some(Collation::Latin1SwedishCi));
        for cs in Charset::ALL {
            let d = cs.default_collation();
            assert!(d.is_default() && d.charset() == cs);
            assert_eq!(Collation::ALL.iter().filter(|c| c.charset() == cs && c.is_default()).count(), 1);
        }
        assert_eq!(Collation::default(), Collation::Utf8mb4GeneralCi);
    }
}
