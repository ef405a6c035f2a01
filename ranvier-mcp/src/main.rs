//! `ranvier-mcp`: shell tools for the MCP server of a built ranvier app.
//!
//! - `ranvier-mcp call <app> <tool> ['<json args>']` starts the app, runs the MCP handshake, calls one tool, prints
//!   the result's text and stops the app. Exit code 0 on success, 1 for a tool error, 2 for a usage or startup
//!   error (missing binary, not an MCP server, bad JSON). `--list` prints the instructions and the tools.
//! - `ranvier-mcp supervise <app>` serves the app over stdio from a copy of its build output and, on a
//!   `tools/call` after a rebuild, starts the new build and replays every message accepted so far.
//! - `ranvier-mcp supervise --script <steps.jsonl> <app>` drives `supervise` from a shell: one tool call per line
//!   (`-` reads them from the terminal as they are typed, so a rebuild between two lines reloads the app).
//! - `ranvier-mcp replay <app> <journal>` dispatches the messages of a journal (written by an app run with
//!   `RANVIER_JOURNAL=FILE`) into a fresh run of the app and prints the steps; with `--check` it fails on the first
//!   step that differs from the one the journal recorded.
//! - `ranvier-mcp compare <app-a> <app-b> <journal>` replays one journal into two builds and reports the first
//!   message after which their snapshots differ, value by value, with both step lines.
//! - `ranvier-mcp postmortem <dump> [<tool> ['<json args>']]` answers the traced tools (`explain`, `graph`, `node`,
//!   `history`, `snapshot_at`, ...) from a dump of an app that is gone (its MCP tool `dump`), as the app answered
//!   them when the dump was taken: over MCP on stdio, or one call printed as `call` prints it.
//!
//! The tools are MCP clients of the app (rmcp's client side); they know nothing of its graph.

mod app;
mod call;
mod check;
mod journal;
mod postmortem;
mod replay;
mod script;
mod supervise;
mod text;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use app::{Era, Launch};

/// A failure to report: the text, and which exit code it gets.
#[derive(Debug)]
pub enum Failure {
    /// The app answered with an error (a tool error, a rejected replay): exit code 1. The text goes to stdout.
    Tool(String),
    /// Bad usage or the app could not be started or reached: exit code 2. The text goes to stderr.
    Usage(String),
}

#[derive(Parser)]
#[command(
    name = "ranvier-mcp",
    version,
    about = "Call the MCP tools of a built ranvier app from the shell, serve it across rebuilds, replay a journal",
    after_help = "Exit codes: 0 success, 1 the app answered with an error (a tool error, a replay that stopped), \
                  2 usage or startup error."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Start the app, call one tool, print the result's text, stop the app.
    ///
    /// Example: ranvier-mcp call target/debug/examples/cart dispatch '{"message": "add_item", "args": {"sku": "a",
    /// "unitPrice": 250, "quantity": 2}}'
    Call {
        /// The app's binary, such as target/debug/examples/cart.
        app: PathBuf,
        /// The tool to call, such as snapshot or dispatch (not with --list).
        #[arg(required_unless_present = "list")]
        tool: Option<String>,
        /// The tool's arguments, a JSON object.
        json: Option<String>,
        /// Print the server's instructions and each tool's description and argument names instead.
        #[arg(long, conflicts_with_all = ["tool", "json"])]
        list: bool,
        #[command(flatten)]
        connection: Connection,
        /// Arguments passed to the app, after `--`.
        #[arg(last = true)]
        app_args: Vec<String>,
    },
    /// Serve the app over stdio from a copy of its build output; after a rebuild, the next tools/call reloads it
    /// and replays every message accepted so far.
    Supervise {
        /// The app's binary, watched for rebuilds.
        app: PathBuf,
        /// Seconds a new build has to answer the repeated handshake.
        #[arg(long, default_value_t = 10.0, value_parser = seconds)]
        startup_timeout: f64,
        /// Drive supervise from a shell instead of serving an MCP client: one tool call a line,
        /// {"tool": "dispatch", "arguments": {...}}, each answer printed; `-` reads the lines from stdin as typed.
        #[arg(long, value_name = "FILE")]
        script: Option<PathBuf>,
        /// With --script: seconds one call has to answer.
        #[arg(long, default_value_t = 120.0, value_parser = seconds, requires = "script")]
        timeout: f64,
        /// Arguments passed to the app, after `--`.
        #[arg(last = true)]
        app_args: Vec<String>,
    },
    /// Dispatch a journal's messages, in order, into a fresh run of the app and print the steps.
    Replay {
        /// The app's binary.
        app: PathBuf,
        /// The journal: one JSON line per message, as written by an app run with RANVIER_JOURNAL=FILE.
        journal: PathBuf,
        /// A regression test: fail (exit code 1) on the first step that differs from the step line the journal
        /// recorded for it (its "changes"), naming the message, its journal line and both step lines.
        #[arg(long)]
        check: bool,
        #[command(flatten)]
        connection: Connection,
        /// Arguments passed to the app, after `--`.
        #[arg(last = true)]
        app_args: Vec<String>,
    },
    /// Answer the traced tools from a dump of an app that is gone (a crash, a CI run, a customer's log), as the app
    /// answered them when the dump was taken: serve MCP over stdio, or call one tool and print its text.
    ///
    /// Take the dump with the app's MCP tool `dump` (listed with --raw-trace-tools or RANVIER_MCP_RAW_TRACE_TOOLS=1):
    /// RANVIER_MCP_RAW_TRACE_TOOLS=1 ranvier-mcp call target/debug/examples/cart dump '{"messages": [...]}' >
    /// cart.dump; then: ranvier-mcp postmortem cart.dump explain '{"node": "total"}'
    Postmortem {
        /// The dump file.
        dump: PathBuf,
        /// A tool to call once, such as explain or graph (without it: serve MCP over stdio).
        tool: Option<String>,
        /// The tool's arguments, a JSON object.
        json: Option<String>,
        /// Print the tools instead.
        #[arg(long, conflicts_with_all = ["tool", "json"])]
        list: bool,
        /// Where the dumped app's source files are, when not where it ran (for the lines explain quotes).
        #[arg(long, value_name = "DIR")]
        source_root: Option<PathBuf>,
    },
    /// Replay one journal into two builds and report the first message after which their snapshots differ, value
    /// by value, with both step lines (exit code 1 when they differ).
    ///
    /// Example: ranvier-mcp compare target/old/cart target/debug/examples/cart journal.jsonl
    Compare {
        /// The first build's binary (A).
        app_a: PathBuf,
        /// The second build's binary (B).
        app_b: PathBuf,
        /// The journal to replay into both.
        journal: PathBuf,
        #[command(flatten)]
        connection: Connection,
        /// Arguments passed to both apps, after `--`.
        #[arg(last = true)]
        app_args: Vec<String>,
    },
}

/// How `call` and `replay` reach the app.
#[derive(clap::Args)]
struct Connection {
    /// The MCP protocol era to speak.
    #[arg(long, value_enum, default_value_t = Era::Auto)]
    era: Era,
    /// Seconds the app has to start and finish the handshake.
    #[arg(long, default_value_t = 10.0, value_parser = seconds)]
    startup_timeout: f64,
    /// Seconds the call has to answer.
    #[arg(long, default_value_t = 120.0, value_parser = seconds)]
    timeout: f64,
    /// Pass the app's stderr through (by default it is shown only when the app fails).
    #[arg(long)]
    show_stderr: bool,
}

fn seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Ok(s),
        _ => Err(format!(
            "expected a number of seconds between 0 and 86400, got {text:?}"
        )),
    }
}

impl Connection {
    fn launch(&self, binary: PathBuf, args: Vec<String>) -> Launch {
        Launch {
            binary,
            args,
            era: self.era,
            startup_timeout: Duration::from_secs_f64(self.startup_timeout),
            show_stderr: self.show_stderr,
        }
    }
}

async fn run(cli: Cli) -> Result<String, Failure> {
    match cli.command {
        Command::Call {
            app,
            tool,
            json,
            list,
            connection,
            app_args,
        } => {
            let timeout = Duration::from_secs_f64(connection.timeout);
            let launch = connection.launch(app, app_args);
            match tool {
                Some(tool) if !list => {
                    let arguments = call::parse_arguments(json.as_deref())?;
                    call::run(&launch, &tool, arguments, timeout).await
                }
                _ => call::list(&launch, timeout).await,
            }
        }
        Command::Supervise {
            app,
            startup_timeout,
            script: Some(script),
            timeout,
            app_args,
        } => {
            script::run(script::Options {
                script,
                app,
                app_args,
                startup_timeout: Duration::from_secs_f64(startup_timeout),
                timeout: Duration::from_secs_f64(timeout),
            })
            .await
        }
        Command::Supervise {
            app,
            startup_timeout,
            script: None,
            app_args,
            ..
        } => {
            supervise::run(supervise::Options {
                binary: app,
                args: app_args,
                startup_timeout: Duration::from_secs_f64(startup_timeout),
                settle: Duration::from_millis(500),
            })
            .await?;
            Ok(String::new())
        }
        Command::Replay {
            app,
            journal,
            check,
            connection,
            app_args,
        } => {
            let timeout = Duration::from_secs_f64(connection.timeout);
            let launch = connection.launch(app, app_args);
            if check {
                check::replay_check(&launch, &journal, timeout).await
            } else {
                replay::run(&launch, &journal, timeout).await
            }
        }
        Command::Postmortem {
            dump,
            tool,
            json,
            list,
            source_root,
        } => {
            postmortem::run(postmortem::Options {
                dump,
                arguments: postmortem::arguments(json.as_deref())?,
                tool,
                list,
                source_root,
            })
            .await
        }
        Command::Compare {
            app_a,
            app_b,
            journal,
            connection,
            app_args,
        } => {
            let timeout = Duration::from_secs_f64(connection.timeout);
            let a = connection.launch(app_a, app_args.clone());
            let b = connection.launch(app_b, app_args);
            check::compare(&a, &b, &journal, timeout).await
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("ranvier-mcp: cannot start the async runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let outcome = runtime.block_on(run(cli));
    // the app's leftover tasks (stderr readers) must not hold the process
    runtime.shutdown_background();
    match outcome {
        Ok(text) => {
            if !text.is_empty() {
                println!("{text}");
            }
            ExitCode::SUCCESS
        }
        Err(Failure::Tool(text)) => {
            println!("{text}");
            ExitCode::from(1)
        }
        Err(Failure::Usage(message)) => {
            eprintln!("ranvier-mcp: {message}");
            ExitCode::from(2)
        }
    }
}
