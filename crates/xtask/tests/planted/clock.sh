#!/bin/sh
# Rule 1's planted shell file: every line ending in the marker is a hit, and
# no other line is. This comment names date +%s and $EPOCHREALTIME freely.
start=$(date +%s) # HIT
nanos=$(date +%s%N) # HIT
t0=$EPOCHREALTIME # HIT
t1=${EPOCHSECONDS} # HIT
secs=$SECONDS # HIT
up=$(cut -d' ' -f1 /proc/uptime) # HIT
day=$(date -u +%Y-%m-%d)
echo "$# arguments, ${#day} characters"
sleep 1
