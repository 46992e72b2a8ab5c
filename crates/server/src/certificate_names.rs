//! A client certificate's issuer and subject in OpenSSL's one-line form
//! (`X509_NAME_oneline`: `/C=US/O=Org/CN=name`), which MariaDB compares
//! `REQUIRE ISSUER` / `SUBJECT` with byte for byte. x509-parser parses the
//! certificate; its own rendering (`CN=name, O=Org`) is RFC 4514's, not
//! OpenSSL's, so the few lines that spell names the OpenSSL way are here.

use onelog_sql::connections::CertificateNames;
use x509_parser::prelude::{FromDer, X509Certificate, X509Name};

/// OpenSSL's short names of the attributes certificates use; an attribute
/// not listed is written as its dotted OID, as OpenSSL writes one it has no
/// name for.
const SHORT_NAMES: &[(&str, &str)] = &[
    ("2.5.4.6", "C"),
    ("2.5.4.8", "ST"),
    ("2.5.4.7", "L"),
    ("2.5.4.10", "O"),
    ("2.5.4.11", "OU"),
    ("2.5.4.3", "CN"),
    ("1.2.840.113549.1.9.1", "emailAddress"),
    ("0.9.2342.19200300.100.1.25", "DC"),
    ("0.9.2342.19200300.100.1.1", "UID"),
    ("2.5.4.5", "serialNumber"),
    ("2.5.4.12", "title"),
    ("2.5.4.42", "GN"),
    ("2.5.4.4", "SN"),
    ("2.5.4.43", "initials"),
    ("2.5.4.9", "street"),
    ("2.5.4.17", "postalCode"),
    ("2.5.4.41", "name"),
    ("2.5.4.46", "dnQualifier"),
    ("2.5.4.65", "pseudonym"),
    ("2.5.4.44", "generationQualifier"),
];

/// The names of a DER certificate; `None` if it does not parse.
pub fn of_der(der: &[u8]) -> Option<CertificateNames> {
    let (_, cert) = X509Certificate::from_der(der).ok()?;
    Some(CertificateNames { issuer: oneline(cert.issuer()), subject: oneline(cert.subject()) })
}

/// `/attr=value` per attribute in order; bytes outside printable ASCII as
/// `\xHH`, as OpenSSL escapes them.
fn oneline(name: &X509Name) -> String {
    let mut out = String::new();
    for attr in name.iter_attributes() {
        let oid = attr.attr_type().to_id_string();
        let short = SHORT_NAMES.iter().find(|(o, _)| *o == oid).map_or(oid.as_str(), |(_, n)| n);
        out.push('/');
        out.push_str(short);
        out.push('=');
        for &byte in attr.attr_value().data.iter() {
            if (0x20..0x7f).contains(&byte) {
                out.push(byte as char);
            } else {
                out.push_str(&format!("\\x{byte:02X}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_spelled_as_openssl_spells_them() {
        let mut params = rcgen::CertificateParams::new(vec!["localhost".into()]).expect("params");
        let mut dn = rcgen::DistinguishedName::new();
        dn.push(rcgen::DnType::CountryName, "US");
        dn.push(rcgen::DnType::OrganizationName, "One Log");
        dn.push(rcgen::DnType::CommonName, "client é");
        params.distinguished_name = dn;
        let key = rcgen::KeyPair::generate().expect("key");
        let cert = params.self_signed(&key).expect("cert");
        let names = of_der(cert.der()).expect("parses");
        assert_eq!(names.subject, "/C=US/O=One Log/CN=client \\xC3\\xA9");
        assert_eq!(names.issuer, names.subject);
        assert_eq!(of_der(b"not a certificate"), None);
    }
}
