//! Certificates for the `+tls` columns: one CA, a server certificate both
//! servers present, and a client certificate. sysbench 1.0 takes no paths:
//! with `--mysql-ssl=on` it loads `client-key.pem`, `client-cert.pem` and
//! `cacert.pem` from its working directory, so the files get those names
//! and sysbench runs in their directory.

use std::path::{Path, PathBuf};

use crate::error::{BenchError, Result};

/// The files of one run's certificate set.
#[derive(Debug, Clone)]
pub struct TlsFiles {
    /// Holds every file; sysbench's working directory.
    pub dir: PathBuf,
    pub ca: PathBuf,
    pub server_cert: PathBuf,
    pub server_key: PathBuf,
}

fn failed(e: rcgen::Error) -> BenchError {
    BenchError::Command { what: "making TLS certificates".into(), detail: e.to_string() }
}

fn leaf(
    name: &str,
    purpose: rcgen::ExtendedKeyUsagePurpose,
    ca: &rcgen::CertifiedIssuer<'static, rcgen::KeyPair>,
) -> Result<(String, String)> {
    let names = if purpose == rcgen::ExtendedKeyUsagePurpose::ServerAuth {
        vec!["localhost".to_string(), "127.0.0.1".to_string()]
    } else {
        Vec::new()
    };
    let mut params = rcgen::CertificateParams::new(names).map_err(failed)?;
    params.distinguished_name.push(rcgen::DnType::CommonName, name);
    params.extended_key_usages = vec![purpose];
    let key = rcgen::KeyPair::generate().map_err(failed)?;
    let cert = params.signed_by(&key, ca).map_err(failed)?;
    Ok((cert.pem(), key.serialize_pem()))
}

/// Makes the set in `dir` (created).
pub fn make_tls_files(dir: &Path) -> Result<TlsFiles> {
    std::fs::create_dir_all(dir).map_err(|e| BenchError::io(dir, e))?;
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).map_err(failed)?;
    ca_params.distinguished_name.push(rcgen::DnType::CommonName, "onelog bench CA");
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params.key_usages = vec![rcgen::KeyUsagePurpose::KeyCertSign, rcgen::KeyUsagePurpose::CrlSign];
    let ca =
        rcgen::CertifiedIssuer::self_signed(ca_params, rcgen::KeyPair::generate().map_err(failed)?).map_err(failed)?;
    let (server_cert, server_key) = leaf("onelog bench server", rcgen::ExtendedKeyUsagePurpose::ServerAuth, &ca)?;
    let (client_cert, client_key) = leaf("onelog bench client", rcgen::ExtendedKeyUsagePurpose::ClientAuth, &ca)?;
    let files = TlsFiles {
        dir: dir.to_path_buf(),
        ca: dir.join("cacert.pem"),
        server_cert: dir.join("server-cert.pem"),
        server_key: dir.join("server-key.pem"),
    };
    for (path, text) in [
        (files.ca.clone(), ca.pem()),
        (files.server_cert.clone(), server_cert),
        (files.server_key.clone(), server_key),
        (dir.join("client-cert.pem"), client_cert),
        (dir.join("client-key.pem"), client_key),
    ] {
        std::fs::write(&path, text).map_err(|e| BenchError::io(&path, e))?;
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    #[test]
    fn makes_every_file_sysbench_loads() {
        let dir = tempfile::tempdir().expect("tempdir");
        let files = super::make_tls_files(dir.path()).expect("certificates");
        for name in ["cacert.pem", "client-cert.pem", "client-key.pem", "server-cert.pem", "server-key.pem"] {
            let text = std::fs::read_to_string(dir.path().join(name)).expect(name);
            assert!(text.starts_with("-----BEGIN"), "{name}: {text}");
        }
        assert_eq!(files.ca, dir.path().join("cacert.pem"));
    }
}
