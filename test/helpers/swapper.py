#!/usr/bin/env python3
"""Swaps two paths atomically, again and again, until killed: renameat2(RENAME_EXCHANGE).

The race tests of the attack suite run it beside skillctl: a directory inside a grant and a
symlink leading outside trade places thousands of times a second, so a check made on one and a
use made on the other would show. Prints 'ready' once the first swap succeeded.
"""
import ctypes
import os
import sys

AT_FDCWD = -100
RENAME_EXCHANGE = 2

libc = ctypes.CDLL(None, use_errno=True)
renameat2 = libc.renameat2
renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]

a, b = (os.fsencode(p) for p in sys.argv[1:3])
first = True
while True:
    if renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        sys.stderr.write(f"renameat2: {os.strerror(err)}\n")
        sys.exit(1)
    if first:
        print("ready", flush=True)
        first = False
