//! The log's storage: a ring of fixed-size event slots and a byte ring for their texts, both bounded, oldest
//! dropped first.

use super::*;

/// Where a text lives in the tracer's text ring: its absolute byte offset (from 1, so `Option<TextRef>` needs no
/// extra word) and its length. Packed to 12 bytes so that an event slot stays at 48.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C, packed(4))]
pub(super) struct TextRef {
    pub(super) at: NonZeroU64,
    pub(super) len: u32,
}

/// A byte ring the texts of events (values, labels, messages, errors) are formatted straight into. An event keeps
/// only a [`TextRef`], so recording a value allocates nothing; a text older than the ring's size is gone, and reads
/// as `None`.
pub(super) struct TextRing {
    pub(super) bytes: Vec<u8>,
    /// The next text's absolute offset: 1 plus the bytes written since the start.
    pub(super) pos: u64,
}

impl TextRing {
    pub(super) fn new(size: usize) -> Self {
        TextRing {
            bytes: vec![0; size.max(VALUE_TEXT_CAP * 4)],
            pos: 1,
        }
    }

    pub(super) fn push_bytes(&mut self, mut s: &[u8]) {
        let size = self.bytes.len();
        while !s.is_empty() {
            let at = (self.pos % size as u64) as usize;
            let n = s.len().min(size - at);
            self.bytes[at..at + n].copy_from_slice(&s[..n]);
            self.pos += n as u64;
            s = &s[n..];
        }
    }

    /// Formats `value` (its `Debug` text, cut at [`VALUE_TEXT_CAP`] bytes) into the ring.
    pub(super) fn format(&mut self, value: &dyn fmt::Debug) -> TextRef {
        let at = NonZeroU64::new(self.pos).expect("text positions start at 1");
        let mut writer = RingWriter {
            ring: self,
            written: 0,
            full: false,
        };
        let _ = fmt::write(&mut writer, format_args!("{value:?}"));
        if writer.full {
            writer.ring.push_bytes("…".as_bytes());
        }
        TextRef {
            at,
            len: (self.pos - at.get()) as u32,
        }
    }

    /// Stores `text` (cut at [`VALUE_TEXT_CAP`] bytes) in the ring.
    pub(super) fn store(&mut self, text: &str) -> TextRef {
        self.format(&DisplayAsDebug(text))
    }

    /// Stores `text` whole, however long (a text read back from a dump, cut when first recorded).
    pub(super) fn store_whole(&mut self, text: &str) -> TextRef {
        let at = NonZeroU64::new(self.pos).expect("text positions start at 1");
        self.push_bytes(text.as_bytes());
        TextRef {
            at,
            len: u32::try_from(text.len()).unwrap_or(u32::MAX),
        }
    }

    /// A larger ring holding the same texts at the same absolute offsets.
    pub(super) fn resized(&self, size: usize) -> TextRing {
        let held = (self.bytes.len() as u64).min(self.pos - 1);
        let start = self.pos - held;
        let mut ring = TextRing::new(size);
        ring.pos = start;
        if let Some(text) = NonZeroU64::new(start).and_then(|at| {
            self.get(TextRef {
                at,
                len: held as u32,
            })
        }) {
            ring.push_bytes(text.as_bytes());
        }
        ring
    }

    /// The text, if the ring still holds it.
    pub(super) fn get(&self, text: TextRef) -> Option<Rc<str>> {
        let size = self.bytes.len() as u64;
        let (start, len) = (text.at.get(), text.len);
        if start + size < self.pos {
            return None;
        }
        let mut out = Vec::with_capacity(len as usize);
        let mut at = start;
        let end = start + u64::from(len);
        while at < end {
            let i = (at % size) as usize;
            let n = ((end - at) as usize).min(self.bytes.len() - i);
            out.extend_from_slice(&self.bytes[i..i + n]);
            at += n as u64;
        }
        Some(Rc::from(String::from_utf8_lossy(&out).as_ref()))
    }
}

/// Formats a `str` without quotes through `{:?}`.
pub(super) struct DisplayAsDebug<'a>(&'a str);

impl fmt::Debug for DisplayAsDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// A writer into the text ring that stops (with an error, which ends the formatting) at [`VALUE_TEXT_CAP`] bytes.
pub(super) struct RingWriter<'a> {
    pub(super) ring: &'a mut TextRing,
    pub(super) written: usize,
    pub(super) full: bool,
}

impl fmt::Write for RingWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let room = VALUE_TEXT_CAP - self.written;
        if s.len() <= room {
            self.ring.push_bytes(s.as_bytes());
            self.written += s.len();
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.ring.push_bytes(&s.as_bytes()[..end]);
        self.written += end;
        self.full = true;
        Err(fmt::Error)
    }
}

/// A recorded value: common scalars as they are (formatted only when an answer reads them), anything else as its
/// `Debug` text in the text ring.
#[derive(Copy, Clone, Debug)]
pub(super) enum ValueRef {
    Text(TextRef),
    I64(i64),
    U64(u64),
    F64(f64),
    F32(f32),
    Bool(bool),
}

/// An event as the ring holds it: like [`EventKind`], with texts as [`TextRef`]s, so a slot is plain data.
#[derive(Copy, Clone, Debug)]
pub(super) enum Slot {
    NodeNew {
        node: NodeId,
        kind: NodeKind,
        owner: Option<NodeId>,
        run: u64,
    },
    Label {
        node: NodeId,
        label: TextRef,
    },
    Write {
        node: NodeId,
        by: Writer,
        moved: bool,
        value: ValueRef,
    },
    Mark {
        node: NodeId,
        source: NodeId,
        dirty: bool,
    },
    Schedule {
        node: NodeId,
    },
    CheckStart {
        node: NodeId,
    },
    CheckResolved {
        node: NodeId,
        dirty_source: Option<NodeId>,
    },
    RunStart {
        node: NodeId,
        run: u32,
        puller: Option<NodeId>,
    },
    RunEnd {
        node: NodeId,
        moved: bool,
        error: Option<TextRef>,
        value: Option<ValueRef>,
    },
    Stopped {
        node: NodeId,
        message: TextRef,
    },
    FlushStart {
        flush: u32,
    },
    FlushEnd {
        flush: u32,
    },
    BatchEnter {
        depth: u32,
    },
    BatchExit {
        depth: u32,
    },
    Dispose {
        node: NodeId,
    },
    Message {
        target: NodeId,
        name: TextRef,
        args: TextRef,
    },
    EdgeAdd {
        node: NodeId,
        source: NodeId,
    },
    EdgeRemove {
        node: NodeId,
        source: NodeId,
    },
    UntrackedRead {
        node: Option<NodeId>,
        source: NodeId,
    },
    Flight {
        node: NodeId,
        flight: u32,
        what: FlightEvent,
    },
    Timer {
        node: NodeId,
        what: TimerEvent,
        /// Microseconds on the node's clock.
        at_us: u64,
        due_us: u64,
        value: Option<TextRef>,
    },
}

/// The ring of recent events: a fixed-size buffer of plain slots, overwritten oldest first.
///
/// Every method takes `&self` and copies slots in or out: no reference into the buffer outlives a call, and no call
/// runs other code while it holds one, so the buffer needs no borrow flag (it is `!Sync` through `UnsafeCell`). This
/// keeps a push, which every traced step makes, to a store and an index update.
pub(super) struct EventRing {
    pub(super) slots: UnsafeCell<Vec<(u64, Slot)>>,
    /// Where the next slot goes: the end while the ring fills, then the oldest slot.
    pub(super) head: Cell<usize>,
    pub(super) capacity: Cell<usize>,
}

impl EventRing {
    pub(super) fn new(capacity: usize) -> Self {
        EventRing {
            slots: UnsafeCell::new(Vec::new()),
            head: Cell::new(0),
            capacity: Cell::new(capacity.max(1)),
        }
    }

    /// Runs `f` on the buffer. `f` is one of this type's own leaf operations (see the type's docs).
    #[inline(always)]
    pub(super) fn with<R>(&self, f: impl FnOnce(&mut Vec<(u64, Slot)>) -> R) -> R {
        // SAFETY: the ring is `!Sync`, and the reference lives only inside `f`, which never re-enters the ring.
        f(unsafe { &mut *self.slots.get() })
    }

    #[inline(always)]
    pub(super) fn push(&self, cause: u64, slot: Slot) {
        let head = self.head.get();
        self.with(#[inline(always)] |slots| {
            if let Some(at) = slots.get_mut(head) {
                *at = (cause, slot);
            } else if head < slots.capacity() {
                // Filling, with room reserved (by `grow`): the slot goes at the end, as `Vec::push` would put it
                // without its capacity test.
                debug_assert_eq!(head, slots.len());
                // SAFETY: `head == slots.len()` while the ring fills (`head` is the end until it wraps), and it is
                // below the capacity, so the slot is allocated and unused; `set_len` then covers exactly it.
                unsafe {
                    slots.as_mut_ptr().add(head).write((cause, slot));
                    slots.set_len(head + 1);
                }
            } else {
                self.grow(slots, cause, slot);
                return;
            }
            let next = head + 1;
            self.head
                .set(if next == self.capacity.get() { 0 } else { next });
        });
    }

    /// Appends while the ring is still filling. The buffer is reserved for the whole ring the first time it is full,
    /// so filling it copies no slots (pages are touched only as slots are written).
    #[cold]
    pub(super) fn grow(&self, slots: &mut Vec<(u64, Slot)>, cause: u64, slot: Slot) {
        if slots.len() == slots.capacity() {
            slots.reserve_exact(self.capacity.get().saturating_sub(slots.len()).max(1));
        }
        slots.push((cause, slot));
        let next = slots.len();
        self.head
            .set(if next == self.capacity.get() { 0 } else { next });
    }

    pub(super) fn len(&self) -> usize {
        self.with(|slots| slots.len())
    }

    /// The `i`-th oldest slot held.
    pub(super) fn get(&self, i: usize) -> Option<(u64, Slot)> {
        self.with(|slots| {
            if i >= slots.len() {
                return None;
            }
            let at = if slots.len() < self.capacity.get() {
                i
            } else {
                (self.head.get() + i) % self.capacity.get()
            };
            slots.get(at).copied()
        })
    }

    pub(super) fn capacity(&self) -> usize {
        self.capacity.get()
    }

    pub(super) fn clear(&self) {
        self.with(Vec::clear);
        self.head.set(0);
    }

    pub(super) fn set_capacity(&self, capacity: usize) {
        let held: Vec<(u64, Slot)> = (0..self.len()).filter_map(|i| self.get(i)).collect();
        let capacity = capacity.max(1);
        let skip = held.len().saturating_sub(capacity);
        let kept: Vec<(u64, Slot)> = held.into_iter().skip(skip).collect();
        let next = kept.len();
        self.with(|slots| *slots = kept);
        self.capacity.set(capacity);
        self.head.set(if next == capacity { 0 } else { next });
    }
}
