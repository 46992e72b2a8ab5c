//! The RSA key pair caching_sha2_password's full authentication encrypts
//! passwords with on a connection without TLS: `private_key.pem` and
//! `public_key.pem` in the data directory, made on the first start as
//! MySQL 8 makes them (`caching_sha2_password_auto_generate_rsa_keys`).

use anyhow::Context;
use onelog_protocol::full_auth::RsaKeys;
use std::path::Path;
use std::sync::Arc;

const PRIVATE_KEY: &str = "private_key.pem";
const PUBLIC_KEY: &str = "public_key.pem";

/// The data directory's key pair, made (and written, the private key mode
/// 0600) if it has none.
pub fn load_or_make(datadir: &Path) -> anyhow::Result<Arc<RsaKeys>> {
    let private = datadir.join(PRIVATE_KEY);
    if private.exists() {
        let pem = std::fs::read_to_string(&private).with_context(|| format!("cannot read {}", private.display()))?;
        return Ok(Arc::new(RsaKeys::from_private_pem(&pem).with_context(|| private.display().to_string())?));
    }
    let keys = RsaKeys::generate()?;
    crate::tls::write_file(&datadir.join(PUBLIC_KEY), keys.public_pem().as_bytes(), 0o644)?;
    // Last: its presence says the pair is complete.
    crate::tls::write_file(&private, keys.private_pem()?.as_bytes(), 0o600)?;
    tracing::info!("made an RSA key pair for caching_sha2_password in {} ({PRIVATE_KEY})", datadir.display());
    Ok(Arc::new(keys))
}
