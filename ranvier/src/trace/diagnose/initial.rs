//! Values nobody changed: signals never written (`initial:`) and the parts of an `Mvu`'s model no message moved,
//! quoted where the model was made.

use super::*;

/// Signals in the cone (other than models) that were never written: they hold the value they were made with.
pub(super) fn initial_values(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], found: &mut Vec<Finding>) {
    for &(n, depth) in cone.iter().skip(1) {
        let Some(r) = ctx.rec(n) else { continue };
        if r.kind != NodeKind::Signal || r.is_model || r.last_write != 0 {
            continue;
        }
        let mut text = ctx.name(n).to_string();
        if let Some(v) = short_value(ctx, n) {
            let _ = write!(text, " = {v}");
        }
        text.push_str(": never written since it was made");
        found.push(Finding::new(
            FindingKind::Initial,
            200 + near(depth) / 10,
            text,
            Some(line(r.site)),
        ));
    }
}

/// How many selects of the model `initial_model_parts` looks at.
pub(super) const INITIAL_SELECTS: usize = 8;

/// How many lines of a hand-written `default` fn an `initial:` finding of the model quotes.
pub(super) const DEFAULT_LINES: usize = 4;

/// Selects of an `Mvu`'s model whose value has not moved since before the model's first message: no message changed
/// the part they select, so it is the initial model's. Quotes where the fn that made the `Mvu` sets that field
/// (`tariff: FirstTariff::default().0,`) and, when that calls a hand-written `Default` (`X::default()`), that
/// `default` fn's lines: a wrong constant there is where such a value comes from.
pub(super) fn initial_model_parts(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], found: &mut Vec<Finding>) {
    let selects = cone.iter().skip(1).filter(|&&(n, depth)| {
        depth <= 4
            && ctx
                .rec(n)
                .is_some_and(|r| r.kind == NodeKind::Memo && r.last_moved != 0 && ctx.reads_model_alone(r))
    });
    // a few, nearest first: a cone of thousands of selects must not make the answer walk them all
    for &(n, depth) in selects.take(INITIAL_SELECTS) {
        let Some(r) = ctx.rec(n) else { continue };
        let model_id = r.sources[0];
        if ctx.tracer.first_message_to(model_id).is_none() {
            continue;
        }
        // its latest move came from no message: the part it selects is as the model was made
        let (steps, root) = ctx.chain(r.last_moved);
        if matches!(root, WhyRoot::Message { .. })
            || steps.iter().any(|e| matches!(e.kind, EventKind::Message { .. }))
        {
            continue;
        }
        let Some(model) = ctx.rec(model_id) else { continue };
        let Some(field) = selected_field(r) else { continue };
        let Some((file, index, at)) = field_set_at(model, &field) else {
            continue;
        };
        let text = format!(
            "{}: no message changed it; {} was made with this `{field}`",
            ctx.name(n),
            ctx.name(model_id)
        );
        let mut finding = Finding::new(
            FindingKind::Initial,
            430 + near(depth) / 5,
            text,
            Some(numbered(file, &index.lines, at)),
        );
        // `X::default()` with a hand-written `impl Default for X`: its lines
        let code = code_part(&index.lines[at]);
        if let Some(type_name) = default_called(code)
            && let Some(def) = source::impl_fn(file, &type_name, "Default", "default")
        {
            let lines = &def.index.lines;
            let whole = def.def().whole;
            let fields: Vec<usize> = (whole.first as usize..whole.last as usize - 1)
                .filter(|&i| is_code(&lines[i]) && code_part(&lines[i]).contains(':'))
                .collect();
            // the fields the nodes near the explained one read (`tariff.storage_cents_per_hour`) first
            let read = fields_read_near(ctx, cone);
            let is_read = |i: &usize| {
                let name = code_part(&lines[*i]).trim_start();
                let name: String = name.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                !name.is_empty() && read.contains(&name)
            };
            let mut order: Vec<usize> = fields.iter().copied().filter(is_read).collect();
            order.extend(fields.iter().copied().filter(|i| !is_read(i)));
            order.truncate(DEFAULT_LINES);
            order.sort_unstable();
            finding
                .more
                .extend(order.into_iter().map(|i| numbered(def.file, lines, i)));
        }
        found.push(finding);
    }
}

/// The names read as fields (`.name`) in the bodies of the explained node and the nodes one or two hops upstream
/// (at most a few dozen nodes).
pub(super) fn fields_read_near(ctx: &Ctx<'_>, cone: &[(NodeId, u32)]) -> HashSet<String> {
    fields_read_within(ctx, cone, 2, 32)
}

/// The field names the code of the nodes of `cone` at most `depth` hops away reads (`.name`, as
/// [`fields_read_near`]), over the first `max` such nodes.
pub(super) fn fields_read_within(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], depth: u32, max: usize) -> HashSet<String> {
    let mut out = HashSet::new();
    for &(n, _) in cone.iter().filter(|(_, d)| *d <= depth).take(max) {
        let Some(r) = ctx.rec(n) else { continue };
        let Some(index) = source::index(r.site.file()) else { continue };
        let Some(call) = index.call_at(r.site.line(), r.site.column()) else {
            continue;
        };
        // the call's own lines, and the body of a fn it is given (`move |row| fee(row, ..)` reaches `fee`)
        let mut spans = vec![call.whole];
        for path in &call.fn_args {
            if let Some(found) = source::resolve_fn(r.site.file(), r.site.line(), path) {
                spans.push(found.def().whole);
            }
        }
        if let Some(closure) = &call.closure {
            spans.push(closure.body);
        }
        for span in spans {
            for line in (span.first..=span.last).filter_map(|l| index.lines.get(l as usize - 1)) {
                let code = code_part(line);
                for (at, _) in code.match_indices('.') {
                    let name: String = code[at + 1..]
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() {
                        out.insert(name);
                    }
                }
            }
        }
    }
    out
}

/// The field of the model a select's closure reads (`|p| p.tariff.clone()` → `tariff`): the first `param.field`.
pub(super) fn selected_field(r: &NodeRecord) -> Option<String> {
    let index = source::index(r.site.file())?;
    let closure = index.call_at(r.site.line(), r.site.column())?.closure.clone()?;
    let param = closure.param?;
    let body = (closure.body.first..=closure.body.last)
        .filter_map(|l| index.lines.get(l as usize - 1))
        .map(|l| code_part(l))
        .collect::<Vec<_>>()
        .join(" ");
    let at = body.match_indices(&format!("{param}.")).find(|(i, _)| {
        *i == 0 || !body[..*i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
    })?;
    let field: String = body[at.0 + param.len() + 1..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!field.is_empty() && field.starts_with(|c: char| !c.is_ascii_digit())).then_some(field)
}

/// Where the fn that made `model` (an `Mvu`) sets `field` in its initial model: the nearest line above the `Mvu`'s
/// call, in that fn, that writes `field: …` in a struct literal.
pub(super) fn field_set_at(model: &NodeRecord, field: &str) -> Option<(&'static str, Arc<source::Index>, usize)> {
    let file = model.site.file();
    let index = source::index(file)?;
    let line = model.site.line();
    let def = index
        .fns
        .iter()
        .filter(|f| f.whole.contains(line))
        .min_by_key(|f| f.whole.last - f.whole.first)?;
    let at = (def.whole.first as usize - 1..line as usize).rev().find(|&i| {
        let code = code_part(&index.lines[i]).trim_start();
        code.strip_prefix(field)
            .is_some_and(|rest| rest.trim_start().starts_with(':') && !rest.trim_start().starts_with("::"))
    })?;
    Some((file, index, at))
}

/// The type whose `default()` a line calls (`model::FirstTariff::default().0` → `FirstTariff`), if any.
pub(super) fn default_called(code: &str) -> Option<String> {
    let at = code.find("::default()")?;
    let path = &code[..at];
    let name: String = path
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (name.starts_with(|c: char| c.is_ascii_uppercase()) && name != "Default").then_some(name)
}
