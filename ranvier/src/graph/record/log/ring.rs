//! The log's storage: a ring of fixed-size event slots and a byte ring for their texts, both bounded, oldest
//! dropped first.

use super::*;
use std::mem::MaybeUninit;

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
///
/// `repr(u32)`: a four-byte tag, then the text's reference (four-byte aligned) or the scalar (at eight), sixteen bytes
/// as before. With a one-byte tag the bytes after it were copied from the stack into a write's slot in four pieces
/// (8, 4, 2, 1 bytes: traced effects shape 110.80 -> 109.92 M with the tag widened).
#[derive(Copy, Clone, Debug)]
#[repr(u32)]
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
/// runs other code while it holds one, so the buffer needs no borrow flag (it is `!Sync` through `UnsafeCell`).
///
/// A push, which every traced step makes, is a compare of two pointers, the slot's store and a pointer's update:
/// `next` is where the next slot goes and `stop` the end of the ring's room in the buffer (its start plus the
/// capacity), so neither the buffer's length nor the capacity is read and the head wraps on the slow path only
/// ([`make_room`](Self::make_room): at the ring's end, and at the first push, which reserves the buffer). While the ring
/// fills, pushes write past the buffer's length (slots are plain data, `Copy`): the slots held are the length or the
/// head, whichever is more, and every reader brings the length up to that first ([`synced`](Self::synced)).
pub(super) struct EventRing {
    slots: UnsafeCell<Vec<(u64, Slot)>>,
    /// Where the next slot goes: the head, as a pointer into the buffer (its index is the slots before it).
    next: Cell<*mut (u64, Slot)>,
    /// Where pushes stop taking the fast path: the buffer's start plus the capacity once the buffer is reserved for
    /// the whole ring, else `next` itself (so the next push takes the slow path, which reserves it).
    stop: Cell<*mut (u64, Slot)>,
    capacity: Cell<usize>,
}

impl EventRing {
    pub(super) fn new(capacity: usize) -> Self {
        let ring = EventRing {
            slots: UnsafeCell::new(Vec::new()),
            next: Cell::new(std::ptr::null_mut()),
            stop: Cell::new(std::ptr::null_mut()),
            capacity: Cell::new(capacity.max(1)),
        };
        ring.with(|slots| ring.set_head(slots, 0));
        ring
    }

    /// Runs `f` on the buffer. `f` is one of this type's own leaf operations (see the type's docs).
    #[inline(always)]
    fn with<R>(&self, f: impl FnOnce(&mut Vec<(u64, Slot)>) -> R) -> R {
        // SAFETY: the ring is `!Sync`, and the reference lives only inside `f`, which never re-enters the ring.
        f(unsafe { &mut *self.slots.get() })
    }

    /// Points `next` at slot `head` of `slots` and `stop` at the ring's end in it, or at `next` when the buffer is not
    /// reserved for the whole ring.
    fn set_head(&self, slots: &mut Vec<(u64, Slot)>, head: usize) {
        let capacity = self.capacity.get();
        debug_assert!(head <= capacity && head <= slots.capacity());
        let base = slots.as_mut_ptr();
        // SAFETY: `head` and `capacity` (when the buffer holds it) are within the buffer's allocation or one past its
        // end.
        unsafe {
            self.next.set(base.add(head));
            self.stop
                .set(base.add(if slots.capacity() >= capacity { capacity } else { head }));
        }
    }

    /// The head: the index of the slot `next` points at.
    fn head(&self, slots: &mut Vec<(u64, Slot)>) -> usize {
        // `next` points into `slots`' buffer, or one past the ring's end in it (`set_head`, `push`).
        (self.next.get().addr() - slots.as_mut_ptr().addr()) / std::mem::size_of::<(u64, Slot)>()
    }

    /// The buffer, its length brought up to the slots held: while the ring fills, pushes write past it.
    fn synced(&self, slots: &mut Vec<(u64, Slot)>) {
        let head = self.head(slots);
        if head > slots.len() {
            // SAFETY: the slots below the head are written (pushes write at the head and move it up by one, from the
            // length or from 0 once the ring is full), within the buffer's capacity (`stop`), and plain data.
            unsafe { slots.set_len(head) };
        }
    }

    #[inline(always)]
    pub(super) fn push(&self, cause: u64, slot: Slot) {
        let mut at = self.next.get();
        if at == self.stop.get() {
            at = self.make_room();
        }
        // SAFETY: `at` is below `stop` (`make_room` leaves `next` there too), so within the buffer reserved for the
        // whole ring (`set_head`), and aligned; no other reference to the slot exists (no reference into the buffer
        // outlives a call); the slot is plain data (`Copy`), so writing it over an old one or into unused room drops
        // nothing; `synced` counts it as held. Written through a unique reference, with nothing passed to a call, so
        // that the compiler stores the fields in place rather than building the slot on the stack and copying it.
        unsafe {
            (*at.cast::<MaybeUninit<(u64, Slot)>>()).write((cause, slot));
            self.next.set(at.add(1));
        }
    }

    /// A push found `next` at `stop`: at the ring's end the head wraps to the start (the buffer then holds the whole
    /// ring); at the first push the buffer is reserved for the whole ring (pages are touched only as slots are
    /// written). Returns where the slot goes, `next`, now below `stop`.
    #[cold]
    #[inline(never)]
    fn make_room(&self) -> *mut (u64, Slot) {
        self.with(|slots| {
            self.synced(slots);
            let capacity = self.capacity.get();
            if slots.len() < capacity {
                if slots.capacity() < capacity {
                    slots.reserve_exact(capacity - slots.len());
                }
                let head = slots.len();
                self.set_head(slots, head);
            } else {
                debug_assert_eq!(slots.len(), capacity);
                self.set_head(slots, 0);
            }
            debug_assert!(self.next.get() != self.stop.get());
            self.next.get()
        })
    }

    pub(super) fn len(&self) -> usize {
        self.with(|slots| {
            self.synced(slots);
            slots.len()
        })
    }

    /// The `i`-th oldest slot held.
    pub(super) fn get(&self, i: usize) -> Option<(u64, Slot)> {
        self.with(|slots| {
            self.synced(slots);
            if i >= slots.len() {
                return None;
            }
            let capacity = self.capacity.get();
            let at = if slots.len() < capacity {
                i
            } else {
                // Full: the oldest slot is the head's (at the ring's end, the start).
                (self.head(slots) + i) % capacity
            };
            // SAFETY: `at` is below the length (held slots), read as a copy through the buffer's pointer.
            Some(unsafe { slots.as_ptr().add(at).read() })
        })
    }

    pub(super) fn capacity(&self) -> usize {
        self.capacity.get()
    }

    pub(super) fn clear(&self) {
        self.with(|slots| {
            slots.clear();
            self.set_head(slots, 0);
        });
    }

    pub(super) fn set_capacity(&self, capacity: usize) {
        let held: Vec<(u64, Slot)> = (0..self.len()).filter_map(|i| self.get(i)).collect();
        let capacity = capacity.max(1);
        let skip = held.len().saturating_sub(capacity);
        let kept: Vec<(u64, Slot)> = held.into_iter().skip(skip).collect();
        self.capacity.set(capacity);
        self.with(|slots| {
            *slots = kept;
            let head = slots.len();
            self.set_head(slots, head);
        });
    }
}
