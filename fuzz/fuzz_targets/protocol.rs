//! Arbitrary client bytes through every protocol decoder the server runs
//! on them (`onelog_protocol::fuzzing::decode_client_bytes`): packet
//! framing, login, commands, COM_STMT_EXECUTE parameters, auth switch.
//!
//! Input: four bytes of connection state, then the client bytes. Byte 0:
//! capabilities (bits 0-1: OneLog's, none, all), bit 2 binds parameter
//! types before the execute (taken from the input after the state), bits
//! 3-4 how many parameters got long data; byte 1: the statement's
//! parameter count (mod 32); byte 2: max_allowed_packet in 64-byte units;
//! byte 3: the sequence id the packet reader expects.
#![no_main]

use libfuzzer_sys::fuzz_target;
use onelog_protocol::fuzzing::{decode_client_bytes, Session};
use onelog_protocol::stmt::ParamType;
use onelog_protocol::{server_capabilities, CapabilityFlags};

fuzz_target!(|input: &[u8]| {
    let [caps, params, max_packet, seq, rest @ ..] = input else { return };
    let num_params = usize::from(params % 32);
    let (bound_types, client_bytes) = if caps & 4 != 0 && rest.len() >= 2 * num_params {
        let (types, bytes) = rest.split_at(2 * num_params);
        let types = types.chunks(2).map(|t| ParamType { type_code: t[0], unsigned: t[1] & 0x80 != 0 }).collect();
        (types, bytes)
    } else {
        (Vec::new(), rest)
    };
    let session = Session {
        caps: [server_capabilities(), CapabilityFlags::empty(), CapabilityFlags::all()][usize::from(caps % 4).min(2)],
        num_params,
        bound_types,
        long_data: (0..(caps >> 3) & 3).map(|i| Some(vec![b'0' + i])).collect(),
        max_packet: usize::from(*max_packet) * 64,
        seq: *seq,
    };
    decode_client_bytes(client_bytes, &session);
});
