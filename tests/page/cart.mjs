// The built cart served over HTTP for the page tests, and a plain JSON-RPC MCP client (node's fetch; the MCP
// session, initialize and tools/call as the Streamable HTTP transport has them). Every wait is bounded.
import { spawn } from "node:child_process";

/** A hang guard for a start or a call; nothing is timed with it. */
export const GUARD_MS = 30_000;

/** The environment without the variables that change what the cart serves, plus `extra`. */
function cartEnv(extra) {
  const env = { ...process.env };
  for (const name of ["RANVIER_JOURNAL", "RANVIER_MCP_TOKEN", "RANVIER_PAGE_KEY", "RANVIER_MCP_PROTOCOL", "RANVIER_CART_CONFIRM"]) delete env[name];
  return { ...env, ...extra };
}

/** Opens `link` (the address the cart printed, the page key in it) as a person's browser does once: resolves to the
 * session cookie (`name=value`) it answers with. */
export async function login(link) {
  const response = await fetch(link, { redirect: "manual", signal: AbortSignal.timeout(GUARD_MS) });
  if (response.status !== 303) throw new Error(`the printed address answered ${response.status}: ${await response.text()}`);
  return response.headers.get("set-cookie").split(";")[0];
}

/** Starts `cart --http 127.0.0.1:0 ...args` and resolves once it printed its page's address: `page` (the page's
 * base URL), `link` (the address a person opens, with the page key when it wants one), `cookie` (a session, from
 * opening `link` once, for node's fetch; `null` when the page wants no key) and `mcp`. */
export function startCart(binary, args = [], env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ["--http", "127.0.0.1:0", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: cartEnv(env),
    });
    let stderr = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the cart printed no page URL within ${GUARD_MS} ms: ${stderr}`));
    }, GUARD_MS);
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const found = /live page at (http:\/\/\S+?\/)(\?key=\S+)? \(MCP at (\S+)\)/.exec(stderr);
      if (found) {
        clearTimeout(timer);
        const [page, link, mcp] = [found[1], found[1] + (found[2] ?? ""), found[3]];
        const stop = () => child.kill("SIGTERM");
        const cookie = found[2] ? login(link) : Promise.resolve(null);
        cookie.then((cookie) => resolve({ child, page, link, cookie, mcp, stop }), (error) => { stop(); reject(error); });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the cart exited (${code}) before serving: ${stderr}`));
    });
  });
}

/** Reads the first event of the page's stream (`hello`): the state as the page starts from. */
export async function hello(page, headers = {}) {
  const response = await fetch(page + "page/events", { headers, signal: AbortSignal.timeout(GUARD_MS) });
  if (!response.ok) return { status: response.status };
  const reader = response.body.getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
    const end = text.indexOf("\n\n");
    if (end >= 0) {
      await reader.cancel();
      const data = text.slice(0, end).split("\n").find((line) => line.startsWith("data: "));
      return { status: response.status, ...JSON.parse(data.slice(6)) };
    }
  }
  throw new Error("the stream ended before its first event");
}

/** An MCP client over plain HTTP JSON-RPC, naming itself `name`; with `elicit`, it declares form elicitation and
 * never answers one (so a gated `dispatch` waits until someone else answers its interrupt). */
export async function mcpClient(url, name, { elicit = false } = {}) {
  let session = null;
  let nextId = 1;
  const send = async (body) => {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(GUARD_MS),
    });
    return response;
  };
  const request = async (method, params) => {
    const id = nextId++;
    const response = await send({ jsonrpc: "2.0", id, method, params });
    const text = await response.text();
    if (method === "initialize") session = response.headers.get("mcp-session-id");
    const messages = (response.headers.get("content-type") || "").startsWith("text/event-stream")
      ? text.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6).map((l) => JSON.parse(l.slice(6)))
      : [JSON.parse(text)];
    const answer = messages.find((m) => m.id === id && ("result" in m || "error" in m));
    if (!answer) throw new Error(`no answer to ${method}: ${text}`);
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  };
  await request("initialize", {
    protocolVersion: "2025-11-25",
    capabilities: elicit ? { elicitation: { form: {} } } : {},
    clientInfo: { name, version: "1.0.0" },
  });
  await send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return {
    /** Calls `tool`; resolves to its text and whether it is an error. */
    async call(tool, args) {
      const result = await request("tools/call", { name: tool, arguments: args });
      return { text: result.content.map((c) => c.text).join("\n"), isError: !!result.isError };
    },
  };
}
