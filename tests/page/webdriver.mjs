// A small W3C WebDriver client for chromedriver, over node's own fetch: no npm package. It starts chromedriver on a
// free port, opens headless Chromium, and offers what the page tests use: navigate, find, click, type, run a script,
// wait for a condition (polled in the page, with a deadline), take a screenshot. Every call is bounded in time.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { writeFileSync } from "node:fs";

/** The WebDriver element key. */
const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

/** A hang guard per WebDriver call; nothing is timed with it. */
const CALL_MS = 30_000;

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export class Browser {
  static async start({ chromium = process.env.CHROMIUM || "/usr/bin/chromium",
    chromedriver = process.env.CHROMEDRIVER || "/usr/bin/chromedriver", width = 1280, height = 900 } = {}) {
    const port = await freePort();
    const driver = spawn(chromedriver, [`--port=${port}`], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    driver.stderr.on("data", (chunk) => (stderr += chunk));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + CALL_MS;
    for (;;) {
      try {
        const status = await (await fetch(`${base}/status`)).json();
        if (status.value?.ready) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline || driver.exitCode !== null) {
        driver.kill("SIGKILL");
        throw new Error(`chromedriver did not start: ${stderr}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const browser = new Browser(base, driver);
    const session = await browser.call("POST", "/session", {
      capabilities: {
        alwaysMatch: {
          browserName: "chrome",
          "goog:chromeOptions": {
            binary: chromium,
            args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--no-first-run", "--disable-extensions", `--window-size=${width},${height}`],
          },
        },
      },
    });
    browser.session = session.sessionId;
    return browser;
  }

  constructor(base, driver) {
    this.base = base;
    this.driver = driver;
    this.session = null;
  }

  async call(method, path, body) {
    const url = this.session && path !== "/session" ? `${this.base}/session/${this.session}${path}` : `${this.base}${path}`;
    const response = await fetch(url, {
      method,
      headers: body ? { "content-type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(CALL_MS),
    });
    const answer = await response.json();
    if (answer.value && answer.value.error) {
      throw new Error(`WebDriver ${method} ${path}: ${answer.value.error}: ${answer.value.message}`);
    }
    return answer.value;
  }

  open(url) { return this.call("POST", "/url", { url }); }
  url() { return this.call("GET", "/url"); }
  setSize(width, height) { return this.call("POST", "/window/rect", { width, height }); }

  /** Runs `script` (a function body; `arguments` holds `args`) in the page and returns its result. */
  run(script, ...args) { return this.call("POST", "/execute/sync", { script, args }); }

  /** Runs `script` as an async function body in the page (it may `await`) and returns what it returns. */
  async runAsync(script, ...args) {
    const wrapped = `const done = arguments[arguments.length - 1];
      (async (...args) => { ${script} })(...Array.from(arguments).slice(0, -1))
        .then((value) => done({ ok: true, value }), (error) => done({ ok: false, error: String(error && error.stack || error) }));`;
    await this.call("POST", "/timeouts", { script: CALL_MS });
    const result = await this.call("POST", "/execute/async", { script: wrapped, args });
    if (!result.ok) throw new Error(`in the page: ${result.error}`);
    return result.value;
  }

  /**
   * Waits until `expression` (JavaScript evaluated in the page) is truthy, checking it on every DOM change and every
   * 20 ms, for at most `timeoutMs`; returns its value, or throws naming `what` and the last value seen.
   */
  async waitFor(what, expression, timeoutMs = 5_000) {
    const result = await this.runAsync(`
      const check = () => { try { return (${expression}); } catch (e) { return undefined; } };
      const deadline = performance.now() + ${timeoutMs};
      for (;;) {
        const value = check();
        if (value) return { ok: true, value };
        if (performance.now() > deadline) return { ok: false, value };
        await new Promise((resolve) => {
          const observer = new MutationObserver(() => { observer.disconnect(); resolve(); });
          observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
          setTimeout(() => { observer.disconnect(); resolve(); }, 20);
        });
      }`);
    if (!result.ok) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (${expression}); last: ${JSON.stringify(result.value)}`);
    }
    return result.value;
  }

  async find(css) {
    const found = await this.call("POST", "/element", { using: "css selector", value: css });
    return found[ELEMENT];
  }

  async click(css) {
    return this.call("POST", `/element/${await this.find(css)}/click`, {});
  }

  /** Clears the field `css` and types `text` into it, as a person would. */
  async type(css, text) {
    const id = await this.find(css);
    await this.call("POST", `/element/${id}/clear`, {});
    return this.call("POST", `/element/${id}/value`, { text: String(text) });
  }

  /** Presses keys in the focused element (WebDriver key codes, e.g. "\uE007" for Enter). */
  async keys(css, text) {
    return this.call("POST", `/element/${await this.find(css)}/value`, { text });
  }

  async screenshot(path) {
    const png = await this.call("GET", "/screenshot");
    writeFileSync(path, Buffer.from(png, "base64"));
  }

  async quit() {
    try {
      if (this.session) await this.call("DELETE", "", undefined);
    } catch {
      // the browser is gone already
    }
    this.driver.kill("SIGTERM");
  }
}
