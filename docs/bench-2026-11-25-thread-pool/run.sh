#!/bin/bash
# Usage: run.sh <mode> <port> <outdir>
# Starts OneLog (sync_binlog=1) in one thread_handling mode, runs `onelog bench --target`
# against it (oltp_update_non_index, 10 s cells, 1 table x 50000 rows), stops it.
# THREADS=1,16,64,256,1024 picks the concurrencies.
set -u
mode=$1; port=$2; out=$3
bin=${ONELOG:-target/release/onelog}
mkdir -p ${WORK:-/tmp/poolbench}; rm -rf ${WORK:-/tmp/poolbench}/data-$mode; mkdir -p ${WORK:-/tmp/poolbench}/data-$mode
$bin serve --datadir ${WORK:-/tmp/poolbench}/data-$mode --port $port --socket ${WORK:-/tmp/poolbench}/$mode.sock --initialize-insecure \
  --sync-binlog=1 --thread-handling=$mode --max-connections=2000 > ${WORK:-/tmp/poolbench}/server-$mode.log 2>&1 &
pid=$!
sleep 3
ulimit -n 8192
$bin bench --target 127.0.0.1:$port --workloads oltp_update_non_index --threads ${THREADS:-16,64,256,1024} --time 10 --warmup 2 \
  --table-size 50000 --out $out > $out.log 2>&1
kill -TERM $pid; wait $pid
