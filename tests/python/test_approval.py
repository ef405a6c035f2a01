"""Human approval through the Python `mcp` client: the cart started with `--confirm` pauses `clear` for a person.

With an `elicitation_callback` the server asks the client's user directly (an `elicitation/create` request in the
legacy era, an input-required result and a retry in 2026-07-28): accept with approve true runs it, decline drops it.
Without one, `dispatch` answers that it paused and `resume` answers the interrupt.

Usage: test_approval.py <path to the cart binary> legacy|modern
Exits non-zero on the first failed check. Every wait has a generous hang guard; nothing is timed.
"""

import asyncio
import json
import re
import sys

import mcp_types as types
from mcp import Client, StdioServerParameters

GUARD = 20.0  # seconds, a hang guard only
ADD = {"message": "add_item", "args": {"sku": "a", "unitPrice": 250, "quantity": 2}}
MODES = {"legacy": "legacy", "modern": "auto"}
VERSIONS = {"legacy": "2025-11-25", "modern": "2026-07-28"}


def text(result):
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


def interrupt_id(said):
    """The id of the interrupt a text names: `interrupt "i-<32 hex digits>"` (random, so never guessed)."""
    found = re.search(r'interrupt "(i-[0-9a-f]{32})"', said)
    assert found, said
    return found.group(1)


def params():
    return StdioServerParameters(command=sys.argv[1], args=["--confirm"])


async def count(client):
    result = await client.call_tool("snapshot", {})
    return json.loads(text(result))["values"]["count"]


def user(answers, asked):
    """An elicitation callback answering from `answers` in turn and recording each question."""

    async def callback(context, request):
        asked.append(request.message)
        action, content = answers.pop(0)
        return types.ElicitResult(action=action, content=content)

    return callback


async def with_elicitation(era):
    asked = []
    answers = [("accept", {"approve": True}), ("decline", None), ("accept", {"approve": False, "reason": "not today"})]
    async with Client(params(), mode=MODES[era], elicitation_callback=user(answers, asked), read_timeout_seconds=GUARD) as client:
        assert client.protocol_version == VERSIONS[era], client.protocol_version
        names = [t.name for t in (await client.list_tools()).tools]
        assert names[:4] == ["snapshot", "dispatch", "resume", "wait_version"], names

        # accepted: the user was asked the prompt, and clear ran after add_item
        result = await client.call_tool("dispatch", {"messages": [ADD, {"message": "clear"}]})
        said = text(result)
        assert not result.is_error, said
        assert asked[0].startswith("Empty the cart and drop its discount?"), asked
        assert said.startswith(f'interrupt "{interrupt_id(said)}" approved by '), said
        assert '(elicitation)"' in said, said
        assert "\n2 clear {} → v2: count 2→0" in said, said
        assert await count(client) == 0

        # declined: nothing ran
        await client.call_tool("dispatch", ADD)
        result = await client.call_tool("dispatch", {"message": "clear"})
        said = text(result)
        assert f'interrupt "{interrupt_id(said)}" denied by ' in said, said
        assert '(reason: "the user declined")\nclear {} was not dispatched' in said, said
        assert await count(client) == 2

        # accepted with approve false: dropped too, with the user's reason
        result = await client.call_tool("dispatch", {"message": "clear"})
        said = text(result)
        assert '(reason: "not today")\nclear {} was not dispatched' in said, said
        assert await count(client) == 2
        assert len(asked) == 3 and not answers


async def with_resume(era):
    async with Client(params(), mode=MODES[era], read_timeout_seconds=GUARD) as client:
        assert client.protocol_version == VERSIONS[era], client.protocol_version
        await client.call_tool("dispatch", ADD)
        result = await client.call_tool("dispatch", {"message": "clear"})
        said = text(result)
        assert not result.is_error, said
        assert said.startswith("paused at message 1 of 1: clear needs a person's approval and did not run"), said
        opened = interrupt_id(said)
        assert f'call resume with {{"id": "{opened}", "approve": true}}' in said, said
        snapshot = json.loads(text(await client.call_tool("snapshot", {})))
        assert [i["id"] for i in snapshot["interrupts"]] == [opened], snapshot
        assert await count(client) == 2

        # while it is open, other dispatches are refused, naming it and how to answer
        refused = await client.call_tool("dispatch", ADD)
        assert refused.is_error and text(refused).startswith('"add_item" was refused: the app waits for a person'), text(refused)
        assert f'call resume with {{"id": "{opened}"' in text(refused), text(refused)

        unknown = await client.call_tool("resume", {"id": "i7", "approve": True})
        assert unknown.is_error and text(unknown).startswith(f'no interrupt "i7"; open interrupts:\n- "{opened}": clear {{}}'), text(unknown)

        result = await client.call_tool("resume", {"id": opened, "approve": True, "reason": "the user said yes"})
        said = text(result)
        assert not result.is_error and said.startswith(f'interrupt "{opened}" approved by '), said
        assert await count(client) == 0
        again = await client.call_tool("resume", {"id": opened, "approve": True})
        assert again.is_error and "already answered: approved by " in text(again), text(again)


async def run(era):
    await with_elicitation(era)
    await with_resume(era)


def main():
    era = sys.argv[2]
    asyncio.run(asyncio.wait_for(run(era), timeout=120))
    print(f"python mcp client, approval and elicitation, {era} era: ok")


if __name__ == "__main__":
    main()
