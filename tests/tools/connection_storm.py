#!/usr/bin/env python3
"""Connection storm against a running server (issue 19; run by hand, not in
CI): N clients connect at once; each reads its first packet, and if greeted
logs in as root with an empty password (raw protocol: no driver overhead in
the way) and runs SELECT 1, then holds its connection until all are done.
Reports how many were served and refused (1040), the refusal and login
latencies, whether another client gets in while the server is full, and
the status counters after they leave.

    target/release/onelog serve --datadir /tmp/storm --initialize-insecure --max-connections=1000 --port 3407 &
    .venv/bin/python tests/tools/connection_storm.py 3407 1500
"""
import socket, struct, threading, time, sys, pymysql
port=int(sys.argv[1]); n=int(sys.argv[2])
res=[]; lock=threading.Lock(); go=threading.Barrier(n); done=threading.Event()
CAPS=0x0200|0x8000|0x80000|0x00000200|0x1|0x4  # PROTOCOL_41|SECURE_CONN|PLUGIN_AUTH|LONG_PASSWORD|LONG_FLAG
def pkt(s):
    h=s.recv(4, socket.MSG_WAITALL); return s.recv(int.from_bytes(h[:3],"little"), socket.MSG_WAITALL)
def send(s, seq, payload): s.sendall(len(payload).to_bytes(3,"little")+bytes([seq])+payload)
def client():
    go.wait()
    t0=time.monotonic()
    try:
        s=socket.create_connection(("127.0.0.1",port),timeout=60)
        p=pkt(s); first=time.monotonic()-t0
        if p[0]==0xff:
            r=("refused", first, struct.unpack("<H",p[1:3])[0]); s.close()
        else:
            send(s,1,struct.pack("<IIB",CAPS,1<<24,45)+b"\0"*23+b"root\0"+b"\0"+b"mysql_native_password\0")
            ok=pkt(s)
            if ok[0]!=0: r=("login-failed", first, ok[:40])
            else:
                send(s,0,b"\x03SELECT 1"); rs=[pkt(s) for _ in range(5)]
                r=("served", time.monotonic()-t0, rs[3])
            with lock: res.append(r)
            done.wait(); s.close(); return
    except Exception as e:
        r=("error", time.monotonic()-t0, str(e))
    with lock: res.append(r)
t0=time.monotonic()
ts=[threading.Thread(target=client) for _ in range(n)]
[t.start() for t in ts]
while len(res)<n and time.monotonic()-t0<120: time.sleep(0.05)
wall=time.monotonic()-t0
kinds={}
for r in res: kinds[r[0]]=kinds.get(r[0],0)+1
ref=sorted(r[1] for r in res if r[0]=="refused"); srv=sorted(r[1] for r in res if r[0]=="served")
print(f"{n} clients: {kinds}; all answered in {wall:.2f}s")
if ref: print(f"  refusal (1040={all(r[2]==1040 for r in res if r[0]=='refused')}) latency median {ref[len(ref)//2]*1000:.1f} ms, max {ref[-1]*1000:.1f} ms")
if srv: print(f"  served: login + SELECT 1 median {srv[len(srv)//2]*1000:.1f} ms, max {srv[-1]*1000:.1f} ms")
try:
    pymysql.connect(host="127.0.0.1",port=port,user="root"); print("  another connection while full: admitted")
except pymysql.err.MySQLError as e: print("  another connection while full:", e.args)
done.set(); [t.join() for t in ts]
time.sleep(1)
c=pymysql.connect(host="127.0.0.1",port=port,user="root")
cur=c.cursor(); cur.execute("SHOW GLOBAL STATUS WHERE Variable_name IN ('Threads_connected','Max_used_connections','Connection_errors_max_connections','Aborted_connects')"); print("  after they left: new connection admitted;", cur.fetchall())
