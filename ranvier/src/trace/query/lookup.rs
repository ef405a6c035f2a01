//! Finding a node from the text an agent typed: a path, a name, `name#id` or `name#id:line`, with the near misses
//! when nothing or several match.

use super::*;

impl Ctx<'_> {
    pub fn lookup(&self, query: &str) -> Result<NodeId, LookupError> {
        let query_text = query.trim();
        let fail = |reason: String, candidates: Vec<NodeName>| LookupError {
            query: query_text.to_owned(),
            reason,
            candidates: candidates.into_iter().take(20).collect(),
        };
        let all = || self.ids().iter().map(|id| self.name(*id)).collect::<Vec<_>>();
        if query_text.is_empty() {
            return Err(fail(
                "expected a node name, `#id`, `name#id` or an identity path `/a/b`".into(),
                all(),
            ));
        }
        if query_text.starts_with('/') {
            let holders: Vec<&NodeRecord> = self
                .ids()
                .iter()
                .filter(|id| self.path(**id) == query_text)
                .filter_map(|id| self.rec(*id))
                .collect();
            return match holders
                .iter()
                .rev()
                .find(|r| r.disposed == 0)
                .or(holders.last())
            {
                Some(r) => Ok(r.id),
                None => Err(fail("no node has this identity path".into(), all())),
            };
        }
        if let Some((name, id)) = query_text.rsplit_once('#') {
            // `name#id:line`, as explanations print their chain and reads, names the same node
            let id = match id.split_once(':') {
                Some((id, line)) if line.chars().all(|c| c.is_ascii_digit()) => id,
                _ => id,
            };
            let Ok(number) = id.parse::<u32>() else {
                return Err(fail(
                    format!("`#{id}` is not a node id (expected `#` and a number, like `#7`)"),
                    all(),
                ));
            };
            let id = NodeId(number);
            if self.rec(id).is_none() {
                let reason = match self.missing(id) {
                    TraceError::UnknownNode(_) => format!("there is no node {id} in this graph"),
                    other => other.to_string(),
                };
                return Err(fail(reason, all()));
            }
            if !name.is_empty() && *self.base_name(id) != *name {
                return Err(fail(
                    format!("node {id} is named `{}`, not `{name}`", self.base_name(id)),
                    all(),
                ));
            }
            return Ok(id);
        }
        let matches: Vec<&NodeRecord> = self
            .ids()
            .iter()
            .filter(|id| *self.base_name(**id) == *query_text)
            .filter_map(|id| self.rec(*id))
            .collect();
        let live: Vec<&&NodeRecord> = matches.iter().filter(|r| r.disposed == 0).collect();
        match (live.as_slice(), matches.as_slice()) {
            ([one], _) => Ok(one.id),
            ([], [.., last]) => Ok(last.id),
            ([], []) => {
                let lower = query_text.to_lowercase();
                let close: Vec<NodeName> = self
                    .ids()
                    .iter()
                    .map(|id| self.name(*id))
                    .filter(|n| {
                        n.name.to_lowercase().contains(&lower)
                            || lower.contains(&n.name.to_lowercase())
                    })
                    .collect();
                Err(fail(
                    "no node has this name".into(),
                    if close.is_empty() { all() } else { close },
                ))
            }
            (many, _) => Err(fail(
                format!(
                    "{} live nodes have this name; add the id, like `{}`",
                    many.len(),
                    self.name(many[0].id)
                ),
                many.iter().map(|r| self.name(r.id)).collect(),
            )),
        }
    }

}
