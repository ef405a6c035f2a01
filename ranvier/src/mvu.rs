//! `Mvu`: an Elm-style model, updated only by dispatched messages.
//!
//! An [`Mvu`] keeps a model in a signal. [`dispatch`](Mvu::dispatch) applies `update(msg, &model)` and writes the
//! result; an update that returns an equal model wakes nothing. [`select`](Mvu::select) derives a memo from a part of
//! the model, which wakes its readers only when that part changes. The Elmish variant,
//! [`Mvu::with_commands`], lets `update` also return follow-up messages, dispatched in order after the model write.
//!
//! A panic in `update` leaves the model unchanged and comes back to the dispatcher as a [`DispatchError`]. An
//! `update` that may refuse a message returns a `Result` ([`Mvu::try_new`]): an `Err` leaves the model unchanged too,
//! and comes back as a [`DispatchError`] whose [`refused`](DispatchError::refused) is set (over MCP, the client reads
//! it as it reads a decoder's rejection). A dispatch from inside an effect joins the running flush.
//!
//! # Examples
//!
//! ```
//! use ranvier::{Effect, Mvu};
//! use std::{cell::RefCell, rc::Rc};
//!
//! #[derive(Debug)]
//! enum Msg { Add(i64), Reset }
//!
//! let counter = Mvu::new(0_i64, |msg, count| match msg {
//!     Msg::Add(n) => count + n,
//!     Msg::Reset => 0,
//! });
//! let is_big = counter.select(|count| *count > 10);
//! let seen = Rc::new(RefCell::new(Vec::new()));
//! let _e = Effect::new({
//!     let (is_big, seen) = (is_big.clone(), seen.clone());
//!     move || seen.borrow_mut().push(is_big.get())
//! });
//! counter.dispatch(Msg::Add(5)).unwrap();  // still small: the effect does not run
//! counter.dispatch(Msg::Add(10)).unwrap(); // big now
//! counter.dispatch(Msg::Reset).unwrap();
//! assert_eq!(*seen.borrow(), [false, true, false]);
//! ```

use crate::graph::{AnyNode, NodeId, untrack, with_runtime};
use crate::{Memo, Signal};
use std::fmt;
use std::rc::Rc;

/// `update`: the next model and its commands, or why the message is refused.
type Update<Model, Msg> = Rc<dyn Fn(Msg, &Model) -> Result<(Model, Vec<Msg>), String>>;

/// A model updated by messages, Elm style.
///
/// Cheap to clone; `!Send`.
pub struct Mvu<Model: 'static, Msg: 'static> {
    model: Signal<Model>,
    update: Update<Model, Msg>,
    /// Made with [`Mvu::with_commands`]: traced builds record how many commands each message's `update` returned.
    sends_commands: bool,
}

impl<Model, Msg> Clone for Mvu<Model, Msg> {
    fn clone(&self) -> Self {
        Mvu {
            model: self.model.clone(),
            update: self.update.clone(),
            sends_commands: self.sends_commands,
        }
    }
}

/// A dispatched message whose `update` panicked, or refused it ([`Mvu::try_new`]). The model is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatchError {
    /// What went wrong: `update panicked: ...`, or the refusal's own text.
    pub message: String,
    /// Whether `update` refused the message (returned `Err`) rather than panicked.
    pub refused: bool,
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DispatchError {}

impl<Model, Msg> Mvu<Model, Msg>
where
    Model: Clone + PartialEq + fmt::Debug + 'static,
    Msg: fmt::Debug + 'static,
{
    /// Creates an `Mvu` holding `init`, updated by `update(msg, &model) -> model`.
    #[track_caller]
    pub fn new(init: Model, update: impl Fn(Msg, &Model) -> Model + 'static) -> Self {
        let name = std::any::type_name_of_val(&update);
        Self::from_parts(
            init,
            name,
            Rc::new(move |msg, model| Ok((update(msg, model), Vec::new()))),
        )
    }

    /// What every constructor does: the model signal (made at the caller's line, which the trace records), and the
    /// name of the user's `update` (its fn or closure type, which diagnosis looks for in the source) told to the
    /// trace.
    #[track_caller]
    fn from_parts(init: Model, update_name: &'static str, update: Update<Model, Msg>) -> Self {
        let model = Signal::new(init);
        with_runtime(|rt| trace_hook!(rt, update_fn(model.id(), update_name)));
        Mvu {
            model,
            update,
            sends_commands: false,
        }
    }

    /// Creates an `Mvu` whose `update` may refuse a message: `Ok(model)` is written as [`new`](Mvu::new)'s `update`
    /// would write it; `Err(reason)` writes nothing and [`dispatch`](Mvu::dispatch) returns a [`DispatchError`]
    /// whose `message` is `reason`'s text and whose `refused` is set. Over MCP the client reads
    /// `name was refused: reason; nothing was applied`, as it reads a decoder's rejection.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::Mvu;
    ///
    /// #[derive(Debug)]
    /// enum Msg { Withdraw(u32) }
    ///
    /// let balance = Mvu::try_new(10_u32, |Msg::Withdraw(n), balance| {
    ///     balance.checked_sub(n).ok_or_else(|| format!("the balance is {balance}, less than {n}"))
    /// });
    /// balance.dispatch(Msg::Withdraw(4)).unwrap();
    /// let refused = balance.dispatch(Msg::Withdraw(7)).unwrap_err();
    /// assert!(refused.refused);
    /// assert_eq!(refused.message, "the balance is 6, less than 7");
    /// assert_eq!(balance.peek_model(), 6);
    /// ```
    #[track_caller]
    pub fn try_new<E: fmt::Display>(
        init: Model,
        update: impl Fn(Msg, &Model) -> Result<Model, E> + 'static,
    ) -> Self {
        let name = std::any::type_name_of_val(&update);
        Self::from_parts(
            init,
            name,
            Rc::new(move |msg, model| {
                update(msg, model)
                    .map(|model| (model, Vec::new()))
                    .map_err(|reason| reason.to_string())
            }),
        )
    }

    /// Creates an Elmish `Mvu`: `update` also returns follow-up messages (commands), dispatched in order after its
    /// model write. The initial commands are dispatched before this returns. Traced builds record how many commands
    /// each message's `update` returned: `explain`'s `update:` finding says `commands: N (names)` and quotes the
    /// lines of the arm that built them.
    ///
    /// # Examples
    ///
    /// ```
    /// use ranvier::Mvu;
    ///
    /// #[derive(Debug)]
    /// enum Msg { Deposit(u32), Audit }
    ///
    /// // (balance, audits)
    /// let account = Mvu::with_commands(((0_u32, 0_u32), vec![]), |msg, &(balance, audits)| match msg {
    ///     Msg::Deposit(n) => ((balance + n, audits), vec![Msg::Audit]),
    ///     Msg::Audit => ((balance, audits + 1), vec![]),
    /// });
    /// account.dispatch(Msg::Deposit(5)).unwrap();
    /// assert_eq!(account.peek_model(), (5, 1));
    /// ```
    #[track_caller]
    pub fn with_commands(
        init: (Model, Vec<Msg>),
        update: impl Fn(Msg, &Model) -> (Model, Vec<Msg>) + 'static,
    ) -> Self {
        let (model, commands) = init;
        let name = std::any::type_name_of_val(&update);
        let mut mvu = Self::from_parts(
            model,
            name,
            Rc::new(move |msg, model| Ok(update(msg, model))),
        );
        mvu.sends_commands = true;
        for command in commands {
            // A panicking initial command leaves the model as it was; there is nobody to return the error to.
            let _ = mvu.dispatch(command);
        }
        mvu
    }

    /// Sets the model signal's label and returns the `Mvu`.
    pub fn labelled(self, label: &str) -> Self {
        let model = self.model.clone().labelled(label);
        Mvu {
            model,
            update: self.update,
            sends_commands: self.sends_commands,
        }
    }

    /// Applies `msg`: writes `update(msg, &model)` to the model, then dispatches the commands it returned, in order.
    ///
    /// # Errors
    ///
    /// Returns a [`DispatchError`] if `update` panicked or refused the message; the model is unchanged (commands
    /// dispatched before the panic keep their effect).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispatch(&self, msg: Msg) -> Result<(), DispatchError> {
        let site = crate::graph::call_site();
        let traced = with_runtime(|rt| rt.tracer.enabled());
        if traced {
            let text = format!("{msg:?}");
            let (name, args) = split_debug(&text);
            self.dispatch_at(site, name, args, msg)
        } else {
            self.dispatch_at(site, "", "", msg)
        }
    }

    /// Like [`dispatch`](Mvu::dispatch), recording `name` and `args` (their text) in the trace as the root cause of
    /// what the message writes.
    ///
    /// # Errors
    ///
    /// As [`dispatch`](Mvu::dispatch).
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn dispatch_traced(&self, name: &str, args: &str, msg: Msg) -> Result<(), DispatchError> {
        self.dispatch_at(crate::graph::call_site(), name, args, msg)
    }

    /// [`dispatch_traced`](Mvu::dispatch_traced), recording `site` as where it was dispatched (traced builds).
    fn dispatch_at(
        &self,
        site: crate::graph::CallSite,
        name: &str,
        args: &str,
        msg: Msg,
    ) -> Result<(), DispatchError> {
        let token = with_runtime(|rt| {
            rt.tracer
                .message_start(self.model.id(), name, args, rt.running_id(), site)
        });
        let result = untrack(|| self.apply(msg, token));
        with_runtime(|rt| rt.tracer.message_end(token));
        result
    }

    /// Runs `update` on `msg` (whose `Message` event is `token`, in traced builds), writes the model and dispatches
    /// the commands.
    fn apply(&self, msg: Msg, token: u64) -> Result<(), DispatchError> {
        let update = &self.update;
        // The dispatcher's own read, on behalf of `update`: not an untracked read of any computation.
        // records of `#[trace_fn]` fns made meanwhile are this message's (traced builds)
        let before = if crate::graph::record::TRACED {
            with_runtime(|rt| rt.tracer.update_running(Some(token)))
        } else {
            None
        };
        let outcome = self.model.with_unrecorded(|model| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| update(msg, model)))
        });
        if crate::graph::record::TRACED {
            with_runtime(|rt| rt.tracer.update_running(before));
        }
        match outcome {
            Ok(Err(reason)) => Err(DispatchError {
                message: reason,
                refused: true,
            }),
            Ok(Ok((model, commands))) => {
                if self.sends_commands {
                    with_runtime(|rt| trace_hook!(rt, message_commands(token, commands.len())));
                }
                if crate::graph::record::TRACED {
                    // which fields the message wrote: the model before and after, as `Debug` prints them
                    self.model.with_unrecorded(|before| {
                        if *before != model {
                            with_runtime(|rt| {
                                trace_hook!(rt, message_model(token, before, &model))
                            });
                        } else {
                            // an equal model that prints differently: its `PartialEq` lost the change
                            with_runtime(|rt| {
                                trace_hook!(rt, message_model_equal(token, before, &model))
                            });
                        }
                    });
                }
                self.model.set(model);
                let mut first_error = None;
                for command in commands {
                    if let Err(e) = self.dispatch(command) {
                        first_error.get_or_insert(e);
                    }
                }
                first_error.map_or(Ok(()), Err)
            }
            Err(payload) => Err(DispatchError {
                message: format!("update panicked: {}", crate::text::panic_text(&*payload)),
                refused: false,
            }),
        }
    }

    /// Writes `model` as the model, as a message's update would (a fork copies the live model this way).
    #[cfg(feature = "exposure")]
    pub(crate) fn replace_model(&self, model: Model) {
        self.model.set(model);
    }

    /// Returns a clone of the model, tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn model(&self) -> Model {
        self.model.get()
    }

    /// Calls `f` with the model, tracked.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn with_model<R>(&self, f: impl FnOnce(&Model) -> R) -> R {
        self.model.with(f)
    }

    /// Returns a clone of the model without tracking.
    #[cfg_attr(any(debug_assertions, feature = "trace"), track_caller)]
    pub fn peek_model(&self) -> Model {
        self.model.peek()
    }

    /// A memo over part of the model: it wakes its readers only when `f(model)` changes.
    #[track_caller]
    pub fn select<U: PartialEq + fmt::Debug + 'static>(
        &self,
        f: impl Fn(&Model) -> U + 'static,
    ) -> Memo<U> {
        let model = self.model.clone();
        // The select reads the model where it was made: its read site is the app's line, not this one.
        let site = crate::graph::call_site();
        Memo::new(move |_| model.with_at(site, &f))
    }

    /// The model signal's id.
    pub fn id(&self) -> NodeId {
        self.model.id()
    }
}

/// Splits `Variant { .. }` / `Variant(..)` Debug text into a name and arguments text.
fn split_debug(text: &str) -> (&str, &str) {
    match text.find([' ', '(', '{']) {
        Some(i) => (&text[..i], text[i..].trim_start()),
        None => (text, ""),
    }
}

impl<Model, Msg> AnyNode for Mvu<Model, Msg> {
    fn node_id(&self) -> NodeId {
        self.model.node_id()
    }
}
