// A CDC client for the integration tests (tests/test_cdc_java.py): streams a
// server's binlog with mysql-binlog-connector-java's BinaryLogClient and its
// own deserializers, configured as Debezium configures them, and prints one
// JSON line per event so Python can compare what arrived with what was
// executed. The last line is {"type":"END",...}: why it stopped and the
// position after the last event it handled (file and offset from the
// events' headers, as the connector itself tracks them, and the last GTID),
// which is what a CDC pipeline stores to resume from.
//
// usage: java -cp CONNECTOR_JAR:CLASSES BinlogProbe --port N [--host H] [--user U]
//          [--password P] [--server-id N] [--file F --pos N | --gtid D-S-N[,...]]
//          [--rows N] [--stop-at FILE:POS] [--timeout SECONDS] [--heartbeat-ms N]
//
// It stops at the end of the transaction in which it has seen --rows row
// changes, or once its position reaches --stop-at, or at --timeout (exit 2).
// A connection or server error ends it with exit 3. Events that the connector
// fails to deserialize are printed as DESERIALIZATION_FAILURE lines (the
// connector itself only reports them to listeners and goes on).

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.DeleteRowsEventData;
import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeaderV4;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidEventData;
import com.github.shyiko.mysql.binlog.event.MariadbGtidListEventData;
import com.github.shyiko.mysql.binlog.event.QueryEventData;
import com.github.shyiko.mysql.binlog.event.RotateEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.UpdateRowsEventData;
import com.github.shyiko.mysql.binlog.event.WriteRowsEventData;
import com.github.shyiko.mysql.binlog.event.XidEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

public final class BinlogProbe {
    private final Map<String, String> opts;
    private final Map<Long, String> tables = new HashMap<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile String endReason = "timeout";
    private volatile String failure;
    private final long rowsWanted;
    private final String stopFile;
    private final long stopPos;
    private long rowsSeen;
    private String file;
    private long pos;
    private String lastGtid;
    /** The current event's header server id (a MariaDB GTID's server id is there). */
    private long eventServerId;
    private BinaryLogClient client;

    private BinlogProbe(Map<String, String> opts) {
        this.opts = opts;
        this.rowsWanted = Long.parseLong(opts.getOrDefault("rows", "0"));
        String stopAt = opts.get("stop-at");
        if (stopAt != null) {
            int colon = stopAt.lastIndexOf(':');
            stopFile = stopAt.substring(0, colon);
            stopPos = Long.parseLong(stopAt.substring(colon + 1));
        } else {
            stopFile = null;
            stopPos = 0;
        }
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            String name = args[i].replaceFirst("^--", "");
            if (i + 1 < args.length) {
                opts.put(name, args[++i]);
            } else {
                System.err.println("missing value for " + args[i]);
                System.exit(64);
            }
        }
        System.exit(new BinlogProbe(opts).run());
    }

    private int run() throws Exception {
        client = newClient(opts);
        client.setServerId(Long.parseLong(opts.getOrDefault("server-id", "4242")));
        client.setKeepAlive(false);
        if (opts.containsKey("heartbeat-ms")) {
            client.setHeartbeatInterval(Long.parseLong(opts.get("heartbeat-ms")));
        }
        if (opts.containsKey("gtid")) {
            client.setGtidSet(opts.get("gtid"));
        } else {
            client.setBinlogFilename(opts.get("file"));
            client.setBinlogPosition(Long.parseLong(opts.getOrDefault("pos", "4")));
        }
        // What Debezium's MySQL and MariaDB connectors configure.
        EventDeserializer deserializer = new EventDeserializer();
        deserializer.setCompatibilityMode(
            EventDeserializer.CompatibilityMode.DATE_AND_TIME_AS_LONG_MICRO,
            EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY,
            EventDeserializer.CompatibilityMode.INVALID_DATE_AND_TIME_AS_MIN_VALUE);
        client.setEventDeserializer(deserializer);
        client.registerEventListener(this::onEvent);
        client.registerLifecycleListener(new Lifecycle());
        long timeoutMs = (long) (Double.parseDouble(opts.getOrDefault("timeout", "30")) * 1000);
        long deadline = System.currentTimeMillis() + timeoutMs;
        try {
            client.connect(timeoutMs);
        } catch (Exception e) {
            failure = describe(e);
            endReason = "error";
        }
        if (failure == null) {
            done.await(Math.max(0, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
        }
        client.disconnect();
        print(new Json().put("type", "END").put("reason", failure != null ? "error" : endReason)
            .put("file", file).put("pos", pos).put("gtid", lastGtid).put("error", failure).toString());
        if (failure != null) {
            return 3;
        }
        return endReason.equals("timeout") ? 2 : 0;
    }

    private static BinaryLogClient newClient(Map<String, String> opts) {
        String host = opts.getOrDefault("host", "127.0.0.1");
        int port = Integer.parseInt(opts.get("port"));
        String user = opts.getOrDefault("user", "root");
        String password = opts.getOrDefault("password", "");
        return new BinaryLogClient(host, port, user, password);
    }

    private final class Lifecycle extends BinaryLogClient.AbstractLifecycleListener {
        @Override
        public void onCommunicationFailure(BinaryLogClient c, Exception e) {
            failure = describe(e);
            done.countDown();
        }

        @Override
        public void onEventDeserializationFailure(BinaryLogClient c, Exception e) {
            print(new Json().put("type", "DESERIALIZATION_FAILURE").put("error", describe(e)).toString());
        }

        @Override
        public void onDisconnect(BinaryLogClient c) {
            if (done.getCount() > 0 && failure == null) {
                endReason = "disconnected";
            }
            done.countDown();
        }
    }

    private void onEvent(Event event) {
        if (done.getCount() == 0) {
            return; // already stopped: what follows is not part of the run
        }
        EventHeaderV4 header = event.getHeader();
        EventType type = header.getEventType();
        EventData data = EventDeserializer.EventDataWrapper.internal(event.getData());
        Json line = new Json().put("type", type.name()).put("next_pos", header.getNextPosition());
        eventServerId = header.getServerId();
        boolean commit = describeEvent(data, line);
        print(line.toString());
        advance(type, data, header.getNextPosition());
        if (rowsWanted > 0 && rowsSeen >= rowsWanted && commit) {
            stop("rows");
        } else if (stopFile != null && stopFile.equals(file) && pos >= stopPos) {
            stop("stop-at");
        }
    }

    /**
     * The position after `data`, by the connector's own rule: a ROTATE names
     * it, other events carry it in their header, except a TABLE_MAP (resuming
     * there would lose the table map its rows event needs) and artificial
     * events (position 0).
     */
    private void advance(EventType type, EventData data, long nextPos) {
        if (data instanceof RotateEventData) {
            file = ((RotateEventData) data).getBinlogFilename();
            pos = ((RotateEventData) data).getBinlogPosition();
        } else if (type != EventType.TABLE_MAP && nextPos > 0) {
            pos = nextPos;
        }
    }

    /** The event's fields into `line`; whether it ends a transaction. */
    private boolean describeEvent(EventData data, Json line) {
        if (data instanceof RotateEventData) {
            RotateEventData d = (RotateEventData) data;
            line.put("file", d.getBinlogFilename()).put("pos", d.getBinlogPosition());
        } else if (data instanceof FormatDescriptionEventData) {
            FormatDescriptionEventData d = (FormatDescriptionEventData) data;
            line.put("server_version", d.getServerVersion()).put("checksum", d.getChecksumType().name());
        } else if (data instanceof MariadbGtidEventData) {
            MariadbGtidEventData d = (MariadbGtidEventData) data;
            lastGtid = d.getDomainId() + "-" + eventServerId + "-" + d.getSequence();
            line.put("gtid", lastGtid).put("flags", d.getFlags());
        } else if (data instanceof MariadbGtidListEventData) {
            line.put("gtid_list", ((MariadbGtidListEventData) data).getMariaGTIDSet().toString());
        } else if (data instanceof QueryEventData) {
            QueryEventData d = (QueryEventData) data;
            line.put("database", d.getDatabase()).put("sql", d.getSql());
            return true;
        } else if (data instanceof TableMapEventData) {
            TableMapEventData d = (TableMapEventData) data;
            tables.put(d.getTableId(), d.getDatabase() + "." + d.getTable());
            line.put("table", d.getDatabase() + "." + d.getTable());
            if (d.getEventMetadata() != null && d.getEventMetadata().getColumnNames() != null) {
                line.putRaw("columns", Json.array(d.getEventMetadata().getColumnNames()));
            }
        } else if (data instanceof WriteRowsEventData) {
            WriteRowsEventData d = (WriteRowsEventData) data;
            rows(line, d.getTableId(), d.getIncludedColumns(), d.getRows());
        } else if (data instanceof DeleteRowsEventData) {
            DeleteRowsEventData d = (DeleteRowsEventData) data;
            rows(line, d.getTableId(), d.getIncludedColumns(), d.getRows());
        } else if (data instanceof UpdateRowsEventData) {
            UpdateRowsEventData d = (UpdateRowsEventData) data;
            StringBuilder images = new StringBuilder("[");
            for (Map.Entry<Serializable[], Serializable[]> row : d.getRows()) {
                images.append(images.length() > 1 ? "," : "").append(new Json()
                    .putRaw("before", Json.row(row.getKey())).putRaw("after", Json.row(row.getValue())));
            }
            line.put("table", tables.get(d.getTableId())).putRaw("rows", images.append("]").toString());
            rowsSeen += d.getRows().size();
        } else if (data instanceof XidEventData) {
            line.put("xid", ((XidEventData) data).getXid());
            return true;
        }
        return false;
    }


    private void rows(Json line, long tableId, BitSet included, List<Serializable[]> rows) {
        StringBuilder out = new StringBuilder("[");
        for (Serializable[] row : rows) {
            out.append(out.length() > 1 ? "," : "").append(Json.row(row));
        }
        line.put("table", tables.get(tableId)).putRaw("rows", out.append("]").toString());
        line.put("columns_present", included.cardinality());
        rowsSeen += rows.size();
    }

    private void stop(String reason) {
        endReason = reason;
        done.countDown();
    }

    private static String describe(Throwable e) {
        StringBuilder s = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            s.append(s.length() > 0 ? " / caused by " : "").append(t.getClass().getName()).append(": ")
                .append(t.getMessage());
        }
        return s.toString();
    }

    private static synchronized void print(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /** A JSON object written field by field; non-ASCII is escaped, so the output is encoding-proof. */
    static final class Json {
        private final StringBuilder out = new StringBuilder("{");

        Json put(String key, Object value) {
            return putRaw(key, value(value));
        }

        Json putRaw(String key, String json) {
            out.append(out.length() > 1 ? "," : "").append(quote(key)).append(':').append(json);
            return this;
        }

        @Override
        public String toString() {
            return out + "}";
        }

        static String row(Serializable[] cells) {
            StringBuilder s = new StringBuilder("[");
            for (Serializable cell : cells) {
                s.append(s.length() > 1 ? "," : "").append(value(cell));
            }
            return s.append("]").toString();
        }

        static String array(List<String> items) {
            StringBuilder s = new StringBuilder("[");
            for (String item : items) {
                s.append(s.length() > 1 ? "," : "").append(quote(item));
            }
            return s.append("]").toString();
        }

        /** Numbers as numbers, DECIMAL as its exact text, bytes as {"hex": ...}. */
        static String value(Object v) {
            if (v == null) {
                return "null";
            } else if (v instanceof BigDecimal) {
                return quote(((BigDecimal) v).toPlainString());
            } else if (v instanceof Number || v instanceof Boolean) {
                return v.toString();
            } else if (v instanceof byte[]) {
                StringBuilder hex = new StringBuilder();
                for (byte b : (byte[]) v) {
                    hex.append(String.format("%02x", b & 0xff));
                }
                return "{\"hex\":\"" + hex + "\"}";
            }
            return quote(v.toString());
        }

        static String quote(String s) {
            StringBuilder q = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    q.append('\\').append(c);
                } else if (c < 0x20 || c > 0x7e) {
                    q.append(String.format("\\u%04x", (int) c));
                } else {
                    q.append(c);
                }
            }
            return q.append('"').toString();
        }
    }
}
