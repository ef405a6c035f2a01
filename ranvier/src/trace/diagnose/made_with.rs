//! Constants the model was made with that no message changed: a field the code behind the answer reads, which holds
//! since the model was made the constant a struct literal's line gives it (`block_at: 10,` in the fn that opens the
//! desk). A wrong constant there shows in no message's writes; the trace's copies of the model before and after each
//! message say that nothing changed the field, and its value says which literal made it (of a correct and a
//! mistaken copy of that fn, the one whose constant the model holds). A line a message ran that read such a field
//! without naming it (`quarters * rate / 4` in a helper its caller gave `settings.labour_rate`) is followed by the
//! line that set it, and so is a line of the explained node's body that read one (`food + terms.tasting_fee` in a
//! helper its body calls).

use super::*;
use crate::trace::debug_diff;
use std::rc::Rc;

/// How many lines [`made_with`] gives at most.
pub(super) const MADE_WITH_LINES: usize = 2;

/// The rank of the `initial:` finding [`model_constants`] makes for fields the explained node's own code reads.
pub(super) const MADE_WITH_RANK: u32 = 650;

/// The most differences one message's change is read for: a change with more is not read whole, and nothing is said.
const DIFFERENCES_MAX: usize = 512;

/// The fields of the `Mvu` model `model`, outside its lists and maps, that hold a plain value (`0`, `"desk"`,
/// `Express`) they held when the model was made (before the first message that moved it) and that no message the
/// trace still keeps changed: `(struct, field, value)` in the order the model prints them. `None` when the trace does
/// not hold the model as it was made and as it is.
fn unchanged_fields(ctx: &Ctx<'_>, model: &NodeRecord) -> Option<Vec<(String, String, String)>> {
    let changes = ctx.tracer.model_changes_of(&ctx.tracer.messages_to(model.id));
    let (made, now): (Rc<str>, Rc<str>) = match ctx.tracer.first_model(model.id) {
        Some(made) => (made, changes.last()?.1.clone()),
        // no message moved it: as it is now is as it was made
        None if !matches!(model.moved_by, Some((Writer::Message(_), _))) => {
            let now: Rc<str> = ctx.value(model.id)?.into();
            (now.clone(), now)
        }
        None => return None,
    };
    let mut changed: HashSet<String> = HashSet::new();
    for (before, after) in std::iter::once((&made, &now)).chain(changes.iter().map(|(b, a)| (b, a))) {
        let differences = debug_diff::differences(before, after, DIFFERENCES_MAX);
        if differences.len() >= DIFFERENCES_MAX || differences.iter().any(|d| d.path.is_empty()) {
            return None;
        }
        for d in differences {
            changed.extend(debug_diff::path_fields(&d.path).map(str::to_owned));
        }
    }
    // a name the rows share (`day` of each letter beside the term's `day`) may be read of a row
    let in_rows: HashSet<String> = [&made, &now].iter().flat_map(|t| debug_diff::row_field_names(t)).collect();
    Some(
        debug_diff::struct_field_atoms(&made)
            .into_iter()
            .filter(|(_, field, _)| !changed.contains(field) && !in_rows.contains(field))
            .collect(),
    )
}

/// The model of the cone `cone`, with the fields no message changed since it was made ([`unchanged_fields`]), read
/// from the trace once, when a line first asks ([`Unchanged::made_with`]).
struct Unchanged<'a> {
    model: &'a NodeRecord,
    fields: std::cell::OnceCell<Option<Vec<(String, String, String)>>>,
}

impl<'a> Unchanged<'a> {
    fn of(ctx: &'a Ctx<'_>, cone: &[(NodeId, u32)]) -> Option<Self> {
        let model = cone.iter().filter_map(|(n, _)| ctx.rec(*n)).find(|r| r.is_model)?;
        Some(Unchanged { model, fields: std::cell::OnceCell::new() })
    }

    /// Of `fields` (names read as `.field`, in the order the answer weighs them), those of the model that no message
    /// changed since it was made, each with the line of the crate that gave it the value it holds: a struct
    /// literal's `field: value,` of the field's struct in a fn (`block_at: 10,` of `Desk { .. }` for `block_at =
    /// 10`). At most [`MADE_WITH_LINES`], with the field and its value (`block_at`, `10`).
    fn made_with(&self, ctx: &Ctx<'_>, fields: &[String]) -> Vec<(String, String, SourceLine)> {
        if fields.is_empty() {
            return Vec::new();
        }
        let Some(unchanged) = self.fields.get_or_init(|| unchanged_fields(ctx, self.model)) else {
            return Vec::new();
        };
        made_with(self.model, unchanged, fields)
    }

    /// `lines`, each followed by the line that set the first field it reads (`reads`) that the model was made with,
    /// unless `given` holds that line already (it is added there).
    fn follow(
        &self,
        ctx: &Ctx<'_>,
        lines: impl IntoIterator<Item = SourceLine>,
        reads: impl Fn(&SourceLine) -> Vec<String>,
        given: &mut HashSet<(&'static str, u32)>,
    ) -> Vec<SourceLine> {
        let mut out = Vec::new();
        for l in lines {
            let read = reads(&l);
            out.push(l);
            for (_, _, set) in self.made_with(ctx, &read).into_iter().take(1) {
                if given.insert((set.site.file, set.site.line)) {
                    out.push(set);
                }
            }
        }
        out
    }
}

/// [`Unchanged::made_with`], given the model's unchanged fields.
fn made_with(model: &NodeRecord, unchanged: &[(String, String, String)], fields: &[String]) -> Vec<(String, String, SourceLine)> {
    let mut out = Vec::new();
    for field in fields {
        if out.len() >= MADE_WITH_LINES {
            break;
        }
        let Some((of, _, value)) = unchanged.iter().find(|(_, f, _)| f == field) else { continue };
        if let Some(line) = literal_setting(model.site.file(), of, field, value) {
            out.push((field.clone(), value.clone(), line));
        }
    }
    out
}

/// The first line of the crate of `file`, in a fn, that sets `field` of a struct literal of type `of` to a constant
/// that prints as `value` (`period: 0,` for `0`, `mode: Mode::Fast,` for `Fast`, `name: "desk".into(),` for
/// `"desk"`).
fn literal_setting(file: &'static str, of: &str, field: &str, value: &str) -> Option<SourceLine> {
    for f in source::crate_files(file).iter() {
        let Some(index) = source::index_if(f.file, source::Needs::Word(field)) else { continue };
        for (i, line) in index.lines.iter().enumerate() {
            let code = code_part(line);
            if literal_field(code) != Some(field) || !constant_value(code) {
                continue;
            }
            let given = code.trim_start()[field.len()..].trim_start()[1..].trim();
            let given = given.strip_suffix(',').unwrap_or(given).trim();
            if !prints_as(given, value) {
                continue;
            }
            let at = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let Some(def) = index.fn_at(at) else { continue };
            let indent = code.len() - code.trim_start().len();
            if literal_type(&index.lines, i, def.whole.first as usize - 1, indent).as_deref() == Some(of) {
                return Some(numbered(f.file, &index.lines, i));
            }
        }
    }
    None
}

/// Whether the constant expression `given` (a literal's value) prints as `value` under `{:?}`: `1_000` as `1000`,
/// `Mode::Fast` as `Fast`, `"desk".into()` as `"desk"`.
fn prints_as(given: &str, value: &str) -> bool {
    let given = [".into()", ".to_owned()", ".to_string()"]
        .iter()
        .find_map(|s| given.strip_suffix(s))
        .unwrap_or(given);
    if given.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        let digits: String = given.chars().filter(|c| *c != '_').collect();
        // a typed literal (`10u32`, `2.5_f64`)
        let number = ["u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize", "f32", "f64"]
            .iter()
            .find_map(|s| digits.strip_suffix(s))
            .unwrap_or(&digits);
        return number == value
            || number
                .parse::<f64>()
                .ok()
                .zip(value.parse::<f64>().ok())
                .is_some_and(|(a, b)| a == b);
    }
    given == value || given.rsplit("::").next() == Some(value)
}

/// The `initial:` finding of the fields the explained node's own code reads that the model in its cone was made
/// with and no message changed (`desk#1.block_at = 10 since it was made`), at the line that set each; and, in the
/// message findings, after each line that read such a field through a name ([`line_fields`]), the line that set it
/// (once per answer).
pub(super) fn model_constants(ctx: &Ctx<'_>, me: &NodeRecord, cone: &[(NodeId, u32)], found: &mut Vec<Finding>) {
    let Some(model) = Unchanged::of(ctx, cone) else { return };
    let own = own_fields(me);
    let mut sets = model.made_with(ctx, &own).into_iter();
    if let Some((field, value, at)) = sets.next() {
        let mut text = format!("{}.{field} = {value}", ctx.name(model.model.id));
        for (field, value, _) in sets.clone() {
            let _ = write!(text, ", .{field} = {value}");
        }
        text.push_str(", as the model was made");
        let mut finding = Finding::new(FindingKind::Initial, MADE_WITH_RANK, text, Some(at));
        finding.more = sets.map(|(_, _, l)| l).collect();
        found.push(finding);
    }
    // a message's line that read a constant the model was made with: the line that set it, right after
    let mut given: HashSet<(&'static str, u32)> = HashSet::new();
    for f in found.iter_mut().filter(|f| matches!(f.kind, FindingKind::Update | FindingKind::Ran)) {
        let quoted: Vec<SourceLine> = f.at.iter().chain(&f.more).cloned().collect();
        let reads = |l: &SourceLine| {
            let mut read = line_fields(l);
            read.retain(|r| !own.contains(r));
            read
        };
        let mut more = model.follow(ctx, quoted, reads, &mut given);
        // the finding's own line stays its own
        if f.at.is_some() {
            more.remove(0);
        }
        f.more = more;
    }
}

/// After each line of the explained node's body that reads a field the model in its cone was made with and no
/// message changed (itself or through a name), the line that set it, unless a finding quotes that line already.
pub(super) fn body_constants(ctx: &Ctx<'_>, cone: &[(NodeId, u32)], found: &[Finding], body: &mut Vec<SourceLine>) {
    let Some(model) = Unchanged::of(ctx, cone) else { return };
    let mut given: HashSet<(&'static str, u32)> = found
        .iter()
        .flat_map(|f| f.at.iter().chain(&f.more))
        .map(|l| (l.site.file, l.site.line))
        .collect();
    let reads = |l: &SourceLine| {
        let mut read: Vec<String> = field_reads(code_part(&l.text)).into_iter().map(str::to_owned).collect();
        for r in line_fields(l) {
            if !read.contains(&r) {
                read.push(r);
            }
        }
        read
    };
    *body = model.follow(ctx, std::mem::take(body), reads, &mut given);
}

/// The fields the line `l` reads without naming them: on the conditions of the `if`s around it; through a local, on
/// the line of the `let` above it that binds it; through a parameter, in the argument the fn's callers pass for it
/// (`labour_charge(minutes, settings.labour_rate)` for `rate`).
fn line_fields(l: &SourceLine) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |f: &str| {
        if !out.iter().any(|o| o == f) {
            out.push(f.to_owned());
        }
    };
    let (file, at) = (l.site.file, l.site.line);
    let Some(index) = source::index(file) else { return out };
    let Some(def) = index.fn_at(at) else { return out };
    let conditions = index.ifs.iter().filter(|(line, block)| block.contains(at) && def.whole.contains(*line));
    let read: Vec<u32> = std::iter::once(at).chain(conditions.map(|(line, _)| *line)).collect();
    for line in read {
        let Some(code) = index.lines.get(line as usize - 1).map(|c| code_part(c)) else { continue };
        // a field the line reads itself it names already
        if line != at {
            field_reads(code).into_iter().for_each(&mut push);
        }
        for (_, word) in idents(code) {
            let bound = (def.whole.first..line)
                .rev()
                .filter_map(|i| index.lines.get(i as usize - 1))
                .find_map(|c| one_name_let(c).filter(|(name, _)| *name == word));
            if let Some((_, value)) = bound {
                field_reads(value).into_iter().for_each(&mut push);
            } else if let Some(position) = def.params.iter().position(|p| p == word) {
                for field in passed_for(file, def, position) {
                    push(&field);
                }
            }
        }
    }
    out
}

/// The names the callers of `def` (a fn of `file`) pass for its parameter at `position` (`labour_rate` for
/// `settings.labour_rate`).
fn passed_for(file: &str, def: &source::FnDef, position: usize) -> Vec<String> {
    let mut out = Vec::new();
    for caller in source::crate_files(file).iter() {
        let Some(index) = source::index_if(caller.file, source::Needs::Word(&def.name)) else { continue };
        for call in &index.calls {
            let names_it = match &call.method {
                Some(method) => *method == def.name && def.self_ty.is_some(),
                None => call.path.last() == Some(&def.name),
            };
            if names_it && let Some(Some(name)) = call.arg_names.get(position) {
                out.push(name.clone());
            }
        }
    }
    out
}

/// The fields the explained node's own code reads (`.field`), in line order: its creation call and the fns it is
/// given by name (`desk.select(cards)` reaches `cards`).
fn own_fields(me: &NodeRecord) -> Vec<String> {
    let file = me.site.file();
    let Some(index) = source::index(file) else { return Vec::new() };
    let Some(call) = index.call_at(me.site.line(), me.site.column()) else {
        return Vec::new();
    };
    let mut spans: Vec<(Arc<source::Index>, source::Lines)> = vec![(index.clone(), call.whole)];
    let given = call.arg_values.iter().flatten().map(|v| &v.path);
    for path in call.fn_args.iter().chain(given) {
        if let Some(found) = source::resolve_fn(file, me.site.line(), path) {
            spans.push((found.index.clone(), found.def().whole));
        }
    }
    let mut out: Vec<String> = Vec::new();
    for (index, span) in spans {
        for line in (span.first..=span.last).filter_map(|l| index.lines.get(l as usize - 1)) {
            for f in field_reads(code_part(line)) {
                if !out.iter().any(|o| o == f) {
                    out.push(f.to_owned());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_prints_as_its_debug_text() {
        for (given, value) in [
            ("1_000", "1000"),
            ("10u32", "10"),
            ("2.50", "2.5"),
            ("-3", "-3"),
            ("Mode::Fast", "Fast"),
            ("\"desk\".into()", "\"desk\""),
            ("false", "false"),
        ] {
            assert!(prints_as(given, value), "{given} as {value}");
        }
        for (given, value) in [("1_000", "10"), ("Mode::Fast", "Slow"), ("\"desk\"", "\"till\""), ("CAP", "10")] {
            assert!(!prints_as(given, value), "{given} as {value}");
        }
    }
}
