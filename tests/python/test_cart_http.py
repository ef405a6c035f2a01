"""Drives the built cart example over Streamable HTTP (`--http 127.0.0.1:0`) with the Python `mcp` client, in both
protocol eras, and checks the bearer token with plain urllib.

Usage: test_cart_http.py <path to the cart binary>
Exits non-zero on the first failed check. Every wait has a generous hang guard; nothing is timed.
"""

import asyncio
import json
import os
import subprocess
import sys
import urllib.error
import urllib.request
import warnings

from mcp import Client

from test_cart import GUARD, drain, ok, resources, tools_and_rejections, wait_for


def start(binary, env=None):
    """Starts the cart on a free loopback port; returns the process and its endpoint URL (read from stderr)."""
    process = subprocess.Popen(
        [binary, "--http", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, **(env or {})},
    )
    for line in process.stderr:
        if "serving MCP at " in line:
            return process, line.split("serving MCP at ", 1)[1].strip()
    raise AssertionError(f"the cart did not start: exit {process.wait()}")


async def legacy(url):
    updates = asyncio.Queue()

    async def on_message(message):
        root = getattr(message, "root", message)
        params = getattr(root, "params", None)
        if getattr(root, "method", "") == "notifications/resources/updated" and params is not None:
            updates.put_nowait(str(params.uri))

    async with Client(url, mode="legacy", message_handler=on_message, read_timeout_seconds=GUARD) as client:
        assert client.protocol_version == "2025-11-25", client.protocol_version
        assert client.server_info.name == "ranvier-cart", client.server_info
        await resources(client)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.subscribe_resource("ranvier://state")
            await client.subscribe_resource("ranvier://state/discount")
        await tools_and_rejections(client)
        got = await wait_for(updates, ["ranvier://state", "ranvier://state/discount"])
        got += await drain(updates)
        assert set(got) <= {"ranvier://state", "ranvier://state/discount"}, got
        await ok(client, "dispatch", {"message": "add_item", "args": {"sku": "b", "unitPrice": 1, "quantity": 1}})
        got = await wait_for(updates, ["ranvier://state"])
        got += await drain(updates)
        assert got == ["ranvier://state"], got


async def modern(url):
    async with Client(url, mode="auto", read_timeout_seconds=GUARD) as client:
        assert client.protocol_version == "2026-07-28", client.protocol_version
        await resources(client)
        async with client.listen(resource_subscriptions=["ranvier://state", "ranvier://state/discount"]) as sub:
            updates = asyncio.Queue()

            async def pump():
                async for event in sub:
                    uri = getattr(event, "uri", None)
                    if uri is not None:
                        updates.put_nowait(str(uri))

            task = asyncio.create_task(pump())
            await tools_and_rejections(client)
            got = await wait_for(updates, ["ranvier://state", "ranvier://state/discount"])
            got += await drain(updates)
            assert set(got) <= {"ranvier://state", "ranvier://state/discount"}, got
            task.cancel()


def post(url, token=None):
    body = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "urllib", "version": "1"}}}).encode()
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, body, headers), timeout=GUARD) as reply:
            return reply.status, b""
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def main():
    binary = sys.argv[1]
    for era, run in [("legacy", legacy), ("modern", modern)]:
        process, url = start(binary)  # a fresh cart per era: the checks start from version 0
        try:
            asyncio.run(run(url))
        finally:
            process.terminate()
            process.wait()
        print(f"python mcp client over HTTP, {era} era: ok")

    process, url = start(binary, {"RANVIER_MCP_TOKEN": "s3cret"})
    try:
        status, body = post(url)
        assert (status, body) == (401, b""), (status, body)
        status, body = post(url, "wrong")
        assert (status, body) == (401, b""), (status, body)
        status, _ = post(url, "s3cret")
        assert status == 200, status
    finally:
        process.terminate()
        process.wait()
    print("bearer token over HTTP (RANVIER_MCP_TOKEN): ok")


if __name__ == "__main__":
    main()
