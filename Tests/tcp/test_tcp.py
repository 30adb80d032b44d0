"""LOUPE=tcp:HOST:PORT and its token (CONTRACT §14), end to end with the built binaries and a
JSON-RPC client someone else wrote: pylspclient's JsonRpcEndpoint (LSP base-protocol
framing) over a loopback socket. Run by .ci/checks/67-tcp-token.sh.

The program is `loupe-examples probe --hold` (a store that ticks, holding the process open).
The host is judged by its progress (events it keeps producing, the seq numbers a late
client sees), never by timing."""
import json
import os
import re
import socket
import subprocess
import tempfile
import time
import unittest

from pylspclient.json_rpc_endpoint import JsonRpcEndpoint

BIN = os.environ["LOUPE_BIN_DIR"]
EXAMPLES = os.path.join(BIN, "loupe-examples")
LOUPE = os.path.join(BIN, "loupe")


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOUPE")}
    env.update(extra)
    return env


class Program:
    """A probe listening on TCP; reads its stderr until it says where and with what token."""

    def __init__(self, env, seconds="120", burst="0"):
        self.trace = tempfile.NamedTemporaryFile(suffix=".loupe", delete=False).name
        env = dict(env, LOUPE_RECORD=self.trace)
        self.process = subprocess.Popen(
            [EXAMPLES, "probe", "--hold", "--seconds", seconds, "--burst", burst], env=env,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.stderr_lines = []
        self.port = None
        self.token = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (self.port is None or ("LOUPE_TOKEN" not in env and self.token is None)):
            line = self.process.stderr.readline().decode()
            if not line:
                break
            self.stderr_lines.append(line)
            m = re.match(r"loupe: listening on (\S+):(\d+)$", line.strip())
            if m:
                self.port = int(m.group(2))
            m = re.match(r"loupe: token (\S+)$", line.strip())
            if m:
                self.token = m.group(1)

    def connect(self):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        stream = sock.makefile("rwb", buffering=0)
        return sock, JsonRpcEndpoint(stream, stream)

    def finish(self):
        self.process.terminate()
        rest = self.process.stderr.read().decode()
        self.process.wait(timeout=30)
        self.stderr_lines.append(rest)
        with open(self.trace, "rb") as f:
            trace = f.read().decode()
        os.unlink(self.trace)
        return "".join(self.stderr_lines), trace


def request(endpoint, id, method, params=None):
    message = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    endpoint.send_request(message)
    return endpoint.recv_response()


class TCPTokenTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.program = Program(clean_env(LOUPE="tcp:127.0.0.1:0"))
        assert cls.program.port, "".join(cls.program.stderr_lines)
        assert cls.program.token, "".join(cls.program.stderr_lines)

    @classmethod
    def tearDownClass(cls):
        stderr, trace = cls.program.finish()
        token = cls.program.token
        # The token appears once on stderr (the line that announces it) and nowhere else.
        assert stderr.count(token) == 1, stderr
        assert token not in trace, "the token leaked into the trace"

    def expect_refused(self, sock, endpoint, answer, id):
        self.assertEqual(answer["error"]["code"], -32003, answer)
        self.assertEqual(answer.get("id"), id)
        self.assertIsNone(endpoint.recv_response(), "the connection stays open after -32003")
        sock.close()

    def test_no_token(self):
        sock, endpoint = self.program.connect()
        self.expect_refused(sock, endpoint, request(endpoint, 1, "initialize", {"clientInfo": {"name": "t"}}), 1)

    def test_wrong_token(self):
        sock, endpoint = self.program.connect()
        wrong = "0" * len(self.program.token)
        self.expect_refused(sock, endpoint, request(endpoint, 7, "initialize", {"token": wrong}), 7)

    def test_first_message_not_initialize(self):
        sock, endpoint = self.program.connect()
        answer = request(endpoint, "a", "loupe/stores", {"token": self.program.token})
        self.expect_refused(sock, endpoint, answer, "a")

    def test_control_before_the_token_is_unauthorized(self):
        # CONTRACT §16: over TCP the token rules come first, for control as for the rest.
        sock, endpoint = self.program.connect()
        answer = request(endpoint, 3, "loupe/send", {"store": "Probe#1", "action": "refresh"})
        self.expect_refused(sock, endpoint, answer, 3)

    def test_control_with_the_token_is_still_off_without_LOUPE_CONTROL(self):
        sock, endpoint = self.program.connect()
        answer = request(endpoint, 1, "initialize", {"clientInfo": {"name": "t"}, "token": self.program.token})
        self.assertIn("result", answer)
        for id, method, params in [(2, "loupe/send", {"store": "Probe#1", "action": "refresh"}),
                                   (3, "loupe/setState", {"store": "Probe#1", "state": {}})]:
            answer = request(endpoint, id, method, params)
            self.assertEqual(answer["error"]["code"], -32004, answer)
            self.assertIn("LOUPE_CONTROL=1", answer["error"]["message"])
        sock.close()

    def test_notification_first(self):
        sock, endpoint = self.program.connect()
        endpoint.send_request({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        answer = endpoint.recv_response()
        self.expect_refused(sock, endpoint, answer, None)

    def test_200_wrong_tokens_then_the_right_one(self):
        for attempt in range(200):
            sock, endpoint = self.program.connect()
            answer = request(endpoint, attempt, "initialize", {"token": "guess-%d" % attempt})
            self.assertEqual(answer["error"]["code"], -32003)
            sock.close()
        sock, endpoint = self.program.connect()
        answer = request(endpoint, 1, "initialize", {"clientInfo": {"name": "pylspclient"}, "token": self.program.token})
        self.assertEqual(answer["result"]["protocolVersion"], "1", answer)
        self.assertNotIn(self.program.token, json.dumps(answer))
        endpoint.send_request({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        answer = request(endpoint, 2, "loupe/subscribe", {"history": True})
        self.assertGreater(answer["result"]["history"], 0, answer)
        # The host is not slowed: told to tick every 5 ms, its actions keep coming, in seq order.
        endpoint.send_request({"jsonrpc": "2.0", "id": 3, "method": "loupe/mark", "params": {"label": "probe:ticker 5"}})
        seqs, ticks = [], 0
        while ticks < 20:
            message = endpoint.recv_response()
            self.assertIsNotNone(message)
            self.assertNotIn(self.program.token, json.dumps(message))
            if message.get("method") == "loupe/events":
                for event in message["params"]["events"]:
                    seqs.append(event["seq"])
                    if event["kind"] == "action.received":
                        ticks += 1
        self.assertEqual(seqs, sorted(seqs))
        endpoint.send_request({"jsonrpc": "2.0", "id": 4, "method": "shutdown"})
        sock.close()


class TCPHostTests(unittest.TestCase):
    def test_non_loopback_host_is_refused_and_the_program_runs_on(self):
        run = subprocess.run([EXAMPLES, "probe", "--seconds", "0.2"], env=clean_env(LOUPE="tcp:0.0.0.0:0"),
                             stdin=subprocess.DEVNULL, capture_output=True, timeout=60)
        self.assertEqual(run.returncode, 0)
        stderr = run.stderr.decode()
        self.assertIn("loupe: LOUPE: refusing to listen on '0.0.0.0': only loopback hosts", stderr)
        self.assertNotIn("listening on", stderr)

    def test_token_from_the_environment_is_not_printed(self):
        program = Program(clean_env(LOUPE="tcp:localhost:0", LOUPE_TOKEN="s3cret-from-env"), seconds="1")
        self.assertIsNotNone(program.port)
        sock, endpoint = program.connect()
        answer = request(endpoint, 1, "initialize", {"token": "s3cret-from-env"})
        self.assertIn("result", answer)
        sock.close()
        stderr, trace = program.finish()
        self.assertNotIn("s3cret-from-env", stderr)
        self.assertNotIn("s3cret-from-env", trace)

    def test_loupe_record_over_tcp(self):
        program = Program(clean_env(LOUPE="tcp:127.0.0.1:0"), seconds="3", burst="20")
        out = tempfile.NamedTemporaryFile(suffix=".loupe", delete=False).name
        record = subprocess.run([LOUPE, "record", out, "--tcp", "127.0.0.1:%d" % program.port],
                                env=clean_env(LOUPE_TOKEN=program.token), capture_output=True, timeout=60)
        stderr, _ = program.finish()
        with open(out) as f:
            recorded = f.read()
        os.unlink(out)
        self.assertEqual(record.returncode, 0, record.stderr.decode())
        self.assertIn('"kind":"action.received"', recorded)
        self.assertNotIn(program.token, recorded)
        wrong = subprocess.run([LOUPE, "attach", "--tcp", "127.0.0.1:1", "--token", "x"],
                               env=clean_env(), capture_output=True, timeout=60)
        self.assertEqual(wrong.returncode, 3, wrong.stderr.decode())


if __name__ == "__main__":
    unittest.main()
