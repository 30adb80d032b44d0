#!/usr/bin/env python3
"""Writes the seed corpus of each harness (fuzz/Corpus/NAME/*), small and hand-picked.

Files named regression-* are inputs that once found a bug; they are kept as they are.

Run it after changing the protocol: `python3 fuzz/Corpus/make-seeds.py`. The seeds are
committed; the fuzzers' own discoveries go to fuzz/out/corpus/ and are not.
"""
import json, os

root = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(root))


def frame(body, headers=None):
    if isinstance(body, (dict, list)):
        body = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    data = body.encode() if isinstance(body, str) else body
    head = headers if headers is not None else f"Content-Length: {len(data)}\r\n\r\n"
    return head.encode() + data


def rpc(method, params=None, id=None):
    message = {"jsonrpc": "2.0", "method": method}
    if id is not None:
        message["id"] = id
    if params is not None:
        message["params"] = params
    return message


messages = {
    "initialize": rpc("initialize", {"clientInfo": {"name": "seed", "version": "1"}, "protocolVersion": "1"}, 1),
    "initialized": rpc("initialized", {}),
    "subscribe": rpc("loupe/subscribe", {"filter": {"kinds": ["state.*", "mark"], "stores": ["App#1/pages[id: ?]"],
                                          "actions": ["*.tick"], "paths": ["items[*].title"]}, "history": True}, 2),
    "subscribe-null": rpc("loupe/subscribe", None, "s"),
    "unsubscribe": rpc("loupe/unsubscribe", {}, 3),
    "stores": rpc("loupe/stores", {}, 4),
    "state": rpc("loupe/state", {"store": "Probe#1"}, 5),
    "state-path": rpc("loupe/state", {"store": "App#1/pages[id: 2]", "path": "items[id: 2].title"}, 6),
    "state-key": rpc("loupe/state", {"store": "Probe#1", "path": "settings[\"theme\"]"}, 7),
    "state-bad-path": rpc("loupe/state", {"store": "Probe#1", "path": "items["}, 8),
    "mark": rpc("loupe/mark", {"label": "checkpoint \u2713"}, 9),
    "mark-bad": rpc("loupe/mark", {"label": 3}, 10),
    "cancel": rpc("$/cancelRequest", {"id": 4}),
    "shutdown": rpc("shutdown", None, 11),
    "exit": rpc("exit"),
    "unknown": rpc("loupe/nope", [1, 2], 12),
    "batch": [rpc("loupe/stores", {}, "a"), rpc("loupe/mark", {"label": "x"}, "b"), rpc("$/cancelRequest", {"id": "a"})],
    "batch-mixed": [rpc("loupe/mark", {"label": "x"}, 1), 1, {"foo": "boo"}, rpc("initialized")],
    "response": {"jsonrpc": "2.0", "id": 1, "result": None},
    "error-response": {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}},
}

seeds = {"frames": {}, "messages": {}, "session": {}, "json": {}, "trace": {}}

for name, message in messages.items():
    seeds["messages"][name] = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
seeds["messages"]["not-json"] = b'{"jsonrpc":"2.0","method":"foobar,"params":"bar","baz]'
seeds["messages"]["empty-batch"] = b"[]"

body = json.dumps(messages["mark"], ensure_ascii=False)
seeds["frames"]["one"] = frame(body)
seeds["frames"]["two"] = frame(body) + frame("{}")
seeds["frames"]["content-type"] = frame(body, f"content-length: {len(body.encode())}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n")
seeds["frames"]["latin1"] = frame("{}", "Content-Length: 2\r\nContent-Type: text/plain; charset=latin1\r\n\r\n")
seeds["frames"]["no-length"] = frame("{}", "Content-Type: application/json\r\n\r\n")
seeds["frames"]["bad-length"] = frame("{}", "Content-Length: -2\r\n\r\n")
seeds["frames"]["duplicate"] = frame("{}", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n")
seeds["frames"]["truncated"] = frame(body)[:-5]
seeds["frames"]["http"] = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"
seeds["frames"]["multibyte"] = frame('{"a":"\U0001F600\u00e9"}')

session = [messages[n] for n in ["stores", "initialize", "initialized", "subscribe", "state-path", "mark",
                                 "batch", "cancel", "unknown", "shutdown", "stores", "exit"]]
seeds["session"]["full"] = b"".join(frame(m) for m in session)
seeds["session"]["garbage-then-frames"] = frame(messages["initialize"]) + frame("{oops") + frame(b"\xff\xfe")
seeds["session"]["batch-first"] = frame(messages["initialize"]) + frame(messages["batch-mixed"]) + frame(messages["batch"])

for name, text in {
    "object": '{"a":[1,-2.5e3,true,false,null],"b":{"c":"\\u00e9\\ud83d\\ude00\\n"}}',
    "numbers": "[0,-0,1e308,-1.5E-7,123456789012345678901234567890,0.1]",
    "string": '"tab\\tquote\\"slash\\/bs\\\\"',
    "nested": "[" * 40 + "]" * 40,
    "empty": "{}",
    "unicode": '"\u00e9\u4e2d\U0001F600"',
    "event": '{"seq":4,"time":1.05,"kind":"state.changed","store":"C#1","cause":3,"changes":[{"path":"count","op":"replace","old":0,"new":1}],"summary":"C#1: _count changed."}',
}.items():
    seeds["json"][name] = text.encode()

fixtures = os.path.join(repo, "Tests", "LoupeCLITests", "Fixtures")
for name in ["counter", "truncated", "damaged", "newer"]:
    with open(os.path.join(fixtures, name + ".loupe"), "rb") as f:
        seeds["trace"][name] = f.read()
seeds["trace"]["crlf"] = seeds["trace"]["counter"].replace(b"\n", b"\r\n")
seeds["trace"]["header-only"] = seeds["trace"]["counter"].split(b"\n")[0] + b"\n"
seeds["trace"]["bom"] = b"\xef\xbb\xbf" + seeds["trace"]["counter"]

for harness, files in seeds.items():
    directory = os.path.join(root, harness)
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):  # inputs that once failed stay: regression-*
        if not name.startswith("regression-"):
            os.remove(os.path.join(directory, name))
    for name, data in files.items():
        with open(os.path.join(directory, name), "wb") as f:
            f.write(data)
    print(f"{harness}: {len(files)} seeds")
