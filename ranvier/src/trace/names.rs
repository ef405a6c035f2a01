//! Reading creation sites back: the source line of a node's creation, and the `let` binding it names.
//!
//! A creation site's file path is relative to the root of the crate build that made the node (for a workspace
//! member, the workspace root). With a source root set ([`set_source_root`]), a file is looked for there, then
//! relative to the current directory, and nowhere else. Without one, it is looked for in each crate root the macros
//! recorded at compile time (`CARGO_MANIFEST_DIR`, as `#[expose]` and `#[node]` saw it) and the directories above
//! it, so an app started from any directory quotes its own lines; then relative to the current directory; then in
//! the nearest directory holding `.git` at or above it. Files are read once and cached for the process's life; a
//! file that cannot be read is remembered as missing (until another crate root is recorded).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

#[derive(Default)]
struct Sources {
    root: Option<PathBuf>,
    /// Whether `root` was set with [`set_source_root`] (rather than found: the git root).
    root_set: bool,
    root_found: bool,
    /// The crate roots the macros recorded, in the order first seen.
    crate_roots: Vec<PathBuf>,
    files: HashMap<String, Option<Arc<[String]>>>,
}

static SOURCES: Mutex<Option<Sources>> = Mutex::new(None);

fn sources() -> MutexGuard<'static, Option<Sources>> {
    SOURCES.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Sets the directory whose files give creation lines (and `let` binding names) when a site's path does not resolve
/// from the current directory. Clears the cache of files read so far.
///
/// # Examples
///
/// ```
/// ranvier::trace::set_source_root(".");
/// ```
pub fn set_source_root(root: impl Into<PathBuf>) {
    let mut guard = sources();
    let state = guard.get_or_insert_with(Sources::default);
    state.root = Some(root.into());
    state.root_set = true;
    state.root_found = true;
    state.files.clear();
}

/// Records `root` (a crate's `CARGO_MANIFEST_DIR` at compile time) as a place to look for its sources; what
/// `#[expose]` and `#[node]` call. A root already recorded changes nothing; a new one forgets the files that could
/// not be read so far.
pub(crate) fn add_crate_root(root: &str) {
    let mut guard = sources();
    let state = guard.get_or_insert_with(Sources::default);
    if state.crate_roots.iter().any(|known| known.as_os_str() == root) {
        return;
    }
    state.crate_roots.push(PathBuf::from(root));
    state.files.retain(|_, lines| lines.is_some());
}

/// Where this process looks for sources: the crate roots the macros recorded, and the root set with
/// [`set_source_root`], if one was (what a dump carries, so that a post-mortem reads the same files).
pub(crate) fn roots() -> (Vec<String>, Option<String>) {
    let guard = sources();
    let Some(state) = guard.as_ref() else {
        return (Vec::new(), None);
    };
    let crate_roots = state.crate_roots.iter().map(|r| r.display().to_string()).collect();
    let set = state
        .root_set
        .then(|| state.root.as_ref().map(|r| r.display().to_string()))
        .flatten();
    (crate_roots, set)
}

/// `file` read from the first of `root` and the directories above it where it exists.
fn read_under(root: &Path, file: &str) -> Option<Arc<[String]>> {
    root.ancestors().find_map(|dir| read_lines(&dir.join(file)))
}

/// The nearest directory holding `.git` at or above the current directory.
fn find_git_root() -> Option<PathBuf> {
    let mut dir = std::env::current_dir().ok()?;
    loop {
        if dir.join(".git").exists() {
            return Some(dir);
        }
        if !dir.pop() {
            return None;
        }
    }
}

fn read_lines(path: &Path) -> Option<Arc<[String]>> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(text.lines().map(str::to_owned).collect())
}

/// The lines of `file` (a site path), read from where the module docs say, cached.
pub(crate) fn file_lines(file: &str) -> Option<Arc<[String]>> {
    let mut guard = sources();
    let state = guard.get_or_insert_with(Sources::default);
    if let Some(cached) = state.files.get(file) {
        return cached.clone();
    }
    let lines = if state.root_set {
        let root = state.root.as_deref().unwrap_or(Path::new("."));
        read_lines(&root.join(file)).or_else(|| read_lines(Path::new(file)))
    } else {
        if !state.root_found {
            state.root = find_git_root();
            state.root_found = true;
        }
        let crate_roots = state.crate_roots.iter();
        crate_roots
            .filter_map(|root| read_under(root, file))
            .next()
            .or_else(|| read_lines(Path::new(file)))
            .or_else(|| state.root.as_ref().and_then(|root| read_lines(&root.join(file))))
    };
    state.files.insert(file.to_owned(), lines.clone());
    lines
}

/// Where `file` (a site path, or a path built from one, a folder too) is on disk, looked for where [`file_lines`]
/// looks (the module docs say where); `None` when it is in none of those places.
pub(crate) fn resolve(file: &str) -> Option<PathBuf> {
    let exists = |path: PathBuf| path.exists().then_some(path);
    let mut guard = sources();
    let state = guard.get_or_insert_with(Sources::default);
    if state.root_set {
        let root = state.root.clone().unwrap_or_else(|| PathBuf::from("."));
        return exists(root.join(file)).or_else(|| exists(PathBuf::from(file)));
    }
    if !state.root_found {
        state.root = find_git_root();
        state.root_found = true;
    }
    state
        .crate_roots
        .iter()
        .find_map(|root| root.ancestors().find_map(|dir| exists(dir.join(file))))
        .or_else(|| exists(PathBuf::from(file)))
        .or_else(|| state.root.as_ref().and_then(|root| exists(root.join(file))))
}

/// The text of line `line` (1-based) of `file`, trimmed, if it can be read and is not blank (a blank line is not
/// the line a node was made on: the file read is not the one compiled).
pub(crate) fn line_text(file: &str, line: u32) -> Option<String> {
    let lines = file_lines(file)?;
    let text = lines.get((line as usize).checked_sub(1)?)?.trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// The name a creation site binds: `let name = ...` (or `let mut name: T = ...`) on the site's line before its
/// column, or on the line before when it ends with `=`; else a struct field `name: ...` or an assignment
/// `name = ...` opening the line.
pub(crate) fn binding_at(file: &str, line: u32, column: u32) -> Option<String> {
    let lines = file_lines(file)?;
    let index = (line as usize).checked_sub(1)?;
    let text = lines.get(index)?;
    let before: String = text
        .chars()
        .take((column as usize).saturating_sub(1))
        .collect();
    if let Some(name) = let_binding(&before) {
        return Some(name);
    }
    if before.trim().is_empty() && index > 0 {
        let previous = lines[index - 1].trim_end();
        if let Some(name) = previous
            .ends_with('=')
            .then(|| let_binding(previous))
            .flatten()
        {
            return Some(name);
        }
    }
    leading_field(&before)
}

/// The identifier bound by the last `let` in `text`, when only a path or method receiver follows its `=` (not a
/// bracket, closure or other argument list: the node is then made inside a bigger expression).
fn let_binding(text: &str) -> Option<String> {
    let mut found = None;
    let mut from = 0;
    while let Some(i) = text[from..].find("let ").map(|i| i + from) {
        from = i + 4;
        if text[..i].chars().next_back().is_some_and(is_ident_char) {
            continue;
        }
        let after = text[i + 4..].trim_start();
        let after = after.strip_prefix("mut ").map_or(after, str::trim_start);
        let name = identifier(after);
        if name.is_empty() || name == "_" {
            continue;
        }
        let Some(eq) = after.find('=') else { continue };
        let value = &after[eq + 1..];
        if value.contains(['(', '[', '{', ',', ';', '|']) {
            found = None;
            continue;
        }
        found = Some(name.to_owned());
    }
    found
}

/// `name:` or `name =` opening `text` (a struct field or an assignment), if nothing else precedes the call.
fn leading_field(text: &str) -> Option<String> {
    let trimmed = text.trim();
    let name = identifier(trimmed);
    if name.is_empty() || name == "let" {
        return None;
    }
    let rest = trimmed[name.len()..].trim_start();
    let rest = rest
        .strip_prefix(':')
        .or_else(|| rest.strip_prefix('=').filter(|r| !r.starts_with('=')))?;
    rest.trim().is_empty().then(|| name.to_owned())
}

fn identifier(text: &str) -> &str {
    let end = text.find(|c: char| !is_ident_char(c)).unwrap_or(text.len());
    let name = &text[..end];
    if name.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        ""
    } else {
        name
    }
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The file name of a site path: `cart.rs` for `examples/examples/cart.rs`.
pub(crate) fn file_name(file: &str) -> &str {
    file.rsplit(['/', '\\']).next().unwrap_or(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn let_bindings() {
        assert_eq!(let_binding("    let total = ").as_deref(), Some("total"));
        assert_eq!(let_binding("let mut n: Memo<i32> = ").as_deref(), Some("n"));
        assert_eq!(let_binding("let a = 1; let b = ").as_deref(), Some("b"));
        assert_eq!(let_binding("let total = cart.").as_deref(), Some("total"));
        assert_eq!(let_binding("let all = vec![").as_deref(), None);
        assert_eq!(let_binding("let m = Memo::new(move |_| ").as_deref(), None);
        assert_eq!(let_binding("    outlet = ").as_deref(), None);
        assert_eq!(let_binding("let _ = ").as_deref(), None);
        assert_eq!(leading_field("        total: ").as_deref(), Some("total"));
        assert_eq!(leading_field("        total = ").as_deref(), Some("total"));
        assert_eq!(leading_field("  foo(").as_deref(), None);
        assert_eq!(file_name("examples/examples/cart.rs"), "cart.rs");
    }
}
