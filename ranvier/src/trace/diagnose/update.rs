//! What a message's `update` did: the arm that handled each message in the cone (`update:`), or what it ran when
//! `#[trace_fn]` recorded it (`ran: message ..`), ranked against the node's own findings.

use super::*;

/// `recorded` led by `first` (each quoted once), then cut to `max` lines.
fn lead_with(recorded: &mut Vec<SourceLine>, first: Vec<SourceLine>, max: usize) {
    recorded.retain(|l| !first.iter().any(|f| f.site == l.site));
    recorded.splice(0..0, first);
    recorded.truncate(max);
}

/// The arm of an `Mvu`'s `update` that handled the latest message, and the arms of the messages that last moved the
/// selects in the cone: where a message that moved the model wrongly (or did not move it) is handled. Found in the
/// source file the `Mvu` was made in: inside the `update` function the `Mvu` was given, when it is a named function,
/// else the arm written nearest below where the `Mvu` was made; when the source can be read. A message a memo or
/// effect dispatched also names who dispatched it, with the lines above the dispatch.
pub(super) fn update_arms(
    ctx: &Ctx<'_>,
    me: &NodeRecord,
    cone: &[(NodeId, u32)],
    in_cone: &HashSet<NodeId>,
    found: &mut Vec<Finding>,
) {
    let latest = ctx.tracer.last_message();
    // each message, with the hops to the nearest select in the cone it last moved
    let mut messages: Vec<(u64, u32)> = vec![(latest, 9)];
    // the latest message was a command: the messages whose `update` sent it, outermost last (the one the program
    // or a client dispatched chose the commands that followed)
    let mut senders: Vec<u64> = Vec::new();
    let mut at = latest;
    while let Some(cause) = ctx
        .tracer
        .kept_message(at)
        .map(|m| m.cause)
        .filter(|c| *c != 0 && senders.len() < 8)
    {
        senders.push(cause);
        messages.push((cause, 9));
        at = cause;
    }
    for &(n, depth) in cone {
        let Some(r) = ctx.rec(n) else { continue };
        if depth > 3 || r.kind != NodeKind::Memo || r.last_moved == 0 || !ctx.reads_model_alone(r) {
            continue;
        }
        // the innermost message behind the move: a message a memo or effect dispatched inside another is the one
        // whose arm wrote
        let (steps, root) = ctx.chain(r.last_moved);
        let innermost = steps
            .iter()
            .find(|e| matches!(e.kind, EventKind::Message { .. }))
            .map(|e| e.seq)
            .or(match root {
                WhyRoot::Message { seq, .. } => Some(seq),
                _ => None,
            });
        if let Some(seq) = innermost {
            match messages.iter_mut().find(|(m, _)| *m == seq) {
                Some(entry) => entry.1 = entry.1.min(depth),
                None => messages.push((seq, depth)),
            }
        }
    }
    let refused = refused_message(ctx, in_cone, &messages);
    messages.extend(refused.map(|m| (m, 9)));
    // the fields the cone's code reads, found once when a message needs them
    let mut cone_fields: Option<HashSet<String>> = None;
    // the variants of the messages looked at: a `match` naming one matches on messages
    let variants: HashSet<String> = messages
        .iter()
        .filter_map(|(m, _)| match ctx.event(*m).map(|e| e.kind) {
            Some(EventKind::Message { name, .. }) => Some(variant_of(&name)),
            _ => None,
        })
        .collect();
    // the messages that have a finding of their own (when their lines are found)
    let listed: Vec<u64> = messages.iter().map(|m| m.0).collect();
    for (message, depth) in messages {
        let Some(EventKind::Message { name, target, .. }) = ctx.event(message).map(|e| e.kind)
        else {
            continue;
        };
        if !in_cone.contains(&target) {
            continue;
        }
        let Some(model) = ctx.rec(target) else {
            continue;
        };
        let commands = ctx.tracer.kept_message(message).and_then(|m| m.commands);
        // what `#[trace_fn]` recorded while its `update` ran, when it did: the fns that ran, resolved at run time
        // (the latest message's at most RAN_LINES lines, an earlier one's at most RAN_FN_LINES)
        let max = if message == latest {
            RAN_LINES
        } else {
            RAN_FN_LINES
        };
        // an `update` that sent commands: the branches that chose them first, with more lines
        let sent_commands = commands.is_some_and(|n| n > 0);
        let ran = ctx.tracer.ran_for_message(message);
        let read = cone_fields.get_or_insert_with(|| fields_read_within(ctx, cone, u32::MAX, CONE_FIELDS_NODES));
        let feeding = fns_feeding(&ran, read);
        // an `update` that left the model as it was wrote nothing: the branches that kept it from writing first
        let left = message == latest && model.last_moved <= message;
        let mut recorded = ran_lines_ordered(
            &ran,
            true,
            sent_commands || left,
            &feeding,
            if sent_commands { RAN_LINES } else { max },
        );
        // an `update` that sent no command, after which the explained node did not move: a branch that ran and gave
        // an empty list of commands, in a fn that builds them elsewhere, first (one may be missing there)
        if commands == Some(0) && me.last_moved < message {
            lead_with(&mut recorded, empty_commands_chosen(&ran), max);
            // or a filter whose predicate, a fn the helper was given, let no item through
            lead_with(&mut recorded, filtered_out_by_predicate(&ran), RAN_LINES);
        }
        if let Some(kept) = ctx.tracer.kept_message(message) {
            // an `update` whose records show a branch on the message's arguments that would have sent a command it
            // did not send, after which the explained node did not move: that branch's condition and its command,
            // first
            if commands.is_some() && (message == latest || senders.contains(&message)) && me.last_moved < message {
                let sent: Vec<String> =
                    ctx.tracer.commands_of(message).into_iter().map(|m| m.name.to_string()).collect();
                let unchosen = commands_not_chosen(&ran, &sent, &arg_names(&kept.args));
                let max = recorded.len().max(max) + unchosen.len();
                lead_with(&mut recorded, unchosen, max);
            }
            // a field the message set to one of its own arguments where it held another number: the plain
            // assignment in a fn it entered that wrote it, first (an overwrite where an addition was meant)
            let overwrites = overwritten_by_argument(ctx, message, &kept.args, &ran);
            let max = recorded.len().max(max) + overwrites.len();
            lead_with(&mut recorded, overwrites, max);
        }
        // an `update` that sent commands and computed a value the cone reads that it never sent (its line in a
        // branch that did not run): those lines first
        if sent_commands {
            let mut unsent = unsent_values(&ran, read);
            if unsent.is_empty() {
                unsent = told_only(&ran, read);
            }
            if !unsent.is_empty() {
                lead_with(&mut recorded, unsent, RAN_LINES);
            }
        }
        // a helper's `match` arm that did not match and would have written a field the cone reads: the pattern that
        // left it out decided the value as much as the arm that ran, first; or, in a loop, an `if` picking the item
        // the helper was given that picked none
        let unwritten = unwritten_arm(&ran, read, &variants).or_else(|| unwritten_if(&ran, read));
        // or an `if` whose condition calls a fn the helper was given, which said no to every item: it and the fn
        let unchosen = if unwritten.is_none() { unchosen_by_predicate(&ran) } else { Vec::new() };
        if !unchosen.is_empty() {
            lead_with(&mut recorded, unchosen, RAN_LINES);
        }
        // an order slip the source shows in what ran (a `let` that copied a field before the write below it, or read
        // it after; an arm that would have written what the cone reads did not match): the message goes first
        let slip = unwritten.is_some() || order_slip(&ran);
        let arm_first = usize::from(unwritten.is_some());
        if let Some(arm) = unwritten {
            recorded.retain(|l| l.site != arm.site);
            recorded.insert(0, arm);
            recorded.truncate(if sent_commands { RAN_LINES } else { max.max(RAN_FN_LINES + 1) });
        }
        // a constant the model was made with, read on a line which ran and is not quoted, that no code writes: the
        // `Default`'s line that set it, first (no quoted line shows where it went), after an arm that did not match
        let defaults = default_only_fields(&ran, model, &recorded);
        for (n, set) in defaults.into_iter().enumerate() {
            if !recorded.iter().any(|l| l.site == set.site) {
                recorded.insert((arm_first + n).min(recorded.len()), set);
            }
        }
        // a loop the `update` reached whose body never ran: its lines did not, and a range's `for` line says so
        loops::not_entered(&ctx.tracer.loops_for_message(message), &mut recorded);
        // a default it took, first
        super::defaulted::defaults_first(&ctx.tracer.defaults_for_message(message), &mut recorded);
        let renamed = ctx
            .tracer
            .kept_message(message)
            .is_some_and(|kept| literal_fields(&mut recorded, read, &arg_names(&kept.args)));
        literal_lets(&mut recorded, read);
        let arm_found = if recorded.is_empty() {
            locate_arm(&name, model, commands.is_some())
        } else {
            None
        };
        if recorded.is_empty() && arm_found.is_none() {
            continue;
        }
        // a command (a message another one's `update` sent) that wrote only fields no node of the cone reads (a
        // notice, a log) did not make the value: it is left out, unless it chose commands in turn. A message a
        // client or the program dispatched is kept: one that wrote the wrong field is the mistake
        let is_command = ctx.tracer.kept_message(message).is_some_and(|m| m.cause != 0);
        if is_command && !sent_commands {
            let texts: Vec<&str> = match &arm_found {
                Some((_, lines, arm, _)) => arm.iter().map(|i| lines[*i].as_str()).collect(),
                None => recorded.iter().map(|l| l.text.as_str()).collect(),
            };
            if cone.len() <= CONE_FIELDS_NODES && writes_only_unread(&texts, read) {
                continue;
            }
        }
        // a command: the lines of its sender's `update` that bound what it carries, first
        let sender = ctx.tracer.kept_message(message).map_or(0, |m| m.cause);
        let carried = if sender == 0 || arm_found.is_some() {
            Vec::new()
        } else {
            command::argument_lines(ctx, sender, &name, read)
        };
        recorded.retain(|l| !carried.iter().any(|c| c.site == l.site));
        let carried_any = !carried.is_empty();
        recorded.splice(0..0, carried);
        // the message behind the nearest select first; the latest one breaks ties
        let rank = 400 + near(depth) / 5 + u32::from(message == latest);
        let (mut rank, what) = match (message == latest, model.last_moved > message) {
            // the latest message changed nothing: the arm that handled it is the first suspect (before the body)
            // unless it was a command and the node moved since the message that sent it was dispatched: a sibling
            // command moved it, and this one had nothing to change
            (true, false) if senders.last().is_some_and(|&outer| me.last_moved > outer) => (rank, "left as it was"),
            (true, false) => (700, "left as it was"),
            // the latest message moved the model but not the explained node: the change that should have reached
            // it stopped in what that message ran, before the message behind the node's last move
            (true, true) if me.last_moved < message => (rank.max(400 + near(0) / 5 + 1), "moved"),
            _ => (rank, "moved"),
        };
        // a message its `update` refused: the first suspect of a value that lacks what it would have added
        if refused == Some(message) {
            rank = REFUSED_RANK;
        }
        // a literal's field set from the message's argument of another name: a value carried over between two names
        // (trays recorded as pieces), before the explained node's body
        if renamed {
            rank = rank.max(RENAMED_RANK);
        }
        // the outermost message sent the latest one as a command and the explained node did not move since: which
        // commands its arm chose is the first suspect
        if commands.is_some() && senders.last() == Some(&message) && me.last_moved < message {
            rank = rank.max(650);
        }
        // the latest message was a command this one's update sent: its arm did what the sender chose, so the
        // branches that chose it come first
        if sent_commands && senders.last() == Some(&message) {
            rank = rank.max(402 + near(0) / 5);
        }
        // a command that carried what a sender computed, that sender no finding of its own (a command in the middle
        // of a chain): the carried lines are where the value was worked out, before the outermost sender's choice
        if carried_any && !listed.contains(&sender) {
            rank = rank.max(402 + near(0) / 5 + 1);
        }
        if slip {
            rank = rank.max(SLIP_RANK);
        }
        let mut text = format!(
            "message {name} #{message} {what} {}{}",
            ctx.name(target),
            // the `update:` label says the lines are the arm of `update` that handled it
            if arm_found.is_some() { "" } else { UPDATE_RAN }
        );
        if carried_any && let Some(EventKind::Message { name: by, .. }) = ctx.event(sender).map(|e| e.kind) {
            let _ = write!(text, "; sent by {by} #{sender}");
        }
        if let Some(n) = commands {
            let _ = write!(text, "; commands: {n}");
            let sent = ctx.tracer.commands_of(message);
            if !sent.is_empty() {
                text.push_str(" (");
                for (i, m) in sent.iter().take(COMMANDS_NAMED).enumerate() {
                    if i > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(&m.name);
                }
                if sent.len() > COMMANDS_NAMED {
                    text.push_str(", …");
                }
                text.push(')');
            }
        }
        // the lines that read as a slip in the fns the message ran (by `#[trace_fn]`'s records, or reached by calls
        // that could reach one fn only)
        let mut smelly: HashSet<(&'static str, u32)> = HashSet::new();
        let mut maybe_smelly: HashSet<(&'static str, u32)> = HashSet::new();
        for found in entered_fns(&ran) {
            for i in smell::smells(found.file, &found.index, found.def().whole) {
                smelly.insert((found.file, u32::try_from(i + 1).unwrap_or(u32::MAX)));
            }
        }
        let kind = if arm_found.is_some() {
            FindingKind::Update
        } else {
            FindingKind::Ran
        };
        let mut arm: Box<dyn Iterator<Item = SourceLine>> = match arm_found {
            Some((file, lines, arm, body)) => {
                let mut quoted: Vec<SourceLine> = arm.into_iter().map(|i| numbered(file, &lines, i)).collect();
                // no record of what the message ran (no `#[trace_fn]`): the helpers the arm calls, as if entered,
                // for the latest message and those that sent it as a command
                if ran.is_empty()
                    && (message == latest || senders.contains(&message))
                    && let Some(body) = body
                {
                    let reached = reached::reached(file, body, &ctx.tracer.built_branches());
                    let entered: Vec<crate::trace::log::Ran> = reached.iter().map(|r| r.ran.clone()).collect();
                    let feeding = fns_feeding(&entered, read);
                    // a reached fn's line that reads as a slip (`set_score(fixture, away, home)`): right after the
                    // arm; one of a fn the arm surely reached makes the message the first suspect
                    for r in &reached {
                        let Some(index) = source::index(r.ran.file) else { continue };
                        for i in smell::smells(r.ran.file, &index, r.whole) {
                            let l = numbered(r.ran.file, &index.lines, i);
                            if r.sure {
                                smelly.insert((l.site.file, l.site.line));
                            } else {
                                maybe_smelly.insert((l.site.file, l.site.line));
                            }
                            if !quoted.iter().any(|q| q.site == l.site) {
                                quoted.push(l);
                            }
                        }
                    }
                    // a helper that filled a local it then dropped (`commands.push(Msg::Owe { .. })`, then
                    // `Vec::new()`) lost what it built: first
                    for r in &reached {
                        let Some(index) = source::index(r.ran.file) else { continue };
                        let Some(def) = index.fns.iter().find(|f| f.whole.first == r.ran.line) else { continue };
                        for at in dropped_locals(&index, def).into_iter().flat_map(|(fills, value)| [fills[0], value]) {
                            let l = numbered(r.ran.file, &index.lines, at as usize - 1);
                            if !quoted.iter().any(|q| q.site == l.site) {
                                quoted.push(l);
                            }
                        }
                    }
                    // no command sent: a statement that would have sent one, in a branch, with its condition
                    if commands == Some(0) {
                        let indexes: Vec<_> = reached.iter().filter_map(|r| Some((r.ran.file, source::index(r.ran.file)?, r.whole))).collect();
                        let fns = indexes.iter().map(|(file, index, whole)| (*file, &**index, *whole));
                        for l in unsent_commands(fns) {
                            if !quoted.iter().any(|q| q.site == l.site) {
                                quoted.push(l);
                            }
                        }
                    }
                    // the helpers' writes to the places the message changed ran: first
                    for l in changed_writes(ctx, message, &reached, read) {
                        if !quoted.iter().any(|q| q.site == l.site) {
                            quoted.push(l);
                        }
                    }
                    for l in ran_lines_of(&entered, true, sent_commands, &feeding, REACHED_LINES, true) {
                        // each helper's line with the call that gave it its arguments
                        let call = reached::Reached::call_of(&reached, l.site.file, l.site.line);
                        for l in std::iter::once(l).chain(call.and_then(|(file, at)| {
                            let lines = source::index(file)?.lines.clone();
                            Some(numbered(file, &lines, at as usize - 1))
                        })) {
                            if !quoted.iter().any(|q| q.site == l.site) {
                                quoted.push(l);
                            }
                        }
                    }
                }
                Box::new(quoted.into_iter())
            }
            None => Box::new(recorded.into_iter()),
        };
        let mut finding = Finding::new(kind, rank, String::new(), arm.next());
        finding.more = arm.collect();
        // a line that reads as a slip whatever the app (`taken = take;` in a loop that adds up `taken`), in a fn the
        // message ran: the message is the first suspect
        if finding.at.iter().chain(&finding.more).any(|l| smelly.contains(&(l.site.file, l.site.line))) {
            finding.rank = finding.rank.max(SMELL_RANK);
        } else if finding.at.iter().chain(&finding.more).any(|l| maybe_smelly.contains(&(l.site.file, l.site.line))) {
            finding.rank = finding.rank.max(MAYBE_SMELL_RANK);
        }
        if let Some((by, site)) = ctx.tracer.dispatched_by(message) {
            let _ = write!(
                text,
                "; {} dispatched it at {}",
                ctx.name(by),
                Site::of(site)
            );
            if let Some(dispatcher) = ctx.rec(by) {
                finding
                    .more
                    .extend(lines_above(dispatcher, site, DISPATCH_CONTEXT_LINES));
            }
            finding.more.push(line(site));
        }
        finding.text = text;
        found.push(finding);
    }
}
/// The rank of a message's finding that quotes a line reading as a slip whatever the app ([`smell::smells`]): above
/// an order slip, below what the node itself read or wrote.
pub(super) const SMELL_RANK: u32 = 800;

/// The rank of a message's finding that quotes such a line in a fn the message may have run (one of the fns a field
/// holding a fn was given): below the findings that go before the node's own lines.
pub(super) const MAYBE_SMELL_RANK: u32 = 650;

/// The rank of a message's finding whose `update` shows a slip in the order of its statements or arms: above a
/// row its collection wrote (`written:`, 700 and its nearness), below what the node itself read or wrote.
pub(super) const SLIP_RANK: u32 = 790;

/// Whether a fn `ran` entered (in an `update`) holds, in lines that ran, a `let` that read a field just assigned
/// ([`read_after_write`]). (A `let` that copied a field before the line below assigned it is not one: that is how an
/// id is taken from a counter.)
pub(super) fn order_slip(ran: &[crate::trace::log::Ran]) -> bool {
    let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
    entered_fns(ran).iter().any(|found| {
        let (index, def, file) = (&found.index, found.def(), found.file);
        let ran_there = |at: u32| !not_taken(index, def.whole, file, &recorded, at);
        read_after_write(&index.lines, def.whole)
            .into_iter()
            .any(|(a, b)| ran_there(a) && ran_there(b))
    })
}

/// A cone of at most this many nodes is read for the fields it reads, to leave out messages that wrote none of them.
pub(super) const CONE_FIELDS_NODES: usize = 64;

/// Whether the `update` lines `texts` write state, and every line that does writes only fields named outside `read`:
/// `next.notices.push(text)` writes `notices`, `visit.called = Some(now)` writes `called`. A line that writes
/// through a `&mut` hand-off or names no field counts as writing what is read.
pub(super) fn writes_only_unread(texts: &[&str], read: &HashSet<String>) -> bool {
    let mut wrote = false;
    for text in texts {
        let code = code_part(text);
        if !writes_line(code) {
            continue;
        }
        if code.contains("&mut ") {
            return false;
        }
        // the place written: before the assignment or the mutating call
        let place = match (assignment_at(code), mutating_call_at(code)) {
            (Some(i), _) => &code[..i],
            (None, Some(i)) => &code[..i + 1],
            (None, None) => return false,
        };
        // after a match arm's `=>`, the place alone
        let place = place.rsplit("=>").next().unwrap_or(place);
        let fields: Vec<&str> = place
            .match_indices('.')
            .map(|(i, _)| {
                let rest = &place[i + 1..];
                let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
                &rest[..end]
            })
            .filter(|f| !f.is_empty() && !f.starts_with(|c: char| c.is_ascii_digit()))
            .collect();
        if fields.is_empty() || fields.iter().any(|f| read.contains(*f)) {
            return false;
        }
        wrote = true;
    }
    wrote
}

/// How many of the commands a message's `update` sent an `update:` finding names.
pub(super) const COMMANDS_NAMED: usize = 4;

/// How many lines above a dispatch by a memo or effect an `update:` finding quotes.
pub(super) const DISPATCH_CONTEXT_LINES: usize = 6;

/// An `update` arm: its file, the file's lines, the line indexes to quote, and its body (`None` for an `update`
/// closure without a `match`, quoted by its value).
pub(super) type ArmFound = (&'static str, Arc<[String]>, Vec<usize>, Option<source::Lines>);

/// The arm of `model`'s `update` handling `message`, in whichever file of the crate it is: inside the named
/// `update` function the `Mvu` was made with (resolved through the crate's module tree), else the arm naming the
/// message's variant nearest below where the `Mvu` was made, else the first in the crate. Its file, the file's lines
/// and the arm's line indexes (0-based: the `=>` line, then the lines of its body that change state).
pub(super) fn locate_arm(message: &str, model: &NodeRecord, commands: bool) -> Option<ArmFound> {
    let variant = variant_of(message);
    if variant.is_empty() {
        return None;
    }
    let home = model.site.file();
    let arms = source::arms_naming(home, &variant);
    let named = model
        .update_fn
        .filter(|name| !name.contains('{') && !name.contains('(') && !name.contains('<'));
    // `type_name` spells the crate first: `shop::rules::update`
    let in_update = named
        .and_then(|path| {
            let segments: Vec<String> = path.split("::").skip(1).map(str::to_owned).collect();
            source::resolve_fn(home, model.site.line(), &segments)
        })
        .and_then(|update| {
            arms.iter().find(|(file, index, i)| {
                *file == update.file
                    && index.arms[*i].in_fn.is_some_and(|f| {
                        f == update.at || update.def().whole.holds(index.fns[f].whole)
                    })
            })
        });
    let near = model.site.line();
    // an `update` closure written in the `Mvu::new` call: its own arms first
    let closure = source::index(home).and_then(|index| {
        let closure = index
            .call_at(model.site.line(), model.site.column())?
            .closure
            .clone()?;
        Some((index, closure))
    });
    let own = closure.as_ref().and_then(|(_, closure)| {
        arms.iter().find(|(file, index, i)| {
            *file == home && (closure.body.first..=closure.body.last).contains(&index.arms[*i].arrow)
        })
    });
    // an `update` closure that calls the app's `update` fn (`move |msg, r| update::update(&rules, msg, r)`): that
    // fn's arms
    let called = closure.as_ref().filter(|_| own.is_none()).and_then(|(index, closure)| {
        index
            .calls
            .iter()
            .filter(|c| closure.body.holds(c.whole) && !c.path.is_empty() && c.method.is_none())
            .filter_map(|c| source::resolve_fn(home, c.line, &c.path))
            .find_map(|update| {
                arms.iter().find(|(file, index, i)| {
                    *file == update.file
                        && index.arms[*i].in_fn.is_some_and(|f| {
                            f == update.at || update.def().whole.holds(index.fns[f].whole)
                        })
                })
            })
    });
    // an arm in another file only when one file holds them all: two `update`s with a variant of that name
    // elsewhere leave no way to tell whose it is
    let elsewhere = arms
        .first()
        .filter(|(first, _, _)| arms.iter().all(|(file, _, _)| file == first));
    let found = in_update
        .or(own)
        .or(called)
        .or_else(|| {
            arms.iter().find(|(file, index, i)| {
                *file == home && (near..=near + NEAR_ARM_LINES).contains(&index.arms[*i].arrow)
            })
        })
        .or_else(|| arms.iter().find(|(file, _, _)| *file == home))
        .or(elsewhere);
    let Some((file, index, at)) = found else {
        // no arm: an `update` closure without a `match` is quoted by the lines that make its value
        let (index, closure) = closure?;
        let lines: Vec<usize> = closure
            .value
            .iter()
            .flat_map(|l| l.first as usize - 1..l.last as usize)
            .filter(|i| is_code(&index.lines[*i]))
            .take(ARM_LINES)
            .collect();
        return (!lines.is_empty()).then(|| (home, index.lines.clone(), lines, None));
    };
    let arm = &index.arms[*at];
    let picked = if commands {
        command_lines(index, arm)
    } else {
        arm_lines(index, arm)
    };
    Some((file, index.lines.clone(), picked, Some(arm.body)))
}

/// The variant a message's wire name stands for: `set_quantity` → `SetQuantity` (a name already in camel case is
/// kept).
pub(in crate::trace) fn variant_of(name: &str) -> String {
    name.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut chars = w.chars();
            chars
                .next()
                .map(|c| c.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

/// The line (1-based) of the `match` whose arm line `at` stands in, within the fn starting at `first`: the nearest
/// line above, indented less, that holds `match `; none when a less indented line above is not one (the arm is not
/// the innermost block).
fn match_above(lines: &[String], first: u32, at: u32) -> Option<u32> {
    for l in enclosing(lines, first as usize - 1, at as usize - 1) {
        let code = source::code_of(&lines[l]);
        if code.contains("match ") {
            return u32::try_from(l + 1).ok();
        }
        // an arm's pattern between: keep going up to its `match`
        if !code.contains("=>") {
            return None;
        }
    }
    None
}

/// How many writes [`changed_writes`] quotes.
const CHANGED_WRITES: usize = 2;

/// The lines of the fns an arm reached ([`reached::reached`]) that write a place whose field message `seq` changed
/// in the model (its `Debug` text before and after the `update`, as the trace kept them): with no record of the
/// branches, a write to a field that changed is one that ran. A write whose template could have made a text the
/// model did not hold before (`push(format!("{who} refused: {why}"))` for `"08:30 Gondola: #1 Ada refused: .."`)
/// first, with the `match` that chose its arm; then a field the cone reads (`read`), then the deepest change
/// (`alarms[0].escalated` before `now`, which every tick moves); one write a fn, at most [`CHANGED_WRITES`].
fn changed_writes(ctx: &Ctx<'_>, seq: u64, reached: &[reached::Reached], read: &HashSet<String>) -> Vec<SourceLine> {
    let Some((before, after)) = ctx.tracer.model_change(seq) else { return Vec::new() };
    // each field the change went through, with the depth of the deepest change through it
    let mut changed: HashMap<String, usize> = HashMap::new();
    for d in crate::trace::debug_diff::differences(&before, &after, 16) {
        let fields: Vec<&str> = crate::trace::debug_diff::path_fields(&d.path).collect();
        for f in &fields {
            let depth = changed.entry((*f).to_owned()).or_default();
            *depth = (*depth).max(fields.len());
        }
    }
    let new_texts: Vec<String> = {
        let old = template::debug_strings(&before);
        template::debug_strings(&after).into_iter().filter(|t| !old.contains(t)).collect()
    };
    let mut found: Vec<((bool, bool, usize), Vec<SourceLine>)> = Vec::new();
    for r in reached {
        let Some(index) = source::index(r.ran.file) else { continue };
        // the write's statement (its line and the few after it, up to the `;` or `,` that ends it) holds a
        // template that made a new text
        let makes_new = |at: u32| {
            let mut code = String::new();
            for l in (at..r.whole.last).take(4) {
                let line = source::code_of(&index.lines[l as usize - 1]);
                code.push_str(line);
                code.push(' ');
                if line.trim_end().ends_with([';', ',', '{']) {
                    break;
                }
            }
            !new_texts.is_empty() && template::makes_any(&code, &new_texts)
        };
        let mut best: Option<((bool, bool, usize), u32)> = None;
        for at in r.whole.first + 1..r.whole.last {
            let code = source::code_of(&index.lines[at as usize - 1]);
            if !changes_state(code) || reached::diverges(r.ran.file, &index, at) {
                continue;
            }
            let Some(end) = write_end(code) else { continue };
            let depth = code[..end]
                .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
                .find(|w| !w.is_empty())
                .and_then(|field| Some((makes_new(at), read.contains(field), *changed.get(field)?)));
            if let Some(depth) = depth
                && best.is_none_or(|(d, _)| depth > d)
            {
                best = Some((depth, at));
            }
        }
        if let Some((depth, at)) = best {
            let mut lines = vec![numbered(r.ran.file, &index.lines, at as usize - 1)];
            // the text it made was chosen by the `match` whose arm it stands in
            if depth.0
                && let Some(m) = match_above(&index.lines, r.whole.first, at)
            {
                lines.push(numbered(r.ran.file, &index.lines, m as usize - 1));
            }
            found.push((depth, lines));
        }
    }
    found.sort_by_key(|(depth, _)| std::cmp::Reverse(*depth));
    found.into_iter().take(CHANGED_WRITES).flat_map(|(_, l)| l).collect()
}

/// The line of a plain assignment (`event.paid = amount;`), in a fn the message `seq` entered (`ran`), of a field the
/// message changed from one number to another that equals one of its arguments (`args`, as it was dispatched): the
/// field was set to the argument, not added to. At most one.
fn overwritten_by_argument(ctx: &Ctx<'_>, seq: u64, args: &str, ran: &[crate::trace::log::Ran]) -> Vec<SourceLine> {
    let Some((before, after)) = ctx.tracer.model_change(seq) else { return Vec::new() };
    // the arguments given as numbers (`"amount":20000`)
    let numbers: Vec<(String, String)> = arg_names(args)
        .into_iter()
        .filter_map(|name| {
            let (_, rest) = args.split_once(&format!("\"{name}\":"))?;
            let value = rest.split([',', '}']).next()?.trim();
            value.parse::<f64>().is_ok().then(|| (name, value.to_owned()))
        })
        .collect();
    for d in crate::trace::debug_diff::differences(&before, &after, 16) {
        let was_number = d.before.parse::<f64>().is_ok_and(|n| n != 0.0);
        let Some((arg, _)) = numbers.iter().find(|(_, v)| *v == d.after) else { continue };
        let Some(field) = crate::trace::debug_diff::path_fields(&d.path).last() else { continue };
        if !was_number {
            continue;
        }
        for found in entered_fns(ran) {
            let whole = found.def().whole;
            for at in whole.first..=whole.last {
                let code = code_part(&found.index.lines[at as usize - 1]).trim();
                let Some((place, value)) = code.split_once(" = ") else { continue };
                let plain = !place.ends_with(['+', '-', '*', '/', '<', '>', '!', '=']) && !place.starts_with("let ");
                if plain && place.ends_with(&format!(".{field}")) && value.trim_end_matches(';').trim() == arg {
                    return vec![numbered(found.file, &found.index.lines, at as usize - 1)];
                }
            }
        }
    }
    Vec::new()
}
