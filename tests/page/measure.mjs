// Numbers for the live page (tests/page/run.sh --measure; not a test, nothing here asserts a timing):
// - the time from a dispatch to the page showing it, median (and quartiles) over 100 dispatches, by the browser's
//   clock: from just before the page's own POST /page/dispatch, and from just before an agent's MCP `dispatch`
//   (a JSON-RPC session over fetch from the page, so one clock times both ends), until the message's log line is
//   in the page;
// - the page's weight: the bytes of everything it loads (the HTML, its script and its style), as served.
import { Browser } from "./webdriver.mjs";
import { startCart } from "./cart.mjs";

const RUNS = 100;
const cart = process.env.CART;
if (!cart) throw new Error("CART names the cart binary (tests/page/run.sh --measure sets it)");

const app = await startCart(cart, []);
const browser = await Browser.start();
try {
  await browser.open(app.link);
  await browser.waitFor("the stream's hello", `document.getElementById("status").textContent === "live"`);
  const weight = {};
  for (const path of ["", "page/app.js", "page/app.css"]) {
    const response = await fetch(app.page + path, { headers: { cookie: app.cookie } });
    weight["/" + path] = (await response.arrayBuffer()).byteLength;
  }
  const total = Object.values(weight).reduce((a, b) => a + b, 0);
  const timings = await browser.runAsync(`
    const runs = ${RUNS};
    const csrf = document.querySelector('meta[name="ranvier-csrf"]').content;
    const log = document.getElementById("log");
    /** Resolves with the time the n-th newer log line appears. */
    const shown = (seq) => new Promise((resolve) => {
      const done = () => {
        const first = log.firstElementChild;
        if (first && Number(first.dataset.seq) >= seq) { observer.disconnect(); resolve(performance.now()); return true; }
        return false;
      };
      const observer = new MutationObserver(done);
      observer.observe(log, { childList: true });
      done();
    });
    const lastSeq = () => Number(log.firstElementChild?.dataset.seq || 0);
    const page = [];
    for (let i = 0; i < runs; i++) {
      const seq = lastSeq() + 1;
      const t0 = performance.now();
      const seen = shown(seq);
      fetch("page/dispatch", { method: "POST", headers: { "content-type": "application/json", "x-ranvier-csrf": csrf },
        body: JSON.stringify({ message: "add_item", args: { sku: "sku" + (i % 7), unitPrice: 1, quantity: 1 } }) });
      page.push((await seen) - t0);
    }
    // an agent: an MCP session (initialize, then one tools/call dispatch each), sent on this page's clock
    const mcp = (body, session) => fetch("mcp", { method: "POST", headers: { "content-type": "application/json",
      accept: "application/json, text/event-stream", ...(session ? { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" } : {}) },
      body: JSON.stringify(body) });
    const init = await mcp({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25",
      capabilities: {}, clientInfo: { name: "measure", version: "1" } } });
    const session = init.headers.get("mcp-session-id");
    await init.text();
    await mcp({ jsonrpc: "2.0", method: "notifications/initialized" }, session);
    const agent = [];
    for (let i = 0; i < runs; i++) {
      const seq = lastSeq() + 1;
      const t0 = performance.now();
      const seen = shown(seq);
      mcp({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: { name: "dispatch",
        arguments: { message: "set_discount", args: { percent: i % 2 ? 10 : 20 } } } }, session).then((r) => r.text());
      agent.push((await seen) - t0);
    }
    return { page, agent };`);
  const stats = (values) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return `median ${at(0.5).toFixed(1)} ms (p25 ${at(0.25).toFixed(1)}, p75 ${at(0.75).toFixed(1)}, max ${sorted.at(-1).toFixed(1)}) over ${values.length}`;
  };
  console.log(`page weight: ${total} bytes (${Object.entries(weight).map(([p, b]) => `${p} ${b}`).join(", ")})`);
  console.log(`dispatch from the page's form path to its log line: ${stats(timings.page)}`);
  console.log(`dispatch from an agent (MCP over HTTP) to the page's log line: ${stats(timings.agent)}`);
} finally {
  await browser.quit();
  app.stop();
}
