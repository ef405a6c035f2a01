//! The memos a keyed collection makes per row: the lines that make the value of the one that moved latest.

use super::*;

/// How many value lines of a row's memo [`row_memos`] quotes.
pub(super) const ROW_MEMO_LINES: usize = 3;

/// How many `let`s that bound the arguments of a template of a row memo's text ([`template::lines`]) [`row_memos`]
/// quotes, after the lines its run recorded.
pub(super) const ROW_TEMPLATE_LINES: usize = 1;

/// The rank of [`row_memos`]' finding: before what wrote the rows (their items are the memos' input).
pub(super) const ROW_MEMO_RANK: u32 = 800;

/// The rank of [`row_memos`]' finding when a line of the row's memo reads as a slip: before a cutoff that stopped
/// the change (the rows' values, wrong in every run, are what the node shows).
pub(super) const ROW_SMELL_RANK: u32 = 995;

/// Memos the explained node reads that one line made several times (a keyed collection's row memos, each row's made
/// by the same factory): the node's body shows how it combines them, not how each is computed, so the lines that
/// make the value of the one that moved latest are quoted (`left / plan.per_tray` in the factory's `Memo::new`): what
/// its run recorded, then the `let`s its text's templates read, then the lines its value is made of.
pub(super) fn row_memos(ctx: &Ctx<'_>, me: &NodeRecord, found: &mut Vec<Finding>) {
    let rows: Vec<&NodeRecord> = me
        .sources
        .iter()
        .copied()
        .chain(collection_row_memos(ctx, me))
        .filter_map(|s| ctx.rec(s))
        .filter(|r| r.kind == NodeKind::Memo && r.runs > 0 && r.site != me.site && !ctx.reads_model_alone(r))
        .collect();
    // a keyed collection's row memo is one even when the collection holds one row (`pupils[Ada]/average`)
    let row_memo = |r: &NodeRecord| {
        let name = ctx.name(r.id).name;
        name.find('[').is_some_and(|open| name[open..].contains("]/"))
    };
    let Some(latest) = rows
        .iter()
        .filter(|r| row_memo(r) || rows.iter().filter(|o| o.site == r.site).count() >= 2)
        .max_by_key(|r| r.last_moved)
    else {
        return;
    };
    let file = latest.site.file();
    let Some(index) = source::index(file) else { return };
    let Some(closure) = index
        .call_at(latest.site.line(), latest.site.column())
        .and_then(|c| c.closure.clone())
    else {
        return;
    };
    let lines = &index.lines;
    // what its latest run took, when `#[node]` recorded it (`Status::Dirty => ..`), then the lines that make its
    // value, the tail first (an early `return` only guards it)
    let ran = ctx.tracer.branches_of(latest.id);
    // a line of the factory's closure that reads as a slip whatever the app ([`smell::smells`]: `booked / capacity
    // * 100`) made every row's value the wrong way: first, and the finding before a cutoff the rows fed
    let smelly: Vec<SourceLine> = smell::smells(file, &index, closure.body)
        .into_iter()
        .map(|i| numbered(file, &index.lines, i))
        .collect();
    let rank = if smelly.is_empty() { ROW_MEMO_RANK } else { ROW_SMELL_RANK };
    let mut quoted: Vec<SourceLine> = smelly;
    // the closure's own branch that ran first (`Some(party) => charge(kind, party.adults, party.adults),`: which
    // case the row is in, and what it handed the helpers), then the helpers' lines, innermost first
    let own: Vec<crate::trace::log::Ran> = ran
        .iter()
        .filter(|r| r.file == file && closure.body.contains(r.line))
        .cloned()
        .collect();
    for l in ran_lines(&own, false, 1).into_iter().chain(ran_lines(&ran, false, ROW_MEMO_LINES)) {
        if quoted.len() < ROW_MEMO_LINES && !quoted.iter().any(|q| q.site == l.site) {
            quoted.push(l);
        }
    }
    // after what ran, the `let` a template of the value's text read (`let per_tree = kg / rows;` for
    // `{per_tree:.1} kg a tree`), one line past the limit
    if let Some(value) = ctx.value(latest.id) {
        // the guards of arms are what ran already or are not known; a one-line `let` computed the part, unless it
        // only words another text (a `let` that opens an `if` or a `match` is what its branches, recorded, say)
        let lets = template::lines(latest, &value, &[])
            .into_iter()
            .filter(|&i| one_name_let(&lines[i]).is_some_and(|(_, value)| !value.trim_start().starts_with("format!(")));
        for i in lets.take(ROW_TEMPLATE_LINES) {
            let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
            if quoted.len() < ROW_MEMO_LINES + 1 && !quoted.iter().any(|q| q.site.file == file && q.site.line == at) {
                quoted.push(numbered(file, lines, i));
            }
        }
    }
    let mut picked: Vec<usize> = closure
        .value
        .iter()
        .flat_map(|v| deciding_lines(lines, v))
        .filter(|i| closure.body.contains(u32::try_from(i + 1).unwrap_or(u32::MAX)) && is_code(&lines[*i]))
        .collect();
    picked.reverse();
    picked.dedup();
    // with what its run took recorded, a line in an arm or a block that did not run made nothing of this value
    if !own.is_empty() {
        let recorded: HashSet<(&str, u32)> = ran.iter().map(|r| (r.file, r.line)).collect();
        picked.retain(|i| !not_taken(&index, closure.body, file, &recorded, u32::try_from(i + 1).unwrap_or(u32::MAX)));
    }
    // the closure's value line when it calls a helper whose lines are quoted (`night_charge(kind, night, adults,
    // party.adults, dogs)`): what the row handed the helper, right after the closure's own branch
    if let Some(&i) = picked.first() {
        let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let calls_a_helper = entered_fns(&ran).iter().any(|f| mentions(code_part(&lines[i]), &f.def().name));
        if calls_a_helper && !quoted.iter().any(|q| q.site.file == file && q.site.line == at) {
            let after_own = quoted.iter().take_while(|q| q.site.file == file && closure.body.contains(q.site.line)).count();
            quoted.insert(after_own.min(quoted.len()), numbered(file, lines, i));
        }
    }
    for &i in &picked {
        let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if quoted.len() < ROW_MEMO_LINES && !quoted.iter().any(|q| q.site.file == file && q.site.line == at) {
            quoted.push(numbered(file, lines, i));
        }
    }
    // a value made as a struct literal from locals (`RoomUse { share, .. }`): the first `let` that computed a field
    // with arithmetic (`let share = seated / seats * 100;`), second, one line past the limit: the helpers' lines
    // make the other fields
    if let Some(line) = literal_field_let(file, lines, closure.body, &picked)
        && !quoted.iter().any(|q| q.site == line.site)
    {
        quoted.insert(1.min(quoted.len()), line);
    }
    let mut quoted = quoted.into_iter();
    let Some(at) = quoted.next() else { return };
    let mut text = ctx.name(latest.id).to_string();
    if let Some(v) = short_value(ctx, latest.id) {
        let _ = write!(text, " = {v}");
    }
    text.push_str(", one of the memos each row makes, from");
    let mut finding = Finding::new(FindingKind::Ran, rank, text, Some(at));
    finding.more = quoted.collect();
    found.push(finding);
}

/// Of the value lines `picked` (0-based) of a closure whose body is `body`: the first that opens a struct literal (on
/// it or below it, `RoomUse {`) setting a field from a local, whose `let` computed it with arithmetic: that `let`.
fn literal_field_let(file: &'static str, lines: &[String], body: source::Lines, picked: &[usize]) -> Option<SourceLine> {
    let from = body.first as usize - 1;
    let end = (body.last as usize).min(lines.len());
    picked.iter().find_map(|&i| {
        let open = (i..end).find(|&l| code_part(&lines[l]).trim_end().ends_with('{'))?;
        let l = computed_fields(lines, from, u32::try_from(open + 1).unwrap_or(u32::MAX)).next()?;
        Some(numbered(file, lines, l))
    })
}

/// When `me` is a keyed collection (made by a `Collection::keyed(..)` call) whose factory is written inline, the
/// memos its rows made within the call (`orders[1]/price`): what it shows of each row besides the item, so the lines
/// that make them are what it holds. (A factory fn named in the call is followed by the node's body, through the
/// call.) Empty for any other node.
fn collection_row_memos(ctx: &Ctx<'_>, me: &NodeRecord) -> Vec<NodeId> {
    if !made_by_keyed(me) {
        return Vec::new();
    }
    // the `Collection::keyed(..)` call's lines: a factory written inline makes its rows' memos within them
    let Some(call) = source::index(me.site.file())
        .and_then(|index| index.call_at(me.site.line(), me.site.column()).map(|c| c.whole))
    else {
        return Vec::new();
    };
    let prefix = format!("{}[", ctx.name(me.id).name);
    ctx.ids()
        .iter()
        .copied()
        .filter(|id| {
            ctx.rec(*id).is_some_and(|r| {
                r.kind == NodeKind::Memo
                    && r.runs > 0
                    && r.site.file() == me.site.file()
                    && call.contains(r.site.line())
            }) && ctx.name(*id).name.strip_prefix(&prefix).is_some_and(|rest| rest.contains("]/"))
        })
        .collect()
}

/// Whether `r` was made by a `Collection::keyed(..)` call (its creation line holds one): a keyed collection's node.
pub(super) fn made_by_keyed(r: &NodeRecord) -> bool {
    names::line_text(r.site.file(), r.site.line()).is_some_and(|l| code_part(&l).contains("::keyed("))
}
