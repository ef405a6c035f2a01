//! Your first ranvier app: a to-do list an agent reads and drives over MCP.
//!
//! `cargo run` serves it over stdio; `ranvier-mcp call target/debug/todos snapshot` reads it from a shell.

use ranvier::mcp::{McpAdapterOptions, ServeError, run_stdio};
use ranvier::serde::Serialize;
use ranvier::{Memo, Messages, Mvu, expose, node};

/// One thing to do.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Todo {
    title: String,
    done: bool,
}

/// The model: every to-do, in the order added.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Todos {
    items: Vec<Todo>,
}

/// What an agent may send: `add {title}` and `done {index}`.
#[derive(Debug, Messages)]
pub enum Msg {
    /// Adds a to-do titled `title`.
    Add { title: String },
    /// Marks the to-do at `index` (from 0) done.
    Done { index: usize },
}

/// The next model; a message naming no to-do is refused, and nothing changes.
fn update(msg: Msg, todos: &Todos) -> Result<Todos, String> {
    let mut next = todos.clone();
    match msg {
        Msg::Add { title } => next.items.push(Todo { title, done: false }),
        Msg::Done { index } => match next.items.get_mut(index) {
            Some(todo) => todo.done = true,
            None => return Err(format!("no to-do at index {index}")),
        },
    }
    Ok(next)
}

/// What an agent may see: the model (and its messages), and how many to-dos are left.
#[expose]
pub struct App {
    #[expose(messages, value)]
    todos: Mvu<Todos, Msg>,
    #[expose]
    #[node]
    left: Memo<usize>,
}

/// Builds the graph; `#[node]` names each node after its `let`, for `explain`.
#[node]
fn app() -> App {
    let todos = Mvu::try_new(Todos::default(), update);
    let left = todos.select(|todos| todos.items.iter().filter(|todo| !todo.done).count());
    App { todos, left }
}

fn main() -> Result<(), ServeError> {
    run_stdio(
        McpAdapterOptions::new("todos", env!("CARGO_PKG_VERSION")),
        app,
    )
}
