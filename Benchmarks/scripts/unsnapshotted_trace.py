#!/usr/bin/env python3
"""Writes a version-1 trace with no `state.snapshot` (a program whose Loupe predates CONTRACT
§10, or one recording with snapshots turned off) whose states are large: the worst case for
rebuilding a state, which must then apply every change from the start.

    unsnapshotted_trace.py OUT --events 1000000 [--items 600] [--seed 1]

The root store `App#1` holds `items`, identified by `id`; each item has a scoped store
`App#1/items[id: N]` whose state is `{id, count, rows: [{id, v}], tags: [Int]}`. The root's
`items` is written once, empty, when it loads; items are made over the first half of the trace (a `store.created` and the root's `items[id: N]` insert);
then every third event is a `state.changed` (about 340k in 1M events): mostly a scoped store
inserting, removing or replacing an identified row (`rows[id: K]`, with `index`), editing one
(`rows[id: K].v`), replacing a positional tag (`tags[3]`) or its `count`, sometimes the root's
own `total`. A fifth of the changes go to twenty hot items, whose `rows` reach 1,000 elements;
the others stay smaller. Every state change follows its `action.received`, and a
`derived.recomputed` follows it, so the trace reads like a program's.

Deterministic for a given seed. Prints the number of state changes and the largest rows on stderr.
"""

import argparse
import json
import random
import sys

MAX_ROWS = 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--items", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode

    out = open(args.out, "w", encoding="utf-8")
    seq = 0
    time = 0.0
    changes = 0

    def emit(kind, **fields):
        nonlocal seq, time
        seq += 1
        time += 0.137
        out.write(dumps({"seq": seq, "time": round(time, 3), "kind": kind, **fields}))
        out.write("\n")
        return seq

    out.write(dumps({"format": "loupe-trace", "version": 1, "program": "BigStates", "pid": 4242,
                     "startedAt": "2026-11-28T04:00:00.000Z"}) + "\n")
    emit("session.started", pid=4242, program="BigStates", protocolVersion="1", startedAt="2026-11-28T04:00:00.000Z")
    emit("store.created", store="App#1", type="AppFeature", parent=None, identity="App#1")
    # Loading: the root's items list is written whole once (empty), so the trace says it is a list.
    cause = emit("action.received", store="App#1", action="AppFeature.Action.loaded", value=None, origin="send")
    emit("state.changed", store="App#1", cause=cause, changes=[{"path": "items", "op": "replace", "old": None, "new": []}],
         summary="App#1: _items changed.")

    items = []  # ids made so far
    rows = {}  # item id -> list of row ids, in order
    tags = {}  # item id -> tag values
    counts = {}
    next_row = {}
    total = 0
    make_every = max(3, (args.events // 2) // args.items)
    next_make = 0
    hot = set()

    def change(store, cause, path, op, old=None, new=None, index=None, summary=None):
        nonlocal changes
        record = {"path": path, "op": op}
        if op != "insert":
            record["old"] = old
        if op != "remove":
            record["new"] = new
        if index is not None:
            record["index"] = index
        changes += 1
        emit("state.changed", store=store, cause=cause, changes=[record], summary=summary)

    while seq < args.events - 3:
        if len(items) < args.items and seq >= next_make:
            next_make += make_every
            item = len(items) + 1
            items.append(item)
            rows[item], tags[item], counts[item], next_row[item] = [], [0] * 8, 0, 1
            if len(hot) < 20 and item % 7 == 3:
                hot.add(item)
            cause = emit("action.received", store="App#1", action="AppFeature.Action.addItem", value=None, origin="send")
            change("App#1", cause, f"items[id: {item}]", "insert",
                   new={"id": item, "count": 0, "rows": [], "tags": [0] * 8}, index=len(items) - 1,
                   summary="App#1: _items changed.")
            emit("store.created", store=f"App#1/items[id: {item}]", type="ItemFeature", parent="App#1",
                 identity=f"ItemFeature@{item}")
            continue
        if not items:
            emit("mark", label="waiting")
            continue
        if rng.random() < 0.2 and hot:
            item = rng.choice(sorted(hot))
        else:
            item = rng.choice(items)
        store = f"App#1/items[id: {item}]"
        item_rows = rows[item]
        roll = rng.random()
        if roll < 0.03:
            cause = emit("action.received", store="App#1", action="AppFeature.Action.totalTapped", value=None, origin="send")
            change("App#1", cause, "total", "replace", old=total, new=total + 1, summary="App#1: _total changed.")
            total += 1
        elif roll < 0.45 and len(item_rows) < MAX_ROWS or not item_rows:
            row = next_row[item]
            next_row[item] += 1
            position = rng.randint(0, len(item_rows))
            item_rows.insert(position, row)
            cause = emit("action.received", store=store, action="ItemFeature.Action.rowAdded", value=row, origin="send")
            change(store, cause, f"rows[id: {row}]", "insert", new={"id": row, "v": 0}, index=position,
                   summary=f"ItemFeature#{item}: _rows changed.")
        elif roll < 0.55:
            row = item_rows.pop(rng.randrange(len(item_rows)))
            cause = emit("action.received", store=store, action="ItemFeature.Action.rowRemoved", value=row, origin="send")
            change(store, cause, f"rows[id: {row}]", "remove", old={"id": row, "v": row % 5},
                   summary=f"ItemFeature#{item}: _rows changed.")
        elif roll < 0.65:
            row = rng.choice(item_rows)
            cause = emit("action.received", store=store, action="ItemFeature.Action.rowReset", value=row, origin="send")
            change(store, cause, f"rows[id: {row}]", "replace", old={"id": row, "v": 1}, new={"id": row, "v": seq % 97},
                   summary=f"ItemFeature#{item}: _rows changed.")
        elif roll < 0.85:
            row = rng.choice(item_rows)
            cause = emit("action.received", store=store, action="ItemFeature.Action.rowEdited", value=row, origin="send")
            change(store, cause, f"rows[id: {row}].v", "replace", old=1, new=seq % 89,
                   summary=f"ItemFeature#{item}: _rows changed.")
        elif roll < 0.93:
            position = rng.randrange(8)
            cause = emit("action.received", store=store, action="ItemFeature.Action.tagged", value=position, origin="send")
            change(store, cause, f"tags[{position}]", "replace", old=tags[item][position], new=seq % 13,
                   summary=f"ItemFeature#{item}: _tags changed.")
            tags[item][position] = seq % 13
        else:
            cause = emit("action.received", store=store, action="ItemFeature.Action.counted", value=None, origin="send")
            change(store, cause, "count", "replace", old=counts[item], new=counts[item] + 1,
                   summary=f"ItemFeature#{item}: _count changed.")
            counts[item] += 1
        emit("derived.recomputed", store="App#1", derived="rowCount", cause=seq - 1, outputChanged=True, durationNs=1200)
    while seq < args.events:
        emit("mark", label="end")
    out.close()
    largest = sorted((len(r) for r in rows.values()), reverse=True)[:3]
    print(f"{seq} events, {changes} state changes, {len(items)} items, largest rows {largest}", file=sys.stderr)


if __name__ == "__main__":
    main()
