"""Drives the built cart example over stdio with the Python `mcp` client, in one protocol era.

Usage: test_cart.py <path to the cart binary> legacy|modern
Exits non-zero on the first failed check. Every wait has a generous hang guard; nothing is timed.
"""

import asyncio
import json
import sys
import warnings

from mcp import Client, StdioServerParameters

GUARD = 20.0  # seconds, a hang guard only
KNOWN = "known messages: add_item, remove_item, set_discount, clear"


def text(result):
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


async def ok(client, name, args):
    result = await client.call_tool(name, args)
    assert not result.is_error, f"{name} {args}: {text(result)}"
    return result


async def rejected(client, name, args):
    result = await client.call_tool(name, args)
    assert result.is_error, f"{name} {args} should be rejected, got {text(result)}"
    assert result.structured_content is None
    return text(result)


async def read(client, uri):
    result = await client.read_resource(uri)
    return json.loads(result.contents[0].text)


async def tools_and_rejections(client):
    tools = (await client.list_tools()).tools
    names = [t.name for t in tools]
    # a debug (traced) build also lists the trace tools
    live = ["snapshot", "dispatch", "wait_version", "diff", "errors", "fork", "drop_fork"]
    assert names in (live, live + ["explain", "graph", "node"]), names
    by_name = {t.name: t for t in tools}
    assert by_name["snapshot"].annotations.read_only_hint is True
    assert by_name["wait_version"].annotations.read_only_hint is True
    assert by_name["dispatch"].annotations.read_only_hint is False
    assert by_name["dispatch"].annotations.idempotent_hint is False
    schema = by_name["dispatch"].input_schema
    assert schema["properties"]["message"]["enum"] == ["add_item", "remove_item", "set_discount", "clear"]
    assert "- add_item {sku: string, unitPrice: integer ≥ 0, quantity: integer ≥ 1}" in by_name["dispatch"].description
    assert by_name["dispatch"].output_schema is None
    assert by_name["snapshot"].output_schema["required"] == ["version", "values"]

    snapshot = await ok(client, "snapshot", {})
    assert text(snapshot) == '{"version":0,"values":{"count":0,"subtotal":0,"discount":0,"total":0,"lines":[]}}', text(snapshot)
    assert snapshot.structured_content == {"version": 0, "values": {"count": 0, "subtotal": 0, "discount": 0, "total": 0, "lines": []}}

    one = await ok(client, "dispatch", {"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}})
    assert one.structured_content is None
    assert text(one) == (
        '1 add_item {"sku":"a","unitPrice":250,"quantity":2} → v1: count 0→2, subtotal 0→500, total 0→500, lines +[a]\n'
        "v1: count=2, subtotal=500, discount=0, total=500, lines=[a]"
    ), text(one)
    seq = await ok(client, "dispatch", {"messages": [
        {"message": "set_discount", "args": {"percent": 10}},
        {"message": "remove_item", "args": {"sku": "zz"}},
    ]})
    assert text(seq) == (
        '1 set_discount {"percent":10} → v2: discount 0→10, total 500→450\n'
        '2 remove_item {"sku":"zz"} → v2: no exposed value changed\n'
        "v2: count=2, subtotal=500, discount=10, total=450, lines=[a]"
    ), text(seq)

    assert await rejected(client, "dispatch", {"message": "nope"}) == f'unknown message "nope"; {KNOWN}'
    assert (await rejected(client, "dispatch", {})).startswith('missing "message"')
    assert await rejected(client, "dispatch", {"message": 7}) == f'"message" must be a string naming a message, got 7; {KNOWN}'
    assert await rejected(client, "dispatch", {"message": "set_discount", "args": {"percent": 150}}) == (
        "set_discount rejected its arguments: `percent`: expected an integer between 0 and 100, got 150\n"
        "expected: set_discount {percent: integer 0..=100}"
    )
    panicked = await rejected(client, "dispatch", {"message": "add_item", "args": {"sku": "a", "unitPrice": 1, "quantity": 2**64 - 1}})
    assert panicked.startswith("add_item failed: update panicked: the quantity of a would overflow"), panicked
    assert panicked.endswith("; the model is unchanged"), panicked
    stopped = await rejected(client, "dispatch", {"messages": [
        {"message": "set_discount", "args": {"percent": 20}},
        {"message": "nope"},
        {"message": "clear"},
    ]})
    assert stopped == (
        '1 set_discount {"percent":20} → v3: discount 10→20, total 450→400\n'
        f'stopped at message 2 of 3: unknown message "nope"; {KNOWN}\n'
        "messages 1 to 1 stay dispatched; later messages were not dispatched\n"
        "v3: count=2, subtotal=500, discount=20, total=400, lines=[a]"
    ), stopped
    assert await read(client, "ranvier://state") == {"version": 3, "values": {"count": 2, "subtotal": 500, "discount": 20, "total": 400, "lines": [{"key": "a", "unitPrice": 250, "quantity": 2, "total": 500}]}}

    reached = await ok(client, "wait_version", {"version": 2})
    assert reached.structured_content["version"] == 3
    assert (await rejected(client, "wait_version", {"version": "3"})).startswith('"version" must be a non-negative integer')
    assert (await rejected(client, "wait_version", {"version": 9, "timeoutMs": -1})).startswith('"timeoutMs" must not be negative')
    timeout = await rejected(client, "wait_version", {"version": 9, "timeoutMs": 30})
    assert timeout.startswith("timed out after 30 ms waiting for version 9; the current version is 3"), timeout


async def resources(client):
    listed = [str(r.uri) for r in (await client.list_resources()).resources]
    assert listed == ["ranvier://state", "ranvier://state/count", "ranvier://state/subtotal", "ranvier://state/discount", "ranvier://state/total", "ranvier://state/lines", "ranvier://errors"], listed
    templates = (await client.list_resource_templates()).resource_templates
    assert [t.uri_template for t in templates] == ["ranvier://state/{name}"]
    assert await read(client, "ranvier://state/total") == {"version": 0, "value": 0}


async def wait_for(queue, wanted):
    got = []
    while not all(uri in got for uri in wanted):
        got.append(await asyncio.wait_for(queue.get(), GUARD))
    return got


async def drain(queue, quiet=0.3):
    got = []
    while True:
        try:
            got.append(await asyncio.wait_for(queue.get(), quiet))
        except asyncio.TimeoutError:
            return got


async def legacy(binary):
    updates = asyncio.Queue()

    async def on_message(message):
        root = getattr(message, "root", message)
        params = getattr(root, "params", None)
        if getattr(root, "method", "") == "notifications/resources/updated" and params is not None:
            updates.put_nowait(str(params.uri))

    params = StdioServerParameters(command=binary, args=[])
    async with Client(params, mode="legacy", message_handler=on_message, read_timeout_seconds=GUARD) as client:
        assert client.protocol_version == "2025-11-25", client.protocol_version
        assert client.server_info.name == "ranvier-cart", client.server_info
        assert "dispatch" in client.instructions
        await resources(client)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            await client.subscribe_resource("ranvier://state")
            await client.subscribe_resource("ranvier://state/discount")
            await client.subscribe_resource("ranvier://state/count")
            await client.unsubscribe_resource("ranvier://state/count")
        await tools_and_rejections(client)
        got = await wait_for(updates, ["ranvier://state", "ranvier://state/discount"])
        got += await drain(updates)
        assert set(got) <= {"ranvier://state", "ranvier://state/discount"}, got  # none for count, subtotal, total
        await ok(client, "dispatch", {"message": "add_item", "args": {"sku": "b", "unitPrice": 1, "quantity": 1}})
        got = await wait_for(updates, ["ranvier://state"])
        got += await drain(updates)
        assert got == ["ranvier://state"], got  # discount did not change; count is unsubscribed


async def modern(binary):
    params = StdioServerParameters(command=binary, args=[])
    async with Client(params, mode="auto", read_timeout_seconds=GUARD) as client:
        assert client.protocol_version == "2026-07-28", client.protocol_version
        assert client.server_info.name == "ranvier-cart", client.server_info
        assert "dispatch" in client.instructions
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
            await ok(client, "dispatch", {"message": "add_item", "args": {"sku": "b", "unitPrice": 1, "quantity": 1}})
            got = await wait_for(updates, ["ranvier://state"])
            got += await drain(updates)
            assert got == ["ranvier://state"], got
            task.cancel()


def main():
    binary, era = sys.argv[1], sys.argv[2]
    asyncio.run({"legacy": legacy, "modern": modern}[era](binary))
    print(f"python mcp client, {era} era: ok")


if __name__ == "__main__":
    main()
