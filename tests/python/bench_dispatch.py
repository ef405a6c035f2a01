"""The round trip of one `dispatch` over stdio: client call to result, median over 1,000 calls.

Usage: bench_dispatch.py <path to the (release) cart binary> [calls]
Each call changes the discount (so each publishes a new version) and waits for its result.
"""

import asyncio
import statistics
import sys
import time

from mcp import Client, StdioServerParameters


async def bench(binary, calls):
    params = StdioServerParameters(command=binary, args=[])
    timings = {}
    for mode in ("legacy", "auto"):
        async with Client(params, mode=mode) as client:
            await client.call_tool("dispatch", {"message": "add_item", "args": {"sku": "a", "unitPrice": 100, "quantity": 1}})
            for _ in range(50):  # warm-up
                await client.call_tool("snapshot", {})
            samples = []
            for i in range(calls):
                started = time.perf_counter()
                result = await client.call_tool("dispatch", {"message": "set_discount", "args": {"percent": i % 2 + 1}})
                samples.append(time.perf_counter() - started)
                assert not result.is_error
            timings[client.protocol_version] = samples
    for version, samples in timings.items():
        samples.sort()
        print(
            f"dispatch over stdio ({version}, Python mcp client, {len(samples)} calls): "
            f"median {statistics.median(samples) * 1e6:.0f} µs, p90 {samples[int(len(samples) * 0.9)] * 1e6:.0f} µs"
        )


if __name__ == "__main__":
    asyncio.run(bench(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000))
