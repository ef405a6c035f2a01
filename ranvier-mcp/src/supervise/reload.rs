//! Reloading the app under supervision: when its binary changed (or it exited), wait until the build is stable,
//! start the new build from a copy, repeat the client's handshake, replay the journal into it, and swap it in.

use std::time::{Duration, Instant, SystemTime};

use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::{
    Generation, Pending, Prepared, REPLAY_TIMEOUT, SETTLE_LIMIT, Stamp, Supervisor, error_response,
    id_key, lock, spawn, stamp, time_of_day, write_line,
};
use crate::journal::{self, Message};
use crate::replay::{paused_at, stopped_at};
use crate::text;

impl Supervisor {
    /// When the binary changed since the current run started (or the run exited), waits until it is stable,
    /// starts it, repeats the handshake and replays the journal. Returns the line naming what happened.
    pub(super) async fn reload(
        &mut self,
        trigger: &Value,
        dead: bool,
        handshake: bool,
    ) -> Option<String> {
        let binary = self.options.binary.clone();
        let Ok(found) = stamp(&binary) else {
            return dead.then(|| {
                format!(
                    "the app exited and {} is missing, so it was not restarted",
                    binary.display()
                )
            });
        };
        let changed = found != self.generation.stamp && Some(found) != self.refused;
        if !changed && !dead {
            return None;
        }
        // a copy made ahead of time means the build was already stable
        let mut ready = self.prepared.lock().await.take();
        let settled = match &ready {
            Some(prepared) if prepared.stamp == found => found,
            _ if changed => self.settle(found).await,
            _ => found,
        };
        if let Some(prepared) = ready.take_if(|p| p.stamp != settled) {
            let _ = std::fs::remove_dir_all(prepared.dir);
        }
        let messages = match journal::read(&self.generation.journal, true) {
            Ok(journal) => journal.messages,
            Err(e) => {
                eprintln!(
                    "ranvier-mcp supervise: cannot read the journal {}: {e}",
                    self.generation.journal.display()
                );
                Vec::new()
            }
        };
        let number = self.generation.number + 1;
        let what = if changed {
            format!(
                "reloaded {} (build of {}, run {number})",
                binary.display(),
                time_of_day(settled.modified)
            )
        } else {
            format!(
                "restarted {} after it exited (run {number})",
                binary.display()
            )
        };
        let started = Instant::now();
        let line = match self
            .start(number, settled, ready, trigger, &messages, handshake)
            .await
        {
            Ok((generation, summary)) => {
                let ended = self.swap(generation);
                format!("{what}: {summary}{ended}")
            }
            Err(reason) => {
                self.refused = Some(settled);
                let still = if dead {
                    "nothing is served until the binary changes".to_owned()
                } else {
                    format!(
                        "still serving the build of {}",
                        time_of_day(self.generation.stamp.modified)
                    )
                };
                format!("{what} failed: {reason}; {still}")
            }
        };
        eprintln!(
            "ranvier-mcp supervise: {line} ({} ms)",
            started.elapsed().as_millis()
        );
        Some(line)
    }

    /// Waits until the binary has kept its stamp for the settle time (at once when it is older than that).
    pub(super) async fn settle(&self, mut current: Stamp) -> Stamp {
        let settle = self.options.settle;
        let limit = Instant::now() + SETTLE_LIMIT;
        let mut seen = Instant::now();
        loop {
            let age = SystemTime::now()
                .duration_since(current.modified)
                .unwrap_or_default();
            if age >= settle || seen.elapsed() >= settle || Instant::now() >= limit {
                return current;
            }
            tokio::time::sleep(
                settle
                    .saturating_sub(age)
                    .min(settle.saturating_sub(seen.elapsed())),
            )
            .await;
            match stamp(&self.options.binary) {
                Ok(again) if again == current => {}
                Ok(again) => {
                    current = again;
                    seen = Instant::now();
                }
                // being rewritten: look again shortly
                Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
            }
        }
    }

    /// Starts run `number`, repeats the client's handshake and replays `messages`; returns the run and a summary
    /// ending with the replay's final state.
    pub(super) async fn start(
        &mut self,
        number: u32,
        stamp: Stamp,
        ready: Option<Prepared>,
        trigger: &Value,
        messages: &[Message],
        handshake: bool,
    ) -> Result<(Generation, String), String> {
        let mut generation = spawn(
            &self.options,
            &self.workdir,
            number,
            stamp,
            ready,
            &self.shared,
            &self.to_client,
        )?;
        let outcome = self
            .prepare(&mut generation, trigger, messages, handshake)
            .await;
        if outcome.is_err() {
            let _ = generation.child.start_kill();
        }
        outcome.map(|summary| (generation, summary))
    }

    pub(super) async fn prepare(
        &mut self,
        generation: &mut Generation,
        trigger: &Value,
        messages: &[Message],
        handshake: bool,
    ) -> Result<String, String> {
        if handshake && let Some(initialize) = self.initialize.clone() {
            let answer = self
                .request(generation, initialize, self.options.startup_timeout)
                .await?;
            if let Some(error) = answer.get("error") {
                return Err(format!("it refused the client's initialize: {error}"));
            }
            if self.initialized {
                let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
                write_line(&mut generation.stdin, &note.to_string())
                    .await
                    .map_err(|e| format!("cannot write to it: {e}"))?;
            }
        }
        // modern-era requests carry their protocol version and client in `_meta`: reuse the trigger's
        let meta = trigger.pointer("/params/_meta").cloned();
        let call = |name: &str, arguments: Value| {
            let mut params = json!({"name": name, "arguments": arguments});
            if let Some(meta) = &meta {
                params["_meta"] = meta.clone();
            }
            json!({"jsonrpc": "2.0", "method": "tools/call", "params": params})
        };
        if messages.is_empty() {
            let answer = self
                .request(
                    generation,
                    call("snapshot", json!({})),
                    self.options.startup_timeout,
                )
                .await?;
            let text = answer
                .get("result")
                .map(text::result_text)
                .unwrap_or_default();
            return Ok(format!(
                "nothing to replay; {}",
                text::snapshot_state_line(&text).unwrap_or_else(|| "state unknown".into())
            ));
        }
        let entries: Vec<Value> = messages.iter().map(Message::entry).collect();
        let answer = self
            .request(
                generation,
                call("dispatch", json!({"messages": entries})),
                REPLAY_TIMEOUT,
            )
            .await?;
        if let Some(error) = answer.get("error") {
            let reason = error.get("message").and_then(Value::as_str).unwrap_or("");
            return Ok(format!(
                "the new build refused the replay of {} messages ({reason}); serving it with none replayed",
                messages.len()
            ));
        }
        let result = answer.get("result").cloned().unwrap_or_default();
        let text = text::result_text(&result);
        let state = text.lines().last().unwrap_or("").to_owned();
        if result.get("isError").and_then(Value::as_bool) != Some(true) {
            let count = messages.len();
            // a message the new build gates for a person's approval: its interrupt stays open in the new run
            if let Some(position) = paused_at(&text) {
                let message = messages
                    .get(position - 1)
                    .map_or_else(String::new, |m| format!(" ({} {})", m.name, m.args));
                let interrupt = text
                    .lines()
                    .find_map(|line| line.strip_prefix("interrupt ")?.split_once(':'))
                    .map_or("its interrupt", |(id, _)| id);
                return Ok(format!(
                    "replay paused at message {position} of {count}{message}: it needs a person's approval in the new \
                     build; resume interrupt {interrupt} to run it and the messages after it → {state}"
                ));
            }
            let plural = if count == 1 { "" } else { "s" };
            return Ok(format!(
                "replayed {count} message{plural} → {state}{}",
                behaviour_change(&text, messages)
            ));
        }
        let Some(position) = stopped_at(&text) else {
            return Ok(format!(
                "the replay was rejected: {}; serving the new build",
                text.lines().next().unwrap_or("")
            ));
        };
        let reason = text
            .lines()
            .find(|line| line.starts_with("stopped at message "))
            .and_then(|line| line.split_once(": "))
            .map_or("", |(_, reason)| reason);
        let message = messages
            .get(position - 1)
            .map_or_else(String::new, |m| format!(" ({} {})", m.name, m.args));
        let kept = if position > 1 {
            format!("messages 1 to {}", position - 1)
        } else {
            "no message".into()
        };
        Ok(format!(
            "replay stopped at message {position} of {}{message}: {reason}; serving the new build with {kept} → {state}",
            messages.len()
        ))
    }

    /// Sends one of the supervisor's own requests to `generation` and waits for its answer.
    pub(super) async fn request(
        &mut self,
        generation: &mut Generation,
        mut request: Value,
        timeout: Duration,
    ) -> Result<Value, String> {
        self.next_internal += 1;
        let id = json!(format!("ranvier-mcp-supervise-{}", self.next_internal));
        request["id"] = id.clone();
        let (answer, answered) = oneshot::channel();
        lock(&self.shared)
            .internal
            .insert(id_key(&id), (generation.number, answer));
        let method = request["method"].as_str().unwrap_or("").to_owned();
        if let Err(e) = write_line(&mut generation.stdin, &request.to_string()).await {
            lock(&self.shared).internal.remove(&id_key(&id));
            return Err(format!(
                "cannot write to it: {e}{}",
                generation.output.quote()
            ));
        }
        match tokio::time::timeout(timeout, answered).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(_)) => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                Err(format!(
                    "it exited before answering {method}{}",
                    generation.output.quote()
                ))
            }
            Err(_) => {
                lock(&self.shared).internal.remove(&id_key(&id));
                Err(format!(
                    "it did not answer {method} within {} s",
                    timeout.as_secs_f64()
                ))
            }
        }
    }

    /// Makes `generation` the current run, stops the old one, and ends what it served: requests still running
    /// are answered with an error, subscriptions end. Returns the note to add to the reload line.
    pub(super) fn swap(&mut self, generation: Generation) -> String {
        let mut old = std::mem::replace(&mut self.generation, generation);
        self.refused = None;
        self.running.send_replace(self.generation.stamp);
        let ended: Vec<Pending> = {
            let mut shared = lock(&self.shared);
            shared.current = self.generation.number;
            shared.dead = false;
            let keys: Vec<String> = shared
                .pending
                .iter()
                .filter(|(_, p)| p.generation == old.number)
                .map(|(k, _)| k.clone())
                .collect();
            keys.iter()
                .filter_map(|key| shared.pending.remove(key))
                .collect()
        };
        let _ = old.child.start_kill();
        tokio::spawn(async move {
            let _ = old.child.wait().await;
        });
        let mut note = String::new();
        for pending in &ended {
            let reason = if pending.method == "subscriptions/listen" {
                "the subscription ended: the app was reloaded from a new build; listen again"
                    .to_owned()
            } else {
                format!(
                    "the app was reloaded from a new build before it answered {}; send it again",
                    pending.method
                )
            };
            let _ = self.to_client.send(error_response(&pending.id, &reason));
        }
        if ended.iter().any(|p| p.method == "subscriptions/listen") {
            note.push_str("; subscriptions/listen ended, listen again");
        }
        if !self.subscriptions.is_empty() {
            let uris: Vec<String> = std::mem::take(&mut self.subscriptions)
                .into_iter()
                .collect();
            for uri in &uris {
                let updated = json!({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": uri}});
                let _ = self.to_client.send(updated.to_string());
            }
            note.push_str(&format!(
                "; resource subscriptions ended ({}), subscribe again",
                uris.join(", ")
            ));
        }
        note
    }
}

/// `; behaviour changed at message P (name args): was `…`, now `…`` when a replayed step differs from the one the
/// previous build recorded in its journal (compared without position and version); empty when none does.
fn behaviour_change(answer: &str, messages: &[Message]) -> String {
    use crate::check::{first_difference, recorded_step, step_lines};
    let expected: Vec<Option<String>> = messages
        .iter()
        .enumerate()
        .map(|(i, message)| recorded_step(i + 1, message))
        .collect();
    let got = step_lines(answer, messages);
    match first_difference(&expected, &got) {
        Some(position) if position <= messages.len() => format!(
            "; behaviour changed at message {position} ({} {}): was `{}`, now `{}`",
            messages[position - 1].name,
            messages[position - 1].args,
            expected[position - 1]
                .as_deref()
                .unwrap_or("(not recorded)"),
            got.get(position - 1).map_or("(no step)", String::as_str)
        ),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reload_names_the_first_step_the_new_build_answers_differently() {
        let journal = journal::parse(concat!(
            r#"{"name":"add_item","args":{"sku":"a"},"version":1,"sender":"x","changes":[["count",0,2]]}"#,
            "\n",
            r#"{"name":"set_discount","args":{"percent":10},"version":2,"sender":"x","changes":[["total",500,450]]}"#,
            "\n"
        ));
        let same = "1 add_item {\"sku\":\"a\"} → v1: count 0→2\n\
                    2 set_discount {\"percent\":10} → v2: total 500→450\nv2: count=2, total=450";
        assert_eq!(behaviour_change(same, &journal.messages), "");
        let changed = same.replace("500→450", "500→400");
        assert_eq!(
            behaviour_change(&changed, &journal.messages),
            "; behaviour changed at message 2 (set_discount {\"percent\":10}): was `2 set_discount {\"percent\":10} → \
             v2: total 500→450`, now `2 set_discount {\"percent\":10} → v2: total 500→400`"
        );
        // an old journal without recorded steps reports nothing
        let old =
            journal::parse(r#"{"name":"add_item","args":{"sku":"a"},"version":1,"sender":"x"}"#);
        assert_eq!(
            behaviour_change("1 add_item {\"sku\":\"a\"} → v1: count 0→9", &old.messages),
            ""
        );
    }
}
