//! The compact text of every trace answer: one line per step, nodes as `name#id`, node lines as
//! `name#id Kind file.rs:line = value reads [a#1, b#2]`.
//!
//! This module is the only place the trace turns into text for agents; the MCP tools print these `Display` impls.

use super::query::{Finding, FindingKind, LEADING_FINDING};
use super::log::{Event, EventKind, FlightEvent, TimerEvent, Writer};
use super::query::{
    Cutoff, EqualWrite, Explain, GraphSummary, History, LookupError, Names, Neighborhood, NodeInfo,
    NodeName, Origin, Relation, RunStatus, Site, SourceLine, SourceRef, TraceSnapshot, Unread, Why,
    WhyNot, WhyRoot,
};
use crate::graph::NodeKind;
use crate::text::clip;
use std::fmt::{self, Display, Formatter, Write as _};
use std::collections::HashSet;

impl Display for NodeName {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.name, self.id)
    }
}

impl Display for Site {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file_name(), self.line)
    }
}

/// `[a#1, b#2]`.
struct List<'a>(&'a [NodeName]);

impl Display for List<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_char('[')?;
        for (i, n) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{n}")?;
        }
        f.write_char(']')
    }
}

impl NodeInfo {
    /// The compact line naming at most `max_sources` sources, then `… n more`: what the MCP tools print, so a node
    /// reading thousands of sources still fits one line.
    pub fn line_within(&self, max_sources: usize) -> String {
        NodeLine(self, max_sources, self.sources.len()).to_string()
    }

    /// [`line_within`](Self::line_within) for an info that names only its first sources (see
    /// `Ctx::info_within`): `sources` is how many it has in all. The MCP adapter's lines.
    #[cfg(feature = "mcp")]
    pub(crate) fn line_of(&self, max_sources: usize, sources: usize) -> String {
        NodeLine(self, max_sources, sources.max(self.sources.len())).to_string()
    }
}

/// A node's line: the info, how many sources it names at most, and how many it has.
struct NodeLine<'a>(&'a NodeInfo, usize, usize);

impl Display for NodeInfo {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        NodeLine(self, usize::MAX, self.sources.len()).fmt(f)
    }
}

impl Display for NodeLine<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let NodeLine(info, max_sources, total) = *self;
        write!(f, "{} {} {}", info.node, info.kind.name(), info.site)?;
        if let Some(value) = &info.value {
            write!(f, " = {value}")?;
        }
        if info.kind != NodeKind::Signal {
            if total > max_sources {
                let shown = &info.sources[..max_sources.min(info.sources.len())];
                write!(
                    f,
                    " reads {} … {} more]",
                    List(shown).to_string().trim_end_matches(']'),
                    total - shown.len()
                )?;
            } else {
                write!(f, " reads {}", List(&info.sources))?;
            }
        }
        if let Some(error) = &info.error {
            write!(f, " failed: {}", one_line(error))?;
        }
        if info.disposed {
            f.write_str(" (disposed)")?;
        }
        Ok(())
    }
}

/// An event with its nodes named: one line, without the sequence number.
pub(super) struct Step<'a>(pub &'a Event, pub &'a Names);

impl Display for Step<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let n = |id| self.1.of(id);
        match &self.0.kind {
            EventKind::NodeNew {
                node, kind, owner, ..
            } => {
                write!(f, "created {} {}", n(*node), kind.name())?;
                if let Some(owner) = owner {
                    write!(f, " in a run of {}", n(*owner))?;
                }
                Ok(())
            }
            EventKind::Label { node, label } => write!(f, "label {} {label:?}", n(*node)),
            EventKind::Write {
                node,
                by,
                moved,
                value,
            } => {
                let what = if *moved { "write" } else { "equal write" };
                write!(f, "{what} {} = {value}", n(*node))?;
                match by {
                    Writer::Program => f.write_str(" by the program"),
                    Writer::Message(seq) => write!(f, " by message #{seq}"),
                    Writer::Computation(c) => write!(f, " by {}", n(*c)),
                }
            }
            EventKind::Mark {
                node,
                source,
                dirty,
            } => {
                write!(
                    f,
                    "mark {} {} <- {}",
                    n(*node),
                    if *dirty { "dirty" } else { "check" },
                    n(*source)
                )
            }
            EventKind::Schedule { node } => write!(f, "schedule {}", n(*node)),
            EventKind::CheckStart { node } => write!(f, "check {}", n(*node)),
            EventKind::CheckResolved { node, dirty_source } => match dirty_source {
                Some(s) => write!(f, "checked {}: {} moved", n(*node), n(*s)),
                None => write!(f, "checked {}: clean", n(*node)),
            },
            EventKind::RunStart { node, run, puller } => {
                write!(f, "run {} #{run}", n(*node))?;
                if let Some(p) = puller {
                    write!(f, " pulled by {}", n(*p))?;
                }
                Ok(())
            }
            EventKind::RunEnd {
                node,
                moved,
                error,
                value,
            } => {
                match (error, value) {
                    (Some(e), _) => write!(f, "end {} failed: {}", n(*node), one_line(e))?,
                    (None, Some(v)) if *moved => write!(f, "end {} moved = {v}", n(*node))?,
                    (None, Some(v)) => write!(f, "end {} kept {v}", n(*node))?,
                    (None, None) => write!(f, "end {}", n(*node))?,
                }
                Ok(())
            }
            EventKind::Stopped { node, message } => {
                write!(f, "stopped {}: {}", n(*node), one_line(message))
            }
            EventKind::FlushStart { flush } => write!(f, "flush {flush} start"),
            EventKind::FlushEnd { flush } => write!(f, "flush {flush} end"),
            EventKind::BatchEnter { depth } => write!(f, "batch enter depth {depth}"),
            EventKind::BatchExit { depth } => write!(f, "batch exit to depth {depth}"),
            EventKind::Dispose { node } => write!(f, "dispose {}", n(*node)),
            EventKind::Message { target, name, args } => {
                write!(f, "message {}", message_text(name, args))?;
                write!(f, " to {}", n(*target))
            }
            EventKind::EdgeAdd { node, source } => write!(f, "{} reads {}", n(*node), n(*source)),
            EventKind::EdgeRemove { node, source } => {
                write!(f, "{} stopped reading {}", n(*node), n(*source))
            }
            EventKind::UntrackedRead { node, source } => match node {
                Some(r) => write!(f, "{} peeked {}", n(*r), n(*source)),
                None => write!(f, "the program peeked {}", n(*source)),
            },
            EventKind::Flight { node, flight, what } => {
                let did = match what {
                    FlightEvent::Start => "started",
                    FlightEvent::Settle => "settled",
                    FlightEvent::Fail => "failed",
                    FlightEvent::Cancel => "was cancelled",
                    FlightEvent::Drop => "finished, its outcome dropped (superseded)",
                };
                write!(f, "flight {flight} of {} {did}", n(*node))
            }
            EventKind::Timer {
                node,
                what,
                at,
                due,
                value,
            } => {
                let value = value.as_deref().map_or("(gone)".into(), one_line);
                let (at, due) = (at.as_millis(), due.as_millis());
                match what {
                    TimerEvent::Schedule => write!(
                        f,
                        "timer of {} scheduled at {at} ms: passes {value} at {due} ms",
                        n(*node)
                    ),
                    TimerEvent::Replace => write!(
                        f,
                        "timer of {} given a newer value at {at} ms: passes {value} at {due} ms",
                        n(*node)
                    ),
                    TimerEvent::Fire => {
                        write!(f, "timer of {} fired at {at} ms: passed {value}", n(*node))
                    }
                    TimerEvent::Cancel => write!(
                        f,
                        "timer of {} cancelled at {at} ms (was due at {due} ms, dropped {value})",
                        n(*node)
                    ),
                }
            }
        }
    }
}

fn message_text(name: &str, args: &str) -> String {
    if args.is_empty() {
        name.to_owned()
    } else {
        format!("{name} {args}")
    }
}

fn one_line(text: &str) -> String {
    text.replace('\n', " ")
}

/// Where a node named in a chain or a reads list was created, compactly: `:41` in the explained node's file,
/// `:cart.rs:41` in another.
fn line_suffix(site: &Site, home: Option<&str>) -> String {
    if home == Some(site.file) {
        format!(":{}", site.line)
    } else {
        format!(":{}:{}", site.file_name(), site.line)
    }
}

/// A root, with its nodes named.
pub(super) struct Root<'a>(pub &'a WhyRoot, pub &'a Names);

impl Display for Root<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self.0 {
            WhyRoot::Message {
                seq, name, args, ..
            } => write!(f, "message {} #{seq}", message_text(name, args)),
            WhyRoot::ProgramWrite { seq, node, at } => {
                write!(f, "program write to {}", self.1.of(*node))?;
                if let Some(at) = at {
                    write!(f, " at {at}")?;
                }
                write!(f, " #{seq}")
            }
            WhyRoot::Created { seq, node } => write!(f, "creation of {} #{seq}", self.1.of(*node)),
            WhyRoot::Pulled { seq, by: Some(by) } => {
                write!(f, "pulled by {} #{seq}", self.1.of(*by))
            }
            WhyRoot::Pulled { seq, by: None } => write!(f, "pulled by the program #{seq}"),
            WhyRoot::PastRing {
                seq,
                oldest,
                message,
            } => {
                write!(
                    f,
                    "reaches past the ring: #{seq} was dropped (oldest kept #{oldest})"
                )?;
                if let Some(m) = message {
                    write!(
                        f,
                        "; it was one of the {} events of message {} #{}, whose first {} the ring dropped",
                        m.events,
                        message_text(&m.name, &m.args),
                        m.seq,
                        m.dropped
                    )?;
                }
                Ok(())
            }
            WhyRoot::NeverRan => f.write_str("never ran: nothing has read it"),
            WhyRoot::NoCause { seq } => write!(f, "no recorded cause before #{seq}"),
        }
    }
}

impl Display for Why {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.run > 0 {
            writeln!(f, "why {} run {}", self.node, self.run)?;
        } else {
            writeln!(f, "why {}", self.node)?;
        }
        for step in &self.steps {
            write!(f, "#{} {}", step.seq, Step(step, &self.names))?;
            if let Some(at) = self.write_sites.get(&step.seq) {
                write!(f, " at {at}")?;
            }
            writeln!(f)?;
        }
        write!(f, "root: {}", Root(&self.root, &self.names))
    }
}

impl Why {
    /// The chain on one line, oldest first, keeping the root, the writes and the moves (each value cut to
    /// 60 characters; the node's own line and `node` hold it whole):
    /// `message add {..} #30 -> write lines#2 = [..] #31 -> subtotal#4 = 1000 #45 -> total#5 run 3 #49`.
    pub fn compact(&self) -> String {
        self.parts().join(" -> ")
    }

    /// [`compact`](Self::compact) cut to about `max` characters: the first step (the root) and as many of the
    /// latest steps as fit, with `… n steps …` between them.
    pub fn compact_within(&self, max: usize) -> String {
        let parts = self.parts();
        let whole = parts.join(" -> ");
        if whole.chars().count() <= max || parts.len() < 3 {
            return whole;
        }
        let first = &parts[0];
        let mut budget = max.saturating_sub(first.chars().count() + 24);
        let mut kept = Vec::new();
        for part in parts[1..].iter().rev() {
            let len = part.chars().count() + 4;
            if len > budget && !kept.is_empty() {
                break;
            }
            budget = budget.saturating_sub(len);
            kept.push(part.as_str());
        }
        kept.reverse();
        let skipped = parts.len() - 1 - kept.len();
        let mut out = first.clone();
        if skipped > 0 {
            let _ = write!(out, " -> … {skipped} steps …");
        }
        for part in kept {
            out.push_str(" -> ");
            out.push_str(part);
        }
        out
    }

    /// The steps one line each, oldest last as in [`steps`](Self::steps): `(seq, cause, text)`.
    pub fn step_lines(&self) -> Vec<(u64, u64, String)> {
        self.steps
            .iter()
            .map(|e| (e.seq, e.cause, Step(e, &self.names).to_string()))
            .collect()
    }

    /// The root's text: `message add_item {..} #30`, `program write to price#1 #7`, ...
    pub fn root_text(&self) -> String {
        Root(&self.root, &self.names).to_string()
    }

    fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        let home = self.sites.get(&self.node.id).map(|s| s.file);
        for step in self.steps.iter().rev() {
            let n = |id| {
                let name = self.names.of(id);
                match self.sites.get(&id) {
                    Some(site) => format!("{name}{}", line_suffix(site, home)),
                    None => name.to_string(),
                }
            };
            let part = match &step.kind {
                EventKind::Message { name, args, .. } => {
                    format!("message {}", message_text(name, args))
                }
                EventKind::Write {
                    node, value, moved, ..
                } => {
                    let at = self
                        .write_sites
                        .get(&step.seq)
                        .map(|at| format!(" at {at}"))
                        .unwrap_or_default();
                    format!(
                        "{} {} = {}{at}",
                        if *moved { "write" } else { "equal write" },
                        n(*node),
                        clip(value, WHY_VALUE_MAX)
                    )
                }
                EventKind::RunEnd {
                    node,
                    moved: true,
                    value: Some(v),
                    ..
                } => format!("{} = {}", n(*node), clip(v, WHY_VALUE_MAX)),
                EventKind::RunEnd {
                    node,
                    moved: false,
                    value: Some(v),
                    error: None,
                } => {
                    format!("{} kept {}", n(*node), clip(v, WHY_VALUE_MAX))
                }
                EventKind::RunStart { node, run, .. } if *node == self.node.id => {
                    format!("{} run {run}", n(*node))
                }
                EventKind::NodeNew { node, .. } => format!("created {}", n(*node)),
                _ => continue,
            };
            parts.push(format!("{part} #{}", step.seq));
        }
        let root = Root(&self.root, &self.names).to_string();
        match &self.root {
            WhyRoot::Message { .. } | WhyRoot::Created { .. } | WhyRoot::ProgramWrite { .. }
                if !parts.is_empty() => {}
            _ => parts.insert(0, root),
        }
        parts
    }
}

impl Display for Cutoff {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} kept {} #{}", self.node, self.value, self.seq)
    }
}

impl Display for EqualWrite {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {} #{}", self.node, self.value, self.seq)
    }
}

impl Display for WhyNot {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            WhyNot::Signal {
                node,
                last_write: 0,
            } => {
                write!(
                    f,
                    "{node} is a signal: it changes only when written, and was never written"
                )
            }
            WhyNot::Signal { node, last_write } => {
                write!(
                    f,
                    "{node} is a signal: it changes only when written (last write #{last_write})"
                )
            }
            WhyNot::NeverRan { node } => write!(f, "{node} never ran: nothing has read it"),
            WhyNot::Disposed { node, seq } => write!(f, "{node} was disposed #{seq}"),
            WhyNot::Queued { node, schedule } => {
                write!(
                    f,
                    "{node} is queued #{schedule}: it runs when the open batch or the running flush ends"
                )
            }
            WhyNot::Unobserved {
                node,
                mark,
                source,
                dirty,
                observers,
            } => {
                write!(
                    f,
                    "{node} was marked {}",
                    if *dirty { "dirty" } else { "check" }
                )?;
                if let Some(source) = source {
                    write!(f, " by {source}")?;
                }
                write!(f, " #{mark} and nothing has read it since")?;
                if observers.is_empty() {
                    f.write_str(" (unobserved: a memo re-runs only when read)")
                } else {
                    write!(
                        f,
                        " (its readers {} did not read it again)",
                        List(observers)
                    )
                }
            }
            WhyNot::CheckedClean {
                node,
                check,
                sources,
                cutoff,
            } => {
                write!(f, "{node} checked clean #{check} against {}", List(sources))?;
                if let Some(c) = cutoff {
                    write!(f, "; the change stopped at {c}")?;
                }
                Ok(())
            }
            WhyNot::StoppedAtCutoff { node, cutoff } => {
                write!(
                    f,
                    "{node}: propagation stopped upstream at a cutoff: {cutoff}"
                )
            }
            WhyNot::EqualWrite { node, write } => {
                write!(
                    f,
                    "{node}: the latest upstream write was equal and changed nothing: {write}"
                )
            }
            WhyNot::NotReached { node, since } => {
                write!(
                    f,
                    "{node}: nothing upstream moved since its last run #{since}"
                )
            }
        }
    }
}

impl Display for Unread {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.node)?;
        if let Some(v) = &self.value {
            write!(f, " = {v}")?;
        }
        write!(
            f,
            " moved #{} after an untracked read #{}",
            self.moved, self.read
        )
    }
}

impl Display for History {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "history {}", self.node)?;
        if self.runs > 0 {
            write!(f, " ({} runs)", self.runs)?;
        }
        if self.truncated {
            f.write_str(" (older entries dropped by the ring)")?;
        }
        for e in &self.entries {
            f.write_char('\n')?;
            if e.run > 0 {
                write!(f, "run {} #{}", e.run, e.start)?;
                if e.end > 0 {
                    write!(f, "..#{}", e.end)?;
                }
            } else {
                write!(f, "write #{}", e.start)?;
            }
            match &e.status {
                RunStatus::Moved => f.write_str(" moved")?,
                RunStatus::Kept if e.run > 0 => f.write_str(" kept")?,
                RunStatus::Kept => f.write_str(" equal")?,
                RunStatus::Ran => f.write_str(" ran")?,
                RunStatus::Failed(m) => write!(f, " failed: {}", one_line(m))?,
                RunStatus::Open => f.write_str(" open")?,
            }
            if let Some(v) = &e.value {
                write!(f, " = {v}")?;
            }
            write!(f, " (root: {})", Root(&e.root, &self.names))?;
        }
        Ok(())
    }
}

impl Display for Origin {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "origin {} {} {}:{}:{} path {}",
            self.node,
            self.kind.name(),
            self.site.file,
            self.site.line,
            self.site.column,
            self.path
        )?;
        if let Some(line) = &self.line {
            write!(f, "\nline: {line}")?;
        }
        if let Some(label) = &self.label {
            write!(f, "\nlabel: {label}")?;
        }
        if let Some(binding) = &self.binding {
            write!(f, "\nbinding: {binding}")?;
        }
        if !self.owners.is_empty() {
            write!(f, "\nowners: {}", List(&self.owners))?;
        }
        write!(f, "\ncreated #{}", self.created)?;
        if self.creating_run > 0 {
            write!(f, " in run #{}", self.creating_run)?;
        }
        Ok(())
    }
}

impl Display for TraceSnapshot {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "snapshot #{}: {} nodes; the ring holds #{}..#{} (capacity {})",
            self.clock,
            self.nodes.len(),
            self.oldest,
            self.clock,
            self.capacity
        )?;
        for node in &self.nodes {
            write!(f, "\n{node}")?;
        }
        Ok(())
    }
}

/// `n thing` or `n things`: a count with its noun in the right number.
fn counted(count: usize, singular: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { singular } else { plural })
}

impl GraphSummary {
    /// The node counts by kind, `1 signal, 2 memos, 1 effect`.
    pub(crate) fn counts(&self) -> String {
        format!(
            "{}, {}, {}",
            counted(self.signals, "signal", "signals"),
            counted(self.memos, "memo", "memos"),
            counted(self.effects, "effect", "effects")
        )
    }
}

impl Display for GraphSummary {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(&self.counts())?;
        if self.disposed > 0 {
            write!(f, ", {} disposed", self.disposed)?;
        }
        match &self.last_message {
            Some(m) => {
                write!(
                    f,
                    "\nlast message: {} #{} to {}",
                    message_text(&m.name, &m.args),
                    m.seq,
                    m.target
                )?;
                write!(f, "\nmoved since:")?;
            }
            None => write!(f, "\nno message dispatched; moved:")?,
        }
        if self.moved.is_empty() {
            f.write_str(" nothing")?;
        }
        for node in &self.moved {
            write!(f, "\n{node}")?;
        }
        Ok(())
    }
}

impl Display for Neighborhood {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.center)?;
        for (hops, relation, node) in &self.nodes {
            let way = match relation {
                Relation::Source => "source",
                Relation::Observer => "observer",
            };
            write!(f, "\n{way} {hops}: {node}")?;
        }
        Ok(())
    }
}

/// The indented line under a node that names its source line: `  file.rs:12: text`, or `  at file.rs:12` when
/// the source cannot be read.
/// A blank text counts as none: a quote line never ends in nothing.
fn source_line(f: &mut Formatter<'_>, site: &Site, text: Option<&str>) -> fmt::Result {
    match text.filter(|text| !text.trim().is_empty()) {
        Some(text) => write!(f, "\n  {site}: {text}"),
        None => write!(f, "\n  at {site}"),
    }
}

impl Explain {
    /// The explanation with its cause chain cut to about `why_max` characters (the root and the latest steps
    /// kept): what the MCP `explain` tool answers.
    /// Node lines name at most twelve sources each.
    pub fn render(&self, why_max: usize) -> String {
        ExplainText(self, why_max, 12, false).to_string()
    }

    /// The short form of [`render`](Self::render): the same node line, findings and lines, without the `why:` chain
    /// when a finding already names a line (the chain then repeats what the findings say). What the MCP `explain`
    /// tool answers by default (`detail: "full"` gives [`render`](Self::render)).
    pub fn brief(&self, why_max: usize) -> String {
        ExplainText(self, why_max, 12, true).to_string()
    }
}

/// An explanation, its `why:` chain cut to `.1` characters and its node lines to `.2` sources; `.3`: the short form.
struct ExplainText<'a>(&'a Explain, usize, usize, bool);

/// The longest value a `why:` chain prints for one step (a model's `Debug` text can be long); longer ones end with `…`.
const WHY_VALUE_MAX: usize = 60;

/// The longest source line text an explanation quotes; longer lines end with `…`.
const QUOTED_LINE_MAX: usize = 100;

/// How many lines of the explained node's own body an explanation quotes: fewer when a strong finding comes first.
const BODY_LINES_WITH_FINDING: usize = 3;
const BODY_LINES_ALONE: usize = 7;

/// A finding this strong goes before the node's body lines, which it cuts to [`BODY_LINES_WITH_FINDING`].
const STRONG_FINDING: u32 = 700;

impl Display for ExplainText<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let e = self.0;
        let home = Some(e.info.site.file);
        node_head(f, e, self.2, home, self.3)?;
        // the short form leaves out a creation line that only opens the body: the node line names its place, and
        // the body's lines follow
        let own = e
            .line
            .as_deref()
            .filter(|line| !line.trim().is_empty())
            .filter(|line| !(self.3 && only_opens(line)));
        // the short form quotes each line once: a line an earlier part of the answer quoted is left out after
        let mut shown: Shown = Shown::new(self.3, &e.info.site);
        if let Some(line) = own {
            shown.first(&e.info.site);
            write!(f, "\n  {}: {}", e.info.site, quoted(line))?;
        }
        let strong = e.findings.first().filter(|x| x.rank >= LEADING_FINDING);
        let body = if strong.is_some_and(|x| x.rank >= STRONG_FINDING) {
            BODY_LINES_WITH_FINDING
        } else {
            BODY_LINES_ALONE
        };
        let mut findings = e.findings.iter();
        let brief = self.3;
        if let Some(top) = strong {
            findings.next();
            finding(f, top, brief, &mut shown, own_value(e, brief))?;
        }
        for line in e.body.iter().take(body) {
            if shown.first(&line.site) {
                source_line(f, &line.site, Some(&quoted(&line.text)))?;
            }
        }
        for x in findings {
            // the short form leaves out a `comparer:` line of a node a `kept:` finding said its comparer kept a
            // value of (with the comparer's lines): it would name the node and its comparer again
            if brief && x.kind == FindingKind::Comparer && said_by_its_comparer(e, &x.text) {
                continue;
            }
            finding(f, x, brief, &mut shown, own_value(e, brief))?;
        }
        let named = e.findings.iter().any(|x| x.at.is_some());
        if !(self.3 && named) {
            write!(f, "\nwhy: {}", e.why.compact_within(self.1))?;
        }
        let reported = e.findings.iter().any(|x| x.kind == FindingKind::NotReRun);
        // the short form leaves out "nothing upstream moved" when the findings name lines: it adds nothing to them
        let idle = self.3 && named && matches!(e.why_not, Some(WhyNot::NotReached { .. }));
        if let Some(why_not) = e.why_not.as_ref().filter(|_| !reported && !idle) {
            let why_not = why_not.to_string();
            // the short form leaves it out when it ends with what a finding above said (the `cutoff:` where the
            // change stopped)
            let said = e.findings.iter().any(|x| {
                x.kind != FindingKind::Kept
                    && !x.text.is_empty()
                    && why_not.ends_with(&format!(" {}", x.text))
            });
            if !(self.3 && said) {
                write!(f, "\nnot re-run since: {why_not}")?;
            }
        }
        Ok(())
    }
}

/// Whether a `kept:` finding of `e` says that the node a `comparer:` finding's `text` starts with (`boxes#10 Memo
/// …`) kept a value by its comparer.
fn said_by_its_comparer(e: &Explain, text: &str) -> bool {
    let Some(node) = text.split(' ').next() else {
        return false;
    };
    e.findings.iter().any(|x| {
        x.kind == FindingKind::Kept
            && x.text.contains("equal by its comparer")
            && x.text.strip_prefix(node).is_some_and(|rest| rest.starts_with(' '))
    })
}

/// The most characters of the node's value the short form's node line shows.
const BRIEF_VALUE_MAX: usize = 60;

/// The node line, its reads with the line each source was made on: `total#9 Memo app.rs:60 = 1400 reads
/// [subtotal#4:52, shipping#8:70 (disposed)]`.
fn node_head(
    f: &mut Formatter<'_>,
    e: &Explain,
    max_sources: usize,
    home: Option<&str>,
    brief: bool,
) -> fmt::Result {
    let info = &e.info;
    write!(f, "{} {} {}", info.node, info.kind.name(), info.site)?;
    if let Some(value) = &info.value {
        // the short form cuts a long value further: the answer's last line shows the values the messages moved
        let max = if brief { BRIEF_VALUE_MAX } else { usize::MAX };
        write!(f, " = {}", crate::text::clip(value, max))?;
    }
    if info.kind != NodeKind::Signal {
        f.write_str(" reads [")?;
        // the short form names one of the memos a collection's rows made at one line (`stock[BRK-110]/shelf#7:27`)
        // and counts the others (`+5 rows`): their names differ only by the key
        let reads: Vec<(&SourceRef, usize)> = if brief {
            let mut grouped: Vec<(&SourceRef, usize)> = Vec::new();
            for source in &e.reads {
                match grouped.iter_mut().find(|(first, _)| same_row_memo(first, source)) {
                    Some((_, n)) => *n += 1,
                    None => grouped.push((source, 0)),
                }
            }
            grouped
        } else {
            e.reads.iter().map(|s| (s, 0)).collect()
        };
        for (i, (source, others)) in reads.iter().take(max_sources).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            source_ref(f, source, home)?;
            if *others > 0 {
                write!(f, " +{others} rows")?;
            }
        }
        if reads.len() > max_sources {
            write!(f, " … {} more", reads.len() - max_sources)?;
        }
        f.write_char(']')?;
    }
    if let Some(error) = &info.error {
        write!(f, " failed: {}", one_line(error))?;
    }
    if info.disposed {
        f.write_str(" (disposed)")?;
    }
    Ok(())
}

/// Whether two sources are memos rows of one collection made at one line: `stock[FLT-220]/shelf` and
/// `stock[BRK-110]/shelf`, both made at `stock.rs:27`.
fn same_row_memo(a: &SourceRef, b: &SourceRef) -> bool {
    let shape = |name: &str| -> Option<(String, String)> {
        let (collection, rest) = name.split_once('[')?;
        let (_, memo) = rest.rsplit_once("]/")?;
        Some((collection.to_owned(), memo.to_owned()))
    };
    a.site == b.site && shape(&a.node.name).is_some_and(|s| Some(s) == shape(&b.node.name))
}

fn source_ref(f: &mut Formatter<'_>, source: &SourceRef, home: Option<&str>) -> fmt::Result {
    write!(f, "{}{}", source.node, line_suffix(&source.site, home))?;
    if source.disposed {
        f.write_str(" (disposed)")?;
    }
    Ok(())
}

/// The explained node's name and value, which a finding's text need not repeat: `(name, value)` in the short form.
fn own_value(e: &Explain, brief: bool) -> Option<(String, &str)> {
    let value = e.info.value.as_deref().filter(|_| brief)?;
    Some((e.info.node.to_string(), value))
}

/// `text` without the ` = value` right after the explained node's name at its start, when that value is the node's
/// (whole, or cut with `…`): the node line says it already (`flags#20 = Some(…): the value its future settled` becomes
/// `flags#20: the value its future settled`). Other texts are returned as they are.
fn without_own_value<'t>(text: &'t str, own: Option<&(String, &str)>) -> std::borrow::Cow<'t, str> {
    let Some((name, value)) = own else {
        return text.into();
    };
    let Some(rest) = text
        .strip_prefix(name.as_str())
        .and_then(|rest| rest.strip_prefix(" = "))
    else {
        return text.into();
    };
    // how far the text follows the value: all of it, or up to a `…` that cut it
    let same: usize = rest
        .char_indices()
        .zip(value.chars())
        .take_while(|((_, a), b)| a == b)
        .last()
        .map_or(0, |((i, a), _)| i + a.len_utf8());
    let ends = |after: &str| after.is_empty() || after.starts_with([':', ' ', ';', ',']);
    let after = if same == value.len() && same > 0 && ends(&rest[same..]) {
        &rest[same..]
    } else if let Some(after) = rest[same..].strip_prefix('…').filter(|_| same > 0) {
        after
    } else {
        return text.into();
    };
    format!("{name}{after}").into()
}

/// `text` without the explained node's name (`name`) at its start, which the node line names: `total#4's latest
/// run #9 took` becomes `its latest run #9 took`, `tax#4: the value its future settled` becomes `the value its future
/// settled`, and `peak#3 re-ran #42 and kept 500` (or `points#3 by award#4 #34`) becomes `it re-ran #42 and kept 500`
/// (`by award#4 #34`). A text naming another node first, or the name as the start of a longer one, is kept as it is.
fn without_own_name(text: &str, name: &str) -> String {
    let Some(rest) = text.strip_prefix(name) else {
        return text.to_owned();
    };
    if let Some(rest) = rest.strip_prefix("'s ") {
        format!("its {rest}")
    } else if let Some(rest) = rest.strip_prefix(": ") {
        rest.to_owned()
    } else if let Some(rest) = rest.strip_prefix(" by ") {
        format!("by {rest}")
    } else if let Some(rest) = rest.strip_prefix(' ').filter(|r| !r.starts_with(['=', '('])) {
        format!("it {rest}")
    } else {
        text.to_owned()
    }
}

/// `label: text`, then the line to fix and the lines that belong to it, indented (`brief`: a line that only opens
/// a node's body as `at file:line`, without its text; a text that repeats the explained node's value without it).
fn finding(
    f: &mut Formatter<'_>,
    x: &Finding,
    brief: bool,
    shown: &mut Shown,
    own: Option<(String, &str)>,
) -> fmt::Result {
    // the short form leaves out a node that kept its value by an equality that said nothing more, when every line
    // it would quote is quoted already (the node's own line): the value and the lines above say it
    let quotes_nothing = x.at.iter().chain(&x.more).all(|l| shown.seen(&l.site));
    if brief && x.kind == FindingKind::Kept && !x.text.contains("; computed ") && quotes_nothing {
        return Ok(());
    }
    let mut text = without_own_value(&x.text, own.as_ref());
    if brief && let Some((name, _)) = &own {
        text = without_own_name(&text, name).into();
    }
    // `ran: message m #5 moved model#1: its update ran` says twice that it ran
    if brief && x.kind == FindingKind::Ran && text.contains(super::diagnose::UPDATE_RAN) {
        text = text.replacen(super::diagnose::UPDATE_RAN, "", 1).into();
    }
    write!(f, "\n{}: {}", x.kind.label(), one_line(&text))?;
    // the short form leaves out the line of the message's own arm when it only opens the arm (`Msg::Order { visit,
    // test } => {`) and the finding quotes other lines: the label names the message its arm handled
    let opener = brief
        .then(|| message_arm_opener(x))
        .flatten()
        .filter(|_| x.at.iter().chain(&x.more).count() > 1);
    for line in x.at.iter().chain(&x.more) {
        if opener.is_some_and(|o| o == line.site) {
            continue;
        }
        if shown.first(&line.site) {
            finding_line(f, line, brief)?;
        }
    }
    Ok(())
}

/// The site of the line of a message's finding (`message order #5 moved ...`) that only opens the arm matching the
/// message's own variant (`Msg::Order { visit, test } => {`, `Msg::Reset => {`): the first such line it quotes.
fn message_arm_opener(x: &Finding) -> Option<Site> {
    if !matches!(x.kind, FindingKind::Ran | FindingKind::Update) {
        return None;
    }
    let name = x.text.strip_prefix("message ")?.split(' ').next()?;
    let variant = super::diagnose::variant_of(name);
    x.at.iter().chain(&x.more).find_map(|line| {
        let code = super::source::code_of(&line.text).trim();
        let (pattern, body) = code.split_once("=>")?;
        let names_variant = pattern
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .any(|word| word == variant);
        (names_variant && matches!(body.trim(), "{" | "")).then_some(line.site)
    })
}

/// The lines an answer has quoted so far, by file and line: in the short form a line is quoted once, where it
/// first belongs (a `kept:` or `cutoff:` under the node's own line would quote that line again).
struct Shown(Option<HashSet<(&'static str, u32)>>, (&'static str, u32));

impl Shown {
    /// `once`: quote each line once (the short form); otherwise every line is quoted wherever it belongs. `own`:
    /// the explained node's line, which the node line names.
    fn new(once: bool, own: &Site) -> Self {
        Shown(once.then(HashSet::new), (own.file, own.line))
    }

    /// Whether `site`'s line was quoted already, or is the node's own line, which the node line names (never, when
    /// every line is quoted wherever it belongs).
    fn seen(&self, site: &Site) -> bool {
        let at = (site.file, site.line);
        self.0.as_ref().is_some_and(|seen| at == self.1 || seen.contains(&at))
    }

    /// Whether `site`'s line is to be quoted: not yet quoted, or every line is.
    fn first(&mut self, site: &Site) -> bool {
        self.0
            .as_mut()
            .is_none_or(|seen| seen.insert((site.file, site.line)))
    }
}

fn finding_line(f: &mut Formatter<'_>, line: &SourceLine, brief: bool) -> fmt::Result {
    let opens = brief && only_opens(&line.text);
    let shown = !line.text.is_empty() && !opens;
    let text = shown.then(|| quoted(&line.text));
    source_line(f, &line.site, text.as_deref())
}

/// Whether a source line only opens a node's body, so its text says nothing its `file:line` does not: a call of a
/// constructor or a method with nothing but an opening bracket, a `move` and a closure's parameters after it
/// (`let total = Memo::new({`, `Memo::new(move |_| {`, `AsyncMemo::new(move |prev| {`).
fn only_opens(text: &str) -> bool {
    let code = super::source::code_of(text).trim();
    // `let name =` (or `let name: Type =`) before the call
    let call = match code.strip_prefix("let ") {
        Some(rest) => match rest.split_once(" = ") {
            Some((_, call)) => call,
            None => return false,
        },
        None => code,
    };
    let Some((path, rest)) = call.split_once('(') else {
        return false;
    };
    let is_path = !path.is_empty()
        && path
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | ':' | '.' | '<' | '>'));
    // after the call's `(`: an optional `move`, closure parameters, an opening brace
    let mut rest = rest.trim();
    rest = rest.strip_prefix("move").map_or(rest, str::trim_start);
    if let Some(after) = rest.strip_prefix('|') {
        match after.split_once('|') {
            Some((_, tail)) => rest = tail.trim_start(),
            None => return false,
        }
    }
    is_path && matches!(rest, "" | "{")
}

/// A source line's text, cut to [`QUOTED_LINE_MAX`] characters.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED_LINE_MAX) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

impl Display for Explain {
    /// The node line (its reads with the line each source was made on) and its source line; the findings, best
    /// first, each followed by the indented source line to look at (`  file.rs:12: text`), with the lines of the
    /// node's own body that read its sources after the first strong one; then `why:` (the cause chain on one line,
    /// each node with its line) and `not re-run since:`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        ExplainText(self, usize::MAX, usize::MAX, false).fmt(f)
    }
}

impl Display for LookupError {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "no node matches `{}`: {}", self.query, self.reason)?;
        if !self.candidates.is_empty() {
            write!(f, "; candidates: {}", List(&self.candidates))?;
        }
        Ok(())
    }
}

/// Renders events one line each, `#seq step (cause #n)`, with their nodes named from the current graph.
pub fn render_events(events: &[Event]) -> String {
    let names = super::with_log(|tracer| super::query::Ctx::new(tracer).names_in(events, &[]))
        .unwrap_or_default();
    let mut out = String::new();
    for e in events {
        let _ = write!(out, "#{} {}", e.seq, Step(e, &names));
        if e.cause != 0 {
            let _ = write!(out, " (cause #{})", e.cause);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{only_opens, same_row_memo, without_own_value};
    use crate::graph::NodeId;
    use crate::trace::{NodeName, Site, SourceRef};

    fn source(id: u32, name: &str, line: u32) -> SourceRef {
        SourceRef {
            node: NodeName {
                id: NodeId(id),
                name: name.into(),
            },
            site: Site {
                file: "stock.rs",
                line,
                column: 5,
            },
            disposed: false,
        }
    }

    #[test]
    fn row_memos_of_one_collection_made_at_one_line_are_one_group() {
        let shelf = source(9, "stock[FLT-220]/shelf", 27);
        assert!(same_row_memo(&shelf, &source(7, "stock[BRK-110]/shelf", 27)));
        // another memo of the row, another line, another collection, a node that is not a row's
        assert!(!same_row_memo(&shelf, &source(8, "stock[BRK-110]/label", 27)));
        assert!(!same_row_memo(&shelf, &source(7, "stock[BRK-110]/shelf", 28)));
        assert!(!same_row_memo(&shelf, &source(7, "plots[BRK-110]/shelf", 27)));
        assert!(!same_row_memo(&source(1, "walk", 27), &source(2, "walk", 27)));
    }

    #[test]
    fn the_short_form_does_not_repeat_the_explained_value_in_a_finding() {
        let own = ("flags#20".to_owned(), "Some(LabFlags { patient: \"Ada\", flagged: [] })");
        // cut with `…`
        assert_eq!(
            without_own_value("flags#20 = Some(LabFlags { pat…: the value its future settled, from", Some(&own)),
            "flags#20: the value its future settled, from"
        );
        // whole
        let own = ("peak#18".to_owned(), "2");
        assert_eq!(without_own_value("peak#18 = 2 by keeper#19 #805", Some(&own)), "peak#18 by keeper#19 #805");
        // another value, another node, or the long form: as it is
        for text in ["peak#18 = 3 by keeper#19 #805", "total#4 = 2 moved #9", "peak#18 = 25 by keeper#19"] {
            assert_eq!(without_own_value(text, Some(&own)), text);
        }
        assert_eq!(without_own_value("peak#18 = 2 by keeper#19", None), "peak#18 = 2 by keeper#19");
    }

    #[test]
    fn a_line_that_only_opens_a_body() {
        for opener in [
            "let total = Memo::new({",
            "Memo::new(move |_| {",
            "let tax = AsyncMemo::new(move |prev: Option<&u64>| {",
            "let rounded = Memo::with_comparer(",
            "let weight = order.select(move |o| {",
            "Effect::new(move || {",
        ] {
            assert!(only_opens(opener), "{opener}");
        }
        for code in [
            "let total = Memo::new(move |_| a.get() + b.get());",
            "Memo::new(move |_| split_evenly(total.get(), guests.get()))",
            "let rounded = Memo::with_comparer(move |_| sub.get(), |a, b| a == b);",
            "let x = compute(a, b);",
            "if a > b {",
            "match previous {",
        ] {
            assert!(!only_opens(code), "{code}");
        }
    }
}
