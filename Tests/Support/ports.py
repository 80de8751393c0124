"""A loopback port for a server a test starts later, that nothing else will take meanwhile.

A port the kernel hands out for `bind(("127.0.0.1", 0))` is in its ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range, 32768-60999 by default), the range every outgoing
connection takes its own port from. Between the probe and the server's `bind` (a build, an
initdb, a restart: seconds), any of the thousands of loopback connections the suites beside it
make may take that port, and the server then fails to start. That happened: `make dev`'s server
after a rebuild, and a test's PostgreSQL cluster, each now and then in `make test`.

So the port is chosen below that range, where no outgoing connection goes, and a lock file held
for the life of this process keeps every other test that asks here from choosing it too. A
server started with port 0 binds at once and needs none of this.

    from ports import free_port          # in a test
    python3 Tests/Support/ports.py       # in a script: prints a port and its lock file, which
                                         # the script then holds (scripts/with-postgres.sh)
"""
import fcntl
import os
import random
import socket
import tempfile

LOCKS = os.path.join(tempfile.gettempdir(), "tessera-ports")
# The ports of this process, with their locks open until it exits.
_held = {}


def ephemeral_start():
    """Where the kernel's ephemeral range starts."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as file:
            return int(file.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def lock_path(port):
    return os.path.join(LOCKS, str(port))


def free_port():
    """A port below the ephemeral range that nothing listens on and no other test here holds."""
    os.makedirs(LOCKS, exist_ok=True)
    top = ephemeral_start()
    bottom = 10000 if top > 12000 else 1024
    for _ in range(500):
        port = random.randrange(bottom, top)
        descriptor = os.open(lock_path(port), os.O_CREAT | os.O_RDWR, 0o666)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            continue
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                os.close(descriptor)
                continue
        _held[port] = descriptor
        return port
    raise RuntimeError(f"no free loopback port between {bottom} and {top}")


if __name__ == "__main__":
    chosen = free_port()
    # The caller takes the lock over: let go of it before it tries.
    os.close(_held.pop(chosen))
    print(chosen, lock_path(chosen), flush=True)
