#!/usr/bin/env python3
"""A scripted LSP client for pb-lsp's protocol tests.

    lsp-client.py [--timeout S] [--var NAME=VALUE ...] SCRIPT -- SERVER ARGS...

Starts the server and talks to it over its standard input and output with
Content-Length framing, as an editor does. SCRIPT holds messages separated by
`// -----` lines; other lines starting with `//` are comments (RUN and CHECK
lines live there), except these directives:

    // WAIT-DIAGNOSTICS: URI N   wait until N publishDiagnostics for URI have
                                 arrived in this step
    // WAIT-MESSAGE: METHOD      wait until the server sends METHOD in this
                                 step
    // WAIT-TEXT: TEXT           wait until a message holding TEXT arrives
    // RAW: TEXT                 send TEXT as it is (Python escapes allowed),
                                 without a Content-Length header

`${NAME}` in a message or directive is replaced by the value given with
--var, then `${TEXT:PATH}` by the contents of the file PATH (relative to the
script's folder) as a JSON string. After a request the client waits for its
reply; after a message that is not a valid request it waits for the error
reply the server owes; after `exit` it waits for the server to end and
prints its exit code. Requests from the server are answered
({"success": true} for window/showDocument, null otherwise).

Everything the server sends is printed as indented JSON with sorted keys, in
the order it arrives, each message after a `<-- ` line naming it. Fails (exit
code 1) when a wait times out or the server's output is not well formed.
"""

import argparse
import json
import os
import queue
import re
import subprocess
import sys
import threading


def parse_script(text):
    """Splits the script into (directives, message) steps."""
    steps = []
    for chunk in text.split("\n// -----\n"):
        directives, body = [], []
        for line in chunk.splitlines():
            stripped = line.strip()
            if stripped.startswith("//"):
                content = stripped[2:].strip()
                for name in ("WAIT-DIAGNOSTICS:", "WAIT-MESSAGE:",
                             "WAIT-TEXT:", "RAW:"):
                    if content.startswith(name):
                        directives.append((name[:-1], content[len(name):].strip()))
                continue
            body.append(line)
        steps.append((directives, "\n".join(body).strip()))
    return steps


class Client:
    def __init__(self, command, timeout):
        self.timeout = timeout
        self.server = subprocess.Popen(command, stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE)
        self.messages = queue.Queue()
        self.diagnostic_counts = {}
        self.method_counts = {}
        threading.Thread(target=self.read_loop, daemon=True).start()

    def read_loop(self):
        stream = self.server.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            if length is None:
                self.messages.put(("error", "a message without Content-Length"))
                return
            body = stream.read(length)
            try:
                self.messages.put(("message", json.loads(body)))
            except ValueError as error:
                self.messages.put(("error", "not JSON: %s: %r" % (error, body)))
                return

    def send_bytes(self, data):
        try:
            self.server.stdin.write(data)
            self.server.stdin.flush()
        except BrokenPipeError:
            pass  # The server has ended; waiting for it will say so.

    def send(self, text):
        data = text.encode("utf-8")
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(data) + data)

    def handle(self, item):
        """Prints one message from the server; answers its requests."""
        if item is None:
            raise EOFError("the server closed its output")
        kind, payload = item
        if kind == "error":
            fail(payload)
        message = payload
        method = message.get("method")
        if method:
            print("<-- " + method)
            self.method_counts[method] = self.method_counts.get(method, 0) + 1
        else:
            print("<-- reply %s" % json.dumps(message.get("id")))
        print(json.dumps(message, indent=2, sort_keys=True))
        if method == "textDocument/publishDiagnostics":
            uri = message["params"]["uri"]
            self.diagnostic_counts[uri] = self.diagnostic_counts.get(uri, 0) + 1
        if method and "id" in message:
            result = {"success": True} if method == "window/showDocument" else None
            self.send(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                                  "result": result}))
        return message

    def wait_for(self, what, done, already=lambda: False):
        """Handles messages until `done(message)` holds, unless `already()`
        holds first."""
        while not already():
            try:
                item = self.messages.get(timeout=self.timeout)
            except queue.Empty:
                fail("timed out after %ss waiting for %s" % (self.timeout, what))
            try:
                message = self.handle(item)
            except EOFError:
                fail("the server ended while waiting for %s (exit code %s)"
                     % (what, self.server.wait()))
            if done(message):
                return

    def wait_for_exit(self):
        try:
            code = self.server.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.server.kill()
            fail("timed out after %ss waiting for the server to exit"
                 % self.timeout)
        while True:
            try:
                item = self.messages.get(timeout=self.timeout)
            except queue.Empty:
                break
            if item is None:
                break
            self.handle(item)
        print("exit code: %d" % code)


def read_text(script, path):
    with open(os.path.join(os.path.dirname(script), path),
              encoding="utf-8") as f:
        return f.read()


def fail(message):
    print("lsp-client: " + message)
    sys.stdout.flush()
    sys.exit(1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--var", action="append", default=[])
    parser.add_argument("script")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    variables = dict(v.split("=", 1) for v in args.var)

    with open(args.script, encoding="utf-8") as f:
        steps = parse_script(f.read())
    client = Client(command, args.timeout)
    exited = False
    def substitute(text):
        for name, value in variables.items():
            text = text.replace("${%s}" % name, value)
        return text

    for directives, body in steps:
        counts_before = dict(client.method_counts)
        diagnostics_before = dict(client.diagnostic_counts)
        directives = [(name, substitute(value)) for name, value in directives]
        for name, value in directives:
            if name == "RAW":
                client.send_bytes(value.encode("utf-8").decode("unicode_escape")
                                  .encode("latin-1"))
        if body:
            body = substitute(body)
            body = re.sub(r"\$\{TEXT:([^}]*)\}",
                          lambda m: json.dumps(read_text(args.script, m.group(1))),
                          body)
            client.send(body)
            try:
                message = json.loads(body)
            except ValueError:
                message = None
            if (not isinstance(message, dict)
                    or isinstance(message.get("id"), (dict, list, bool))):
                client.wait_for("the error reply to a malformed message",
                                lambda m: "method" not in m and m.get("id") is None)
            elif "id" in message and (message.get("jsonrpc") != "2.0"
                                      or "method" in message):
                client.wait_for("the reply to %s" % message.get("method", "it"),
                                lambda m, i=message["id"]: "method" not in m
                                and m.get("id") == i)
            elif message.get("method") == "exit":
                client.wait_for_exit()
                exited = True
        for name, value in directives:
            if name == "WAIT-DIAGNOSTICS":
                uri, count = value.split()
                reached = lambda: (client.diagnostic_counts.get(uri, 0)
                                   - diagnostics_before.get(uri, 0) >= int(count))
                client.wait_for("%s publishDiagnostics for %s" % (count, uri),
                                lambda m: reached(), reached)
            elif name == "WAIT-TEXT":
                client.wait_for(repr(value),
                                lambda m: value in json.dumps(m))
            elif name == "WAIT-MESSAGE":
                arrived = lambda: (client.method_counts.get(value, 0)
                                   > counts_before.get(value, 0))
                client.wait_for(value, lambda m: arrived(), arrived)
    if not exited:
        client.server.stdin.close()
        client.wait_for_exit()


if __name__ == "__main__":
    main()
