//! Who is at the other end of a Unix socket: the unix_socket plugin logs
//! an account in when the client process runs as the OS user of the
//! account's name.

use std::os::fd::{AsFd, AsRawFd};

/// The OS user name of the process that connected `socket` (`SO_PEERCRED`);
/// `None` when it is not a Unix socket or the uid has no name.
pub fn os_user(socket: &impl AsFd) -> Option<String> {
    let mut cred = libc::ucred { pid: 0, uid: 0, gid: 0 };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: `cred` and `len` are valid for writes of the sizes given, and
    // the descriptor is borrowed for the call.
    let rc = unsafe {
        libc::getsockopt(
            socket.as_fd().as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if rc != 0 || len as usize != std::mem::size_of::<libc::ucred>() {
        return None;
    }
    user_name(cred.uid)
}

/// The OS user the server runs as.
pub fn own_user_name() -> Option<String> {
    // SAFETY: geteuid cannot fail.
    user_name(unsafe { libc::geteuid() })
}

/// The name `getpwuid_r` gives `uid`.
fn user_name(uid: libc::uid_t) -> Option<String> {
    let mut buf = vec![0u8; 4096];
    // SAFETY: an all-zero passwd is a valid value to be overwritten.
    let mut pwd: libc::passwd = unsafe { std::mem::zeroed() };
    let mut found: *mut libc::passwd = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call; `buf` outlives the use of
    // `pwd.pw_name`, which points into it.
    let rc = unsafe { libc::getpwuid_r(uid, &mut pwd, buf.as_mut_ptr().cast(), buf.len(), &mut found) };
    if rc != 0 || found.is_null() || pwd.pw_name.is_null() {
        return None;
    }
    // SAFETY: getpwuid_r succeeded, so pw_name is a NUL-terminated string in `buf`.
    let name = unsafe { std::ffi::CStr::from_ptr(pwd.pw_name) };
    Some(name.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_socket_pair_is_our_own_user() {
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        // SAFETY: geteuid has no preconditions.
        let me = user_name(unsafe { libc::geteuid() });
        assert!(me.is_some());
        assert_eq!(os_user(&a), me);
    }
}
