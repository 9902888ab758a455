#!/bin/sh
# The client API (src/client.c) on this machine's kernel.
exec "${B:-build}/tests/client-test"
