//! The lines that decide a body's value: what a diagnosis quotes of a body too long to quote whole.
//!
//! A body's value comes from its tail expression, but in real code the tail is often a name (`lines`, `owed_total`)
//! or a call that hands a closure the real work (`desk.with_model(|d| { ... })`). So the tail is followed: into the
//! closures a tail call is given, through `if`, `match` and blocks, and from a name back to the statements that made
//! it, a slice of the body read backwards. Each statement of the slice is weighed by how much it decides:
//!
//! - a `let` that shadows an earlier binding of its name, and a call that reorders or drops what a name holds
//!   (`sort_by_key`, `retain`, `dedup`, `truncate`...), decide most;
//! - a condition that skips, breaks or returns (`if days == 0 { continue; }`), or that guards a change to the value;
//! - an assignment (`total += line`) or a `return`;
//! - a `let` that binds a name the value is made from, and a call that adds to it (`lines.push(..)`);
//! - the head of a loop the value is built in.
//!
//! The heaviest few are kept, the first found (nearest the tail) first among equals, and handed back in line order.

use super::{Lines, ends};
use std::collections::HashSet;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};

/// How many lines of a body's value are kept.
pub(super) const KEPT: usize = 3;

/// The lines that decide a block's value, at most [`KEPT`], in line order.
pub(super) fn of_block(block: &syn::Block) -> Vec<Lines> {
    let mut picks = Picks::default();
    block_value(block, &mut picks, 0);
    returns(block, &mut picks);
    picks.kept()
}

/// How many lines of a future's value are kept: more than a body's, since a diagnosis drops those that cannot have
/// made the value it settled (an early `return Ok(None)` for a `Some`).
pub(super) const FUTURE_KEPT: usize = 5;

/// The lines that decide an `async` block's value, at most [`FUTURE_KEPT`], in line order.
pub(super) fn of_future(block: &syn::Block) -> Vec<Lines> {
    let mut picks = Picks::default();
    block_value(block, &mut picks, 0);
    returns(block, &mut picks);
    picks.kept_at_most(FUTURE_KEPT)
}

/// The lines that decide an expression's value (a closure's body that is not a block), at most [`KEPT`].
pub(super) fn of_expr(expr: &syn::Expr) -> Vec<Lines> {
    let mut picks = Picks::default();
    let empty = syn::Block {
        brace_token: Default::default(),
        stmts: Vec::new(),
    };
    expr_value(expr, &empty, &mut picks, 0);
    picks.kept()
}

/// The lines chosen, in the order the walk found them (nearest the tail first), each with how much it decides.
#[derive(Default)]
struct Picks(Vec<(Lines, u8)>);

impl Picks {
    fn add(&mut self, lines: Lines, weight: u8) {
        match self.0.iter_mut().find(|(l, _)| l.first == lines.first) {
            Some(seen) => seen.1 = seen.1.max(weight),
            None => self.0.push((lines, weight)),
        }
    }

    /// The heaviest [`KEPT`], the first found first among equals (a stable sort), in line order.
    fn kept(self) -> Vec<Lines> {
        self.kept_at_most(KEPT)
    }

    /// The heaviest `kept`, as [`kept`](Self::kept).
    fn kept_at_most(mut self, kept: usize) -> Vec<Lines> {
        self.0.sort_by_key(|p| std::cmp::Reverse(p.1));
        self.0.truncate(kept);
        let mut out: Vec<Lines> = self.0.into_iter().map(|(l, _)| l).collect();
        out.sort_by_key(|l| l.first);
        out
    }
}

/// How much a kind of line decides.
mod weight {
    pub const SHADOW: u8 = 6;
    pub const REORDER: u8 = 6;
    pub const GUARD: u8 = 5;
    pub const TAIL: u8 = 4;
    pub const ASSIGN: u8 = 4;
    pub const RETURN: u8 = 3;
    pub const BIND: u8 = 2;
    pub const START: u8 = 1;
    pub const ADD: u8 = 2;
    pub const LOOP: u8 = 1;
}

/// Methods that reorder, drop or replace what their receiver holds.
const REORDERING: &[&str] = &[
    "sort",
    "sort_by",
    "sort_by_key",
    "sort_unstable",
    "sort_unstable_by",
    "sort_unstable_by_key",
    "sort_by_cached_key",
    "reverse",
    "retain",
    "retain_mut",
    "dedup",
    "dedup_by",
    "dedup_by_key",
    "truncate",
    "drain",
    "clear",
    "swap",
    "rotate_left",
    "rotate_right",
    "split_off",
    "remove",
    "pop",
];

fn line_of(span: proc_macro2::Span) -> Lines {
    let first = Lines::of(span).first;
    Lines { first, last: first }
}

/// The value of a block: its tail followed; with none, a last statement that writes (`*acc += s.minutes;`, a
/// closure adding to an accumulator: what it leaves behind is made there), else nothing.
fn block_value(block: &syn::Block, picks: &mut Picks, depth: u32) {
    match block.stmts.last() {
        Some(syn::Stmt::Expr(tail, None)) => expr_value(tail, block, picks, depth),
        Some(syn::Stmt::Expr(last, Some(_))) if writes(last) => picks.add(line_of(ends::first(last)), weight::ASSIGN),
        _ => {}
    }
}

/// Whether an expression statement writes: an assignment, a compound one (`+=`), or a call that adds to its
/// receiver (`push`, `insert`, `extend`).
fn writes(expr: &syn::Expr) -> bool {
    use syn::BinOp as B;
    match expr {
        syn::Expr::Assign(_) => true,
        syn::Expr::Binary(b) => matches!(
            b.op,
            B::AddAssign(_)
                | B::SubAssign(_)
                | B::MulAssign(_)
                | B::DivAssign(_)
                | B::RemAssign(_)
                | B::BitAndAssign(_)
                | B::BitOrAssign(_)
                | B::BitXorAssign(_)
                | B::ShlAssign(_)
                | B::ShrAssign(_)
        ),
        syn::Expr::MethodCall(m) => matches!(m.method.to_string().as_str(), "push" | "insert" | "extend"),
        _ => false,
    }
}

/// Follows an expression that gives `scope`'s value.
fn expr_value(expr: &syn::Expr, scope: &syn::Block, picks: &mut Picks, depth: u32) {
    if depth > 6 {
        picks.add(ends::lines(expr), weight::TAIL);
        return;
    }
    match expr {
        syn::Expr::If(e) => {
            picks.add(line_of(ends::first(&e.cond)), weight::GUARD);
            block_value(&e.then_branch, picks, depth + 1);
            if let Some((_, other)) = &e.else_branch {
                expr_value(other, scope, picks, depth + 1);
            }
        }
        syn::Expr::Match(m) => {
            for arm in &m.arms {
                match &*arm.body {
                    syn::Expr::Block(b) => block_value(&b.block, picks, depth + 1),
                    body => picks.add(
                        Lines {
                            first: Lines::of(arm.pat.span()).first,
                            last: ends::lines(body).last,
                        },
                        weight::TAIL),
                }
            }
        }
        syn::Expr::Block(b) => block_value(&b.block, picks, depth + 1),
        syn::Expr::Unsafe(b) => block_value(&b.block, picks, depth + 1),
        syn::Expr::Paren(p) => expr_value(&p.expr, scope, picks, depth),
        syn::Expr::Group(g) => expr_value(&g.expr, scope, picks, depth),
        syn::Expr::Reference(r) => expr_value(&r.expr, scope, picks, depth),
        syn::Expr::Cast(c) => expr_value(&c.expr, scope, picks, depth),
        syn::Expr::Try(t) => expr_value(&t.expr, scope, picks, depth),
        syn::Expr::Path(p) if p.path.segments.len() == 1 => {
            let name = p.path.segments[0].ident.to_string();
            if !slice(scope, &[name], picks) {
                picks.add(ends::lines(expr), weight::TAIL);
            }
        }
        // a call handing a closure the work (`desk.with_model(|d| { .. })`): the closure's value decides
        syn::Expr::Call(_) | syn::Expr::MethodCall(_) if last_closure(expr).is_some() => {
            let closure = last_closure(expr).expect("checked");
            match &*closure.body {
                syn::Expr::Block(b) => block_value(&b.block, picks, depth + 1),
                body => expr_value(body, scope, picks, depth + 1),
            }
        }
        // `Some(lines)`, `Ok(total)`, `Reminder { due, .. }`, `(a, b)`, `xs.len()`: what the names in it hold
        other => {
            picks.add(ends::lines(other), weight::TAIL);
            let names = names_in(other);
            if !names.is_empty() {
                slice(scope, &names, picks);
            }
        }
    }
}

/// The closure given as an argument to a call or method call (the last one), if any.
fn last_closure(expr: &syn::Expr) -> Option<&syn::ExprClosure> {
    let args = match expr {
        syn::Expr::Call(c) => &c.args,
        syn::Expr::MethodCall(m) => &m.args,
        _ => return None,
    };
    args.iter().rev().find_map(|a| match a {
        syn::Expr::Closure(c) => Some(c),
        _ => None,
    })
}

/// The single-segment names an expression reads (`a + b.total` → `a`, `b`), closures' parameters included.
fn names_in(expr: &syn::Expr) -> Vec<String> {
    struct Names(Vec<String>);
    impl<'ast> Visit<'ast> for Names {
        fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
            if p.qself.is_none()
                && let [one] = p.path.segments.iter().collect::<Vec<_>>()[..]
            {
                let name = one.ident.to_string();
                if !self.0.contains(&name) {
                    self.0.push(name);
                }
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            // `format!("{a}", b)`: the arguments, as expressions where they parse
            if let Ok(args) = m.parse_body_with(
                syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
            ) {
                for a in &args {
                    self.visit_expr(a);
                }
            }
        }
    }
    let mut names = Names(Vec::new());
    names.visit_expr(expr);
    names.0
}

/// The names a pattern binds.
fn bound_by(pat: &syn::Pat) -> Vec<String> {
    struct Bound(Vec<String>);
    impl<'ast> Visit<'ast> for Bound {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push(p.ident.to_string());
            visit::visit_pat_ident(self, p);
        }
    }
    let mut bound = Bound(Vec::new());
    bound.visit_pat(pat);
    bound.0
}

/// The name a place expression is rooted at: `lines`, `totals[i]`, `self.count`, `d.loans[0].due`.
fn root(expr: &syn::Expr) -> Option<String> {
    match expr {
        syn::Expr::Path(p) if p.path.segments.len() == 1 => Some(p.path.segments[0].ident.to_string()),
        syn::Expr::Field(f) => root(&f.base),
        syn::Expr::Index(i) => root(&i.expr),
        syn::Expr::Paren(p) => root(&p.expr),
        syn::Expr::Unary(u) => root(&u.expr),
        syn::Expr::MethodCall(m) if matches!(m.method.to_string().as_str(), "borrow_mut" | "get_mut" | "entry") => {
            root(&m.receiver)
        }
        _ => None,
    }
}

/// Slices `scope` backwards from `names`: adds the statements that bind or change them (and, in turn, what those
/// read). Whether any statement was found.
fn slice(scope: &syn::Block, names: &[String], picks: &mut Picks) -> bool {
    let mut wanted: HashSet<String> = names.iter().cloned().collect();
    let before = picks.0.len();
    stmts_back(&scope.stmts, &mut wanted, picks, &mut Vec::new());
    picks.0.len() > before
}

/// Walks `stmts` from the last to the first; `bound` holds the names bound by the statements above so far (for
/// shadowing), filled as the walk goes. Whether a statement touched a wanted name.
fn stmts_back(
    stmts: &[syn::Stmt],
    wanted: &mut HashSet<String>,
    picks: &mut Picks,
    outer: &mut Vec<String>,
) -> bool {
    let mut touched = false;
    for (i, stmt) in stmts.iter().enumerate().rev() {
        match stmt {
            syn::Stmt::Local(local) => {
                let names = bound_by(&local.pat);
                if names.iter().any(|n| wanted.contains(n)) {
                    touched = true;
                    // a name bound again above this `let` (in this block or an outer one) is shadowed here
                    let shadows = names.iter().any(|n| {
                        stmts[..i].iter().any(|s| matches!(s, syn::Stmt::Local(l) if bound_by(&l.pat).contains(n)))
                            || outer.contains(n)
                    });
                    let reads = local.init.as_ref().map(|i| names_in(&i.expr)).unwrap_or_default();
                    // a `let` that starts from nothing read (`Vec::new()`, `0`) decides little
                    let w = if shadows {
                        weight::SHADOW
                    } else if reads.is_empty() {
                        weight::START
                    } else {
                        weight::BIND
                    };
                    picks.add(line_of(local.span()), w);
                    // a `let` bound by a branching expression (`let due = if late { .. } else { .. };`): the value
                    // each branch gives, which its first line does not show
                    if let Some(init) = &local.init
                        && matches!(&*init.expr, syn::Expr::If(_) | syn::Expr::Match(_))
                    {
                        let mut branches = Picks::default();
                        let empty = syn::Block {
                            brace_token: Default::default(),
                            stmts: Vec::new(),
                        };
                        expr_value(&init.expr, &empty, &mut branches, 1);
                        let own = line_of(local.span());
                        for (lines, _) in branches.0 {
                            if lines.first != own.first {
                                picks.add(lines, weight::TAIL);
                            }
                        }
                    }
                    for n in &names {
                        wanted.remove(n);
                    }
                    wanted.extend(reads);
                }
            }
            syn::Stmt::Expr(expr, _) => {
                let after = touched;
                if expr_back(expr, wanted, picks, after, outer) {
                    touched = true;
                }
            }
            _ => {}
        }
    }
    touched
}

/// One statement's expression, walked backwards. `after` says whether a later statement of the same block touched a
/// wanted name (so a condition that skips ahead decides it).
fn expr_back(
    expr: &syn::Expr,
    wanted: &mut HashSet<String>,
    picks: &mut Picks,
    after: bool,
    outer: &mut Vec<String>,
) -> bool {
    match expr {
        syn::Expr::Assign(a) => match root(&a.left) {
            Some(r) if wanted.contains(&r) => {
                picks.add(line_of(a.span()), weight::ASSIGN);
                wanted.extend(names_in(&a.right));
                true
            }
            _ => false,
        },
        syn::Expr::Binary(b) if is_compound(&b.op) => match root(&b.left) {
            Some(r) if wanted.contains(&r) => {
                picks.add(line_of(b.span()), weight::ASSIGN);
                wanted.extend(names_in(&b.right));
                true
            }
            _ => false,
        },
        syn::Expr::MethodCall(m) => match root(&m.receiver) {
            Some(r) if wanted.contains(&r) => {
                let method = m.method.to_string();
                let w = if REORDERING.contains(&method.as_str()) {
                    weight::REORDER
                } else {
                    weight::ADD
                };
                picks.add(line_of(m.method.span()), w);
                for a in &m.args {
                    wanted.extend(names_in(a));
                }
                true
            }
            _ => false,
        },
        syn::Expr::ForLoop(f) => {
            let bound = bound_by(&f.pat);
            outer.extend(bound.iter().cloned());
            let touched = stmts_back(&f.body.stmts, wanted, picks, outer);
            outer.truncate(outer.len() - bound.len());
            if touched {
                picks.add(line_of(f.for_token.span()), weight::LOOP);
                wanted.extend(names_in(&f.expr));
            }
            touched
        }
        syn::Expr::While(w) => {
            let touched = stmts_back(&w.body.stmts, wanted, picks, outer);
            if touched {
                picks.add(line_of(ends::first(&w.cond)), weight::GUARD);
                wanted.extend(names_in(&w.cond));
            }
            touched
        }
        syn::Expr::Loop(l) => stmts_back(&l.body.stmts, wanted, picks, outer),
        syn::Expr::Block(b) => stmts_back(&b.block.stmts, wanted, picks, outer),
        syn::Expr::If(e) => {
            // a condition that skips what follows (`if days == 0 { continue; }`) decides what the rest computes
            if after && diverges(&e.then_branch) {
                picks.add(line_of(ends::first(&e.cond)), weight::GUARD);
                wanted.extend(names_in(&e.cond));
                return true;
            }
            let mut touched = stmts_back(&e.then_branch.stmts, wanted, picks, outer);
            if let Some((_, other)) = &e.else_branch {
                touched |= expr_back(other, wanted, picks, after, outer);
            }
            if touched {
                picks.add(line_of(ends::first(&e.cond)), weight::GUARD);
                wanted.extend(names_in(&e.cond));
            }
            touched
        }
        syn::Expr::Match(m) => {
            let mut touched = false;
            for arm in &m.arms {
                let hit = match &*arm.body {
                    syn::Expr::Block(b) => stmts_back(&b.block.stmts, wanted, picks, outer),
                    body => expr_back(body, wanted, picks, after, outer),
                };
                if hit {
                    picks.add(line_of(arm.pat.span()), weight::GUARD);
                    touched = true;
                }
            }
            if touched {
                wanted.extend(names_in(&m.expr));
            }
            touched
        }
        _ => false,
    }
}

/// Whether a block leaves the loop or the body at once: `continue`, `break` or `return`, alone or last.
fn diverges(block: &syn::Block) -> bool {
    matches!(
        block.stmts.last(),
        Some(syn::Stmt::Expr(
            syn::Expr::Continue(_) | syn::Expr::Break(_) | syn::Expr::Return(_),
            _
        ))
    )
}

fn is_compound(op: &syn::BinOp) -> bool {
    matches!(
        op,
        syn::BinOp::AddAssign(_)
            | syn::BinOp::SubAssign(_)
            | syn::BinOp::MulAssign(_)
            | syn::BinOp::DivAssign(_)
            | syn::BinOp::RemAssign(_)
            | syn::BinOp::BitXorAssign(_)
            | syn::BinOp::BitAndAssign(_)
            | syn::BinOp::BitOrAssign(_)
            | syn::BinOp::ShlAssign(_)
            | syn::BinOp::ShrAssign(_)
    )
}

/// Every `return` in a block (not in its closures or items), as a line that gives the value.
fn returns(block: &syn::Block, picks: &mut Picks) {
    struct Returns<'a>(&'a mut Picks);
    impl<'ast> Visit<'ast> for Returns<'_> {
        fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
            self.0.add(line_of(r.span()), weight::RETURN);
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    Returns(picks).visit_block(block);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(body: &str) -> Vec<u32> {
        let block: syn::Block = syn::parse_str(body).expect("a block");
        of_block(&block).into_iter().map(|l| l.first).collect()
    }

    #[test]
    fn a_sort_key_decides_a_list_built_in_a_loop() {
        let lines = value_of(
            "{\n\
             let mut late: Vec<&Loan> = d.loans.iter().filter(|l| l.due < d.today).collect();\n\
             late.sort_by_key(|l| l.out);\n\
             let mut lines = Vec::new();\n\
             for loan in late {\n\
             let days = d.today - loan.due;\n\
             lines.push(format!(\"{} {days}\", loan.card));\n\
             }\n\
             lines\n\
             }",
        );
        assert!(lines.contains(&3), "the sort is kept: {lines:?}");
        assert!(lines.contains(&7), "the push that builds the value is kept: {lines:?}");
    }

    #[test]
    fn a_shadowing_let_and_a_skip_decide_a_sum() {
        let lines = value_of(
            "{\n\
             let mut total = 0;\n\
             for loan in loans {\n\
             let days = late(loan);\n\
             let days = days.saturating_sub(GRACE);\n\
             if days == 0 {\n\
             continue;\n\
             }\n\
             total += u64::from(days) * rate;\n\
             }\n\
             total\n\
             }",
        );
        assert_eq!(lines, [5, 6, 9], "the shadowing let, the skip, the sum");
    }

    #[test]
    fn a_closure_handed_the_work_is_followed() {
        let block: syn::Block = syn::parse_str(
            "{\n\
             desk.with_model(|d| {\n\
             let mut xs = d.items.clone();\n\
             xs.retain(|x| x.on);\n\
             xs.len()\n\
             })\n\
             }",
        )
        .expect("a block");
        let lines: Vec<u32> = of_block(&block).into_iter().map(|l| l.first).collect();
        assert_eq!(lines, [3, 4, 5], "the let, the retain, the tail; not the with_model line");
    }

    #[test]
    fn a_tail_that_computes_is_kept_and_names_it_reads_are_followed() {
        let lines = value_of("{\n let base = price * qty;\n base * 2\n}");
        assert_eq!(lines, [2, 3]);
    }

    #[test]
    fn a_name_nothing_in_the_body_binds_is_the_tail_itself() {
        let lines = value_of("{\n helper(x);\n input\n}");
        assert_eq!(lines, [3]);
    }
}
