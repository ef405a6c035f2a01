// The official MCP Inspector's CLI (`mcp-inspector --cli`, a client nobody here wrote) against the built cart
// example, over stdio and over Streamable HTTP, in both protocol eras: it negotiates the era it was asked for, lists
// the tools (with --strict: no schema portability error), calls `snapshot` and `dispatch` (and a rejected
// `dispatch`), and reads the resources. Run by tests/inspector/run.sh, which installs the pinned Inspector and sets
// CART to the cart binary. Every Inspector call is bounded in time; nothing here is timed.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const inspector = join(here, "node_modules", ".bin", "mcp-inspector");
const cart = process.env.CART;
assert.ok(cart, "CART names the cart binary (tests/inspector/run.sh sets it)");

/** A hang guard per call (a debug cart starts in well under a second); nothing is timed. */
const GUARD_MS = 60_000;
/** The Inspector keeps a catalog under $HOME: give it a scratch one. */
const home = mkdtempSync(join(tmpdir(), "ranvier-inspector-"));

const ERAS = { legacy: "2025-11-25", modern: "2026-07-28" };

/** Runs `mcp-inspector --cli <target...> --protocol-era <era> <args...>`; resolves {code, stdout, stderr}. */
function inspect(target, era, args) {
  return new Promise((resolve) => {
    execFile(
      inspector,
      ["--cli", ...target, "--protocol-era", era, ...args],
      {
        timeout: GUARD_MS,
        killSignal: "SIGKILL",
        env: { ...process.env, HOME: home, RANVIER_JOURNAL: "", RANVIER_MCP_PROTOCOL: "" },
        maxBuffer: 16 << 20,
      },
      (error, stdout, stderr) => {
        assert.ok(!error?.killed, `hang guard: ${args.join(" ")} did not end within ${GUARD_MS} ms`);
        resolve({ code: error ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/** The call's printed result as JSON, after checking its exit code. */
async function result(target, era, args, code = 0) {
  const run = await inspect(target, era, args);
  assert.equal(run.code, code, `${args.join(" ")} exited ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
  try {
    return JSON.parse(run.stdout);
  } catch (error) {
    assert.fail(`${args.join(" ")} printed no JSON (${error.message}): ${run.stdout}\nstderr: ${run.stderr}`);
  }
}

const text = (answer) => answer.content.filter((block) => block.type === "text").map((block) => block.text).join("\n");

/** The cart served over HTTP on a free loopback port, for every HTTP case. */
let http;
let url;

before(async () => {
  http = spawn(cart, ["--http", "127.0.0.1:0"], { stdio: ["ignore", "ignore", "pipe"] });
  url = await new Promise((resolve, reject) => {
    let seen = "";
    const guard = setTimeout(() => reject(new Error(`the cart did not say where it serves: ${seen}`)), GUARD_MS);
    http.stderr.on("data", (chunk) => {
      seen += chunk;
      const found = seen.match(/serving MCP at (\S+)/);
      if (found) {
        clearTimeout(guard);
        resolve(found[1]);
      }
    });
    http.on("exit", (code) => reject(new Error(`the cart exited (${code}): ${seen}`)));
  });
});

after(() => {
  http?.kill("SIGKILL");
  rmSync(home, { recursive: true, force: true });
});

for (const transport of ["stdio", "http"]) {
  for (const [era, protocol] of Object.entries(ERAS)) {
    const target = () => (transport === "stdio" ? [cart] : [url]);

    test(`${transport} ${era}: initialize negotiates ${protocol}`, async () => {
      const answer = await result(target(), era, ["--method", "initialize"]);
      assert.equal(answer.protocolVersion, protocol);
      assert.equal(answer.serverInfo.name, "ranvier-cart");
      assert.ok(answer.capabilities.tools && answer.capabilities.resources, JSON.stringify(answer.capabilities));
    });

    test(`${transport} ${era}: tools/list lists the cart's tools with portable schemas`, async () => {
      const run = await inspect(target(), era, ["--method", "tools/list", "--strict"]);
      // --strict exits 6 on any schema portability error; the warnings it prints are about the values' `{}`
      // schemas, which accept any JSON on purpose (a value may be anything serde encodes)
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stderr, /\b0 errors\b/);
      const names = JSON.parse(run.stdout).tools.map((tool) => tool.name);
      for (const name of ["snapshot", "dispatch", "wait_version"]) {
        assert.ok(names.includes(name), `${name} in ${names}`);
      }
      const dispatch = JSON.parse(run.stdout).tools.find((tool) => tool.name === "dispatch");
      assert.deepEqual(dispatch.inputSchema.properties.message.enum, ["add_item", "remove_item", "set_discount", "clear"]);
    });

    test(`${transport} ${era}: snapshot, dispatch and a rejected dispatch`, async () => {
      const before = await result(target(), era, ["--method", "tools/call", "--tool-name", "snapshot"]);
      assert.equal(before.isError, false);
      assert.deepEqual(JSON.parse(text(before)), before.structuredContent);
      assert.deepEqual(Object.keys(before.structuredContent.values), ["count", "subtotal", "discount", "total", "lines"]);
      const version = before.structuredContent.version;

      const args = JSON.stringify({ message: "add_item", args: { sku: "a", unitPrice: 250, quantity: 2 } });
      const added = await result(target(), era, ["--method", "tools/call", "--tool-name", "dispatch", "--tool-args-json", args]);
      assert.equal(added.isError, false, text(added));
      assert.equal(added.structuredContent, undefined, "dispatch answers in text alone");
      const [step, state] = text(added).split("\n");
      assert.match(step, new RegExp(`^1 add_item \\{"sku":"a","unitPrice":250,"quantity":2\\} → v${transport === "stdio" ? 1 : version + 1}: count \\d+→\\d+`));
      assert.match(state, /^v\d+: count=\d+, subtotal=\d+, discount=0, total=\d+, lines=\[a\]$/);

      // a tool error: the Inspector exits 5 and prints the result, whose text names what was wrong
      const rejected = await result(
        target(),
        era,
        ["--method", "tools/call", "--tool-name", "dispatch", "--tool-args-json", JSON.stringify({ message: "nope" })],
        5,
      );
      assert.equal(rejected.isError, true);
      assert.equal(text(rejected), 'unknown message "nope"; known messages: add_item, remove_item, set_discount, clear');
    });

    test(`${transport} ${era}: resources/read of the state and of one value`, async () => {
      const state = await result(target(), era, ["--method", "resources/read", "--uri", "ranvier://state"]);
      assert.equal(state.contents[0].uri, "ranvier://state");
      assert.equal(state.contents[0].mimeType, "application/json");
      const document = JSON.parse(state.contents[0].text);
      assert.deepEqual(Object.keys(document.values), ["count", "subtotal", "discount", "total", "lines"]);
      if (transport === "http") {
        // one server for every HTTP case: the dispatches above are in its state
        assert.ok(document.version >= 1 && document.values.count >= 2, state.contents[0].text);
      }
      const total = await result(target(), era, ["--method", "resources/read", "--uri", "ranvier://state/total"]);
      assert.deepEqual(JSON.parse(total.contents[0].text), { version: document.version, value: document.values.total });
      const templates = await result(target(), era, ["--method", "resources/templates/list"]);
      assert.equal(templates.resourceTemplates[0].uriTemplate, "ranvier://state/{name}");
    });
  }
}
