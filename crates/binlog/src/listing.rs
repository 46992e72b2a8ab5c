//! SHOW BINLOG EVENTS: the events of one binlog file from an offset, each
//! with the one-line description MariaDB prints in the Info column.
//!
//! Owns the walk over the file's bytes and the descriptions; the SQL layer
//! turns the result into rows. Any offset and any bytes are accepted: the
//! listing ends at the first position that does not hold a whole event (a
//! live file's preallocated zeros, a torn tail, an offset past the end).

use crate::event::{
    event_type_name, header_flag, parse_event, parse_header, type_code, Event, EventHeader, HEADER_LEN,
};

/// One row of SHOW BINLOG EVENTS.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedEvent {
    /// Offset of the event's first byte (the Pos column).
    pub pos: u64,
    pub header: EventHeader,
    /// The Info column; empty for events it does not describe or that do
    /// not decode.
    pub info: String,
}

impl ListedEvent {
    /// The Event_type column.
    pub fn type_name(&self) -> &'static str {
        event_type_name(self.header.type_code)
    }
}

/// The events of `data` (a whole binlog file) starting at offset `from`.
///
/// Checksums are assumed until a FORMAT_DESCRIPTION says otherwise, so a
/// listing that starts mid-file in a checksum-free file shows the events
/// with an empty Info.
pub fn list_events(data: &[u8], from: u64) -> Vec<ListedEvent> {
    let mut rows = Vec::new();
    let Ok(mut pos) = usize::try_from(from) else { return rows };
    let mut checksum = true;
    while let Some(rest) = data.get(pos..).filter(|r| r.len() >= HEADER_LEN) {
        let Ok(header) = parse_header(rest) else { break };
        let size = header.event_size as usize;
        if size > rest.len() || header.type_code == type_code::UNKNOWN {
            break;
        }
        let info = match parse_event(&rest[..size], checksum) {
            Ok(Event::FormatDescription { server_version, checksum: c, .. }) => {
                checksum = c;
                format!("Server ver: {server_version}, Binlog ver: 4")
            }
            Ok(event) => describe(event, header.flags),
            Err(_) => String::new(),
        };
        rows.push(ListedEvent { pos: pos as u64, header, info });
        pos += size;
    }
    rows
}

fn describe(event: Event, header_flags: u16) -> String {
    match event {
        Event::Gtid { gtid, flags2, .. } if flags2 & crate::event::gtid_flag::STANDALONE != 0 => format!("GTID {gtid}"),
        Event::Gtid { gtid, .. } => format!("BEGIN GTID {gtid}"),
        // As MariaDB's: no `use` where the event suppresses it (CREATE and
        // DROP DATABASE name their database but run outside it).
        Event::Query { db, sql, .. } if db.is_empty() || header_flags & header_flag::SUPPRESS_USE != 0 => sql,
        Event::Query { db, sql, .. } => format!("use `{db}`; {sql}"),
        Event::Xid(x) => format!("COMMIT /* xid={x} */"),
        Event::TableMap(m) => format!("table_id: {} ({}.{})", m.table_id, m.db, m.table),
        Event::Rows { table_id, flags, .. } => {
            let stmt_end = if flags & crate::event::rows_flag::STMT_END != 0 { " flags: STMT_END_F" } else { "" };
            format!("table_id: {table_id}{stmt_end}")
        }
        Event::Rotate { next_file, position } => format!("{next_file};pos={position}"),
        Event::GtidList(list) => {
            format!("[{}]", list.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(","))
        }
        Event::BinlogCheckpoint(f) => f,
        Event::FormatDescription { .. } | Event::Stop | Event::Other { .. } => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::{gtid_body, write_event, xid_body, GroupKind, BINLOG_MAGIC};
    use crate::Gtid;

    fn file() -> Vec<u8> {
        let mut data = BINLOG_MAGIC.to_vec();
        let g = Gtid { domain_id: 0, server_id: 1, seq_no: 5 };
        for (code, body) in
            [(type_code::GTID, gtid_body(&g, GroupKind::Transaction, None)), (type_code::XID, xid_body(9))]
        {
            let start = data.len() as u64;
            write_event(&mut data, start, 0, 1, code, 0, &body, true);
        }
        data.resize(data.len() + 64, 0);
        data
    }

    #[test]
    fn lists_from_an_offset_up_to_the_zeros() {
        let data = file();
        let rows = list_events(&data, 4);
        let shown: Vec<(u64, &str, &str)> = rows.iter().map(|r| (r.pos, r.type_name(), r.info.as_str())).collect();
        assert_eq!(shown, [(4, "Gtid", "BEGIN GTID 0-1-5"), (46, "Xid", "COMMIT /* xid=9 */")]);
        assert_eq!(list_events(&data, 46).len(), 1);
    }

    #[test]
    fn any_offset_is_an_empty_listing_not_a_panic() {
        let data = file();
        for from in [data.len() as u64, data.len() as u64 + 1, u64::MAX - 10, u64::MAX] {
            assert!(list_events(&data, from).is_empty(), "from {from}");
        }
        // Mid-event offsets list nothing that does not fit the file.
        for from in 0..data.len() as u64 {
            for row in list_events(&data, from) {
                assert!(row.pos + u64::from(row.header.event_size) <= data.len() as u64);
            }
        }
    }
}
