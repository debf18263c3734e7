"""Runs a command in a real pseudo-terminal and types answers at its prompts, like a person.

Reads a JSON request on stdin: {"argv": [...], "cwd": "...", "env": {...}, "timeout": seconds,
"steps": [{"expect": "regex", "send": "keys"}...]}. Each step waits until the screen output
(ANSI escapes removed) after the previous match matches `expect`, then types `send`. Prints
{"exit": code, "output": text, "failed_step": index or null} as JSON. Used by test/cli/init.test.ts.
"""
import fcntl, json, os, pty, re, select, signal, struct, sys, termios, time

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\x1b[()][A-Za-z0-9]|\r")

req = json.load(sys.stdin)
pid, fd = pty.fork()
if pid == 0:
    os.chdir(req["cwd"])
    os.execvpe(req["argv"][0], req["argv"], req["env"])

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
deadline = time.monotonic() + req.get("timeout", 30)
raw = b""
eof = False


def pump(wait):
    global raw, eof
    r, _, _ = select.select([fd], [], [], wait)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            chunk = b""
        if not chunk:
            eof = True
        raw += chunk


def screen():
    return ANSI.sub("", raw.decode("utf-8", "replace"))


failed = None
pos = 0
for i, step in enumerate(req["steps"]):
    pattern = re.compile(step["expect"])
    while True:
        m = pattern.search(screen(), pos)
        if m:
            pos = m.end()
            break
        if eof or time.monotonic() > deadline:
            failed = i
            break
        pump(0.05)
    if failed is not None:
        break
    time.sleep(0.05)
    os.write(fd, step["send"].encode("utf-8"))

while not eof and time.monotonic() < deadline:
    pump(0.1)
if not eof:
    os.kill(pid, signal.SIGKILL)
_, status = os.waitpid(pid, 0)
code = os.waitstatus_to_exitcode(status)
print(json.dumps({"exit": code, "output": screen(), "failed_step": failed}))
