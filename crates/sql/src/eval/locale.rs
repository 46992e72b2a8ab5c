//! FORMAT(x, d, locale): the number conventions of MariaDB 10.11's locales
//! (`lc_time_names` names), measured from MariaDB's own FORMAT output.

/// How a locale writes a number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NumberStyle {
    pub decimal_point: char,
    /// Between digit groups; `None` for no grouping.
    pub thousands_sep: Option<char>,
    /// Groups of 3 then 2 (12,34,567), as Indian locales group.
    pub indian: bool,
}

const fn style(decimal_point: char, thousands_sep: Option<char>) -> NumberStyle {
    NumberStyle { decimal_point, thousands_sep, indian: false }
}

pub const EN_US: NumberStyle = style('.', Some(','));

/// Locales by number style (all others MariaDB knows write en_US numbers).
const STYLES: &[(NumberStyle, &[&str])] = &[
    (style('.', None), &["ar_SA", "sr_RS"]),
    (
        style(',', Some('.')),
        &[
            "be_BY", "da_DK", "de_BE", "de_DE", "de_LU", "es_AR", "es_BO", "es_CL", "es_CO", "es_EC", "es_ES", "es_PY",
            "es_UY", "es_VE", "fo_FO", "hu_HU", "id_ID", "is_IS", "lt_LT", "mn_MN", "nb_NO", "no_NO", "ro_RO", "ru_UA",
            "sq_AL", "tr_TR", "uk_UA", "vi_VN",
        ],
    ),
    // MariaDB's bg_BG groups with a NUL byte.
    (style(',', Some('\0')), &["bg_BG"]),
    (
        style(',', None),
        &[
            "ca_ES", "de_AT", "el_GR", "eu_ES", "fr_BE", "fr_CA", "fr_CH", "fr_FR", "fr_LU", "gl_ES", "hr_HR", "it_IT",
            "nl_BE", "nl_NL", "pl_PL", "pt_BR", "pt_PT", "sl_SI",
        ],
    ),
    (
        style(',', Some(' ')),
        &["cs_CZ", "es_CR", "et_EE", "fi_FI", "ka_GE", "lv_LV", "mk_MK", "ru_RU", "sk_SK", "sv_FI", "sv_SE"],
    ),
    (style('.', Some('\'')), &["de_CH"]),
    (style(',', Some('\'')), &["it_CH", "rm_CH"]),
    (NumberStyle { decimal_point: '.', thousands_sep: Some(','), indian: true }, &["en_IN", "ta_IN", "te_IN"]),
];

/// The remaining locales MariaDB knows, which write numbers as en_US does.
const EN_US_LIKE: &[&str] = &[
    "ar_AE", "ar_BH", "ar_DZ", "ar_EG", "ar_IN", "ar_IQ", "ar_JO", "ar_KW", "ar_LB", "ar_LY", "ar_MA", "ar_OM",
    "ar_QA", "ar_SD", "ar_SY", "ar_TN", "ar_YE", "en_AU", "en_CA", "en_GB", "en_NZ", "en_PH", "en_US", "en_ZA",
    "en_ZW", "es_DO", "es_GT", "es_HN", "es_MX", "es_NI", "es_PA", "es_PE", "es_PR", "es_SV", "es_US", "gu_IN",
    "he_IL", "hi_IN", "ja_JP", "ko_KR", "ms_MY", "th_TH", "ur_PK", "zh_CN", "zh_HK", "zh_TW",
];

/// A locale's number style by name (any letter case); `None` if MariaDB
/// does not know the name.
pub fn number_style(name: &str) -> Option<NumberStyle> {
    if EN_US_LIKE.iter().any(|n| n.eq_ignore_ascii_case(name)) {
        return Some(EN_US);
    }
    STYLES.iter().find(|(_, names)| names.iter().any(|n| n.eq_ignore_ascii_case(name))).map(|(s, _)| *s)
}

/// `digits` (an unsigned integer part) grouped in the style's way.
pub fn group_digits(digits: &str, style: NumberStyle) -> String {
    let Some(sep) = style.thousands_sep else { return digits.to_string() };
    let chars: Vec<char> = digits.chars().collect();
    // Group boundaries, counted from the right.
    let mut cuts = Vec::new();
    let mut at = 3;
    while at < chars.len() {
        cuts.push(chars.len() - at);
        at += if style.indian { 2 } else { 3 };
    }
    let mut out = String::with_capacity(digits.len() + cuts.len());
    for (i, c) in chars.iter().enumerate() {
        if cuts.contains(&i) {
            out.push(sep);
        }
        out.push(*c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_as_mariadb() {
        let de = number_style("de_de").unwrap_or(EN_US);
        assert_eq!(group_digits("1234567", de), "1.234.567");
        let indian = number_style("en_IN").unwrap_or(EN_US);
        assert_eq!(group_digits("123456789012345", indian), "12,34,56,78,90,12,345");
        assert_eq!(group_digits("123", EN_US), "123");
        assert_eq!(number_style("xx"), None);
    }
}
