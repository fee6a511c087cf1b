"""`damka demo` on a loopback port, for the Python scripts beside this file: finds (or
builds) the binary, starts the server in a temporary directory, waits until it answers,
reads its API, and stops it (printing the end of its log when the script failed).

Environment: PROFILE=release|quick-release|debug (default release), NO_BUILD=1,
CARGO_TARGET_DIR=...
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROFILE = os.environ.get("PROFILE", "release")
# Deadlines are generous: a busy 2-core machine must not fail a run by being slow.
DEADLINE_S = 300


def fail(script, message):
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(1)


def binary(script):
    """The damka binary of PROFILE, built first unless NO_BUILD is set."""
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    flags = {"release": ["--release"], "debug": [], "quick-release": ["--profile", "quick-release"]}
    if PROFILE not in flags:
        fail(script, "PROFILE must be release, quick-release or debug")
    if not os.environ.get("NO_BUILD"):
        print(f"== building the {PROFILE} binary", flush=True)
        subprocess.run(["cargo", "build", *flags[PROFILE], "--bin", "damka"], cwd=ROOT, check=True)
    path = os.path.join(target, PROFILE, "damka")
    if not os.access(path, os.X_OK):
        fail(script, f"{path} is missing (build it or drop NO_BUILD)")
    return path


class DemoServer:
    """`with DemoServer("script", port, env) as server:` serves the demo club until the
    block ends."""

    def __init__(self, script, port, env=None):
        self.script = script
        self.port = port
        self.env = dict(os.environ, **(env or {}))
        self.work = None
        self.process = None
        self.log = None

    def __enter__(self):
        damka = binary(self.script)
        # Another server on the port would answer for ours, which could not listen there.
        try:
            urllib.request.urlopen(self.url("/healthz"), timeout=2)
            fail(self.script, f"port {self.port} is in use (set PORT)")
        except OSError:
            pass
        self.work = tempfile.mkdtemp(prefix=f"damka-{self.script}.")
        self.log = open(os.path.join(self.work, "server.log"), "w")
        self.process = subprocess.Popen(
            [damka, "demo", "--bind", f"127.0.0.1:{self.port}"],
            cwd=self.work, env=self.env, stdout=self.log, stderr=self.log,
        )
        deadline = time.monotonic() + DEADLINE_S
        while True:
            if self.process.poll() is not None:
                self._print_log()
                fail(self.script, "the server exited at start (its log is above)")
            try:
                urllib.request.urlopen(self.url("/healthz"), timeout=2)
                return self
            except OSError:
                if time.monotonic() > deadline:
                    fail(self.script, "the server did not become healthy")
                time.sleep(0.2)

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            self._print_log()
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.work, ignore_errors=True)
        return False

    @property
    def pid(self):
        return self.process.pid

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def get_text(self, path):
        with urllib.request.urlopen(self.url(path), timeout=30) as answer:
            return answer.read().decode("utf-8")

    def get_json(self, path):
        return json.loads(self.get_text(path))

    def every_item(self, path):
        """Every item of an API list, following its pages."""
        items, cursor = [], None
        separator = "&" if "?" in path else "?"
        while True:
            page_path = f"{path}{separator}limit=200"
            if cursor:
                page_path += f"&cursor={cursor}"
            page = self.get_json(page_path)
            items += page["items"]
            cursor = page["next_cursor"]
            if not cursor:
                return items

    def _print_log(self):
        self.log.flush()
        try:
            with open(os.path.join(self.work, "server.log")) as text:
                sys.stderr.write(text.read()[-4000:])
        except OSError:
            pass
