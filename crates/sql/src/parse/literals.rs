//! MariaDB's hex and bit literals, which sqlparser reads alike: `0x41`
//! and `b'1000001'` are hybrids (a binary string that is a number where a
//! number is wanted, `ast::Expr::HexHybrid`), `X'41'` is a plain string.
//! sqlparser gives `0x41` and `X'41'` the same token, so the source text
//! is rewritten before it parses: `0x41` becomes `b'01000001'`, which
//! `expr::convert_value` makes the hybrid. ENUM and SET members may be
//! written as such literals too; sqlparser takes only quoted strings
//! there, so they become a marked string whose bytes `member_label`
//! decodes once the column's charset is known.

use onelog_core::Charset;
use sqlparser::tokenizer::Token;

/// Starts a member string that holds hex digits, not text: no client
/// writes a U+0001 in a member name.
const HEX_MEMBER_MARK: char = '\u{1}';

/// `0x41` (as written) in the bit-literal form sqlparser keeps apart from
/// `X'41'`; None for any other token. `0x` alone stays what it was.
pub(super) fn hybrid_form(token: &Token, written: &str) -> Option<String> {
    match token {
        Token::HexStringLiteral(digits) if written.starts_with("0x") && !digits.is_empty() => {
            let bits: String = digits.chars().filter_map(|c| c.to_digit(16)).map(|n| format!("{n:04b}")).collect();
            Some(format!("b'{bits}'"))
        }
        _ => None,
    }
}

/// A quoted string as written, with the escapes MariaDB does not have
/// (`\a` and `\f`, which sqlparser reads as BEL and form feed) written as
/// the letter they stand for in MariaDB; `None` when it has none.
pub(super) fn without_foreign_escapes(token: &Token, written: &str) -> Option<String> {
    if !matches!(token, Token::SingleQuotedString(_) | Token::DoubleQuotedString(_)) || !written.contains('\\') {
        return None;
    }
    let mut out = String::with_capacity(written.len());
    let mut changed = false;
    let mut chars = written.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(letter @ ('a' | 'f')) => {
                out.push(letter);
                changed = true;
            }
            Some(escaped) => {
                out.push('\\');
                out.push(escaped);
            }
            None => out.push('\\'),
        }
    }
    changed.then_some(out)
}

/// Whether a `(` after `previous` opens an ENUM or SET member list.
pub(super) fn opens_member_list(previous: Option<&Token>) -> bool {
    matches!(previous, Some(Token::Word(w)) if w.quote_style.is_none()
        && (w.value.eq_ignore_ascii_case("ENUM") || w.value.eq_ignore_ascii_case("SET")))
}

/// A hex or bit literal in a member list, as the marked string sqlparser
/// accepts there; None for any other token.
pub(super) fn member_string(token: &Token, written: &str) -> Option<String> {
    let hex = match token {
        Token::HexStringLiteral(digits) if !written.starts_with("0x") || !digits.is_empty() => digits.clone(),
        Token::SingleQuotedByteStringLiteral(bits) => {
            let bytes = bit_bytes(bits)?;
            bytes.iter().map(|b| format!("{b:02X}")).collect()
        }
        _ => return None,
    };
    Some(format!("'{HEX_MEMBER_MARK}{hex}'"))
}

/// b'bits' as bytes: the bits right-aligned in whole bytes (b'' is no
/// byte); None when a character is not a bit.
pub(super) fn bit_bytes(bits: &str) -> Option<Vec<u8>> {
    if !bits.bytes().all(|b| b == b'0' || b == b'1') {
        return None;
    }
    let padded = format!("{}{bits}", "0".repeat((8 - bits.len() % 8) % 8));
    (0..padded.len()).step_by(8).map(|i| u8::from_str_radix(&padded[i..i + 8], 2).ok()).collect()
}

/// Hex digits as bytes (an odd count has a leading 0, as in MariaDB);
/// None when a character is not a hex digit.
pub(super) fn hex_bytes(digits: &str) -> Option<Vec<u8>> {
    let padded = if digits.len() % 2 == 1 { format!("0{digits}") } else { digits.to_string() };
    (0..padded.len()).step_by(2).map(|i| u8::from_str_radix(padded.get(i..i + 2)?, 16).ok()).collect()
}

/// A member name as declared: a marked one is its bytes read in the
/// column's charset (`charset`; a column that takes the table's has none
/// yet, and its bytes read as UTF-8 when they are, else as latin1).
pub(super) fn member_label(raw: &str, charset: Option<Charset>) -> String {
    match raw.strip_prefix(HEX_MEMBER_MARK).and_then(hex_bytes) {
        Some(bytes) => text_in(bytes, charset),
        None => raw.to_string(),
    }
}

/// Bytes read as text of `charset` (see `member_label` for `None`).
pub(super) fn text_in(bytes: Vec<u8>, charset: Option<Charset>) -> String {
    let utf8 = String::from_utf8(bytes.clone());
    match (charset, utf8) {
        (Some(Charset::Latin1 | Charset::Ascii), _) | (None, Err(_)) => bytes.iter().map(|b| char::from(*b)).collect(),
        (Some(one_byte), _) if one_byte.is_byte_table() => {
            String::from_utf8_lossy(&one_byte.decode(&bytes)).into_owned()
        }
        (_, Ok(text)) => text,
        (_, Err(_)) => String::from_utf8_lossy(&bytes).into_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backslash_a_and_f_are_the_letters() {
        let token = Token::SingleQuotedString(String::new());
        assert_eq!(without_foreign_escapes(&token, r"'C:\files\abc'").as_deref(), Some(r"'C:filesabc'"));
        assert_eq!(without_foreign_escapes(&token, r"'\\a\n'"), None);
        assert_eq!(without_foreign_escapes(&token, r"'\a\f\v'").as_deref(), Some(r"'af\v'"));
    }

    #[test]
    fn zero_x_becomes_bits_and_x_quote_stays() {
        let token = Token::HexStringLiteral("41".into());
        assert_eq!(hybrid_form(&token, "0x41").as_deref(), Some("b'01000001'"));
        assert_eq!(hybrid_form(&token, "X'41'"), None);
        assert_eq!(hybrid_form(&Token::HexStringLiteral("123".into()), "0x123").as_deref(), Some("b'000100100011'"));
    }

    #[test]
    fn marked_members_decode_in_the_column_charset() {
        let marked = member_string(&Token::HexStringLiteral("E4".into()), "0xE4").unwrap_or_default();
        let raw = marked.trim_matches('\'');
        assert_eq!(member_label(raw, Some(Charset::Latin1)), "ä");
        assert_eq!(member_label(raw, None), "ä");
        let bits = member_string(&Token::SingleQuotedByteStringLiteral("1000001".into()), "b'1000001'");
        assert_eq!(member_label(bits.unwrap_or_default().trim_matches('\''), None), "A");
        assert_eq!(member_label("plain", None), "plain");
    }

    #[test]
    fn odd_hex_digits_lead_with_zero() {
        assert_eq!(hex_bytes("123"), Some(vec![0x01, 0x23]));
        assert_eq!(hex_bytes("zz"), None);
        assert_eq!(bit_bytes("100000001"), Some(vec![1, 1]));
        assert_eq!(bit_bytes(""), Some(vec![]));
    }
}
