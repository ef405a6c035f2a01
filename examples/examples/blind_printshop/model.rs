//! The print shop's model: papers, sizes and press sheets, customers' jobs, the presses with their queues, the paper
//! stock by sheet size, and the messages the counter, the press room and the bench send.

use ranvier::Messages;
use ranvier::serde::Serialize;

/// The weekdays the shop is open, Monday first (a job's `due` is 1 for Monday).
pub const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

/// The shop opens on Monday at 08:00: minutes since Monday 00:00.
pub const OPENS_AT: u32 = 8 * 60;

/// A paper the shop prints on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Paper {
    /// Silk coated, 150 gsm.
    Silk,
    /// Uncoated bond, 100 gsm.
    Uncoated,
    /// Board, 300 gsm.
    Card,
}

impl Paper {
    /// The paper a counter clerk typed.
    pub fn parse(name: &str) -> Result<Paper, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "silk" => Ok(Paper::Silk),
            "uncoated" | "bond" => Ok(Paper::Uncoated),
            "card" | "board" => Ok(Paper::Card),
            other => Err(format!(
                "no paper {other:?}: the shop has silk, uncoated and card"
            )),
        }
    }

    /// Grams per square metre.
    pub fn gsm(self) -> u64 {
        match self {
            Paper::Silk => 150,
            Paper::Uncoated => 100,
            Paper::Card => 300,
        }
    }

    /// How thick one sheet is, in microns.
    pub fn microns(self) -> u32 {
        match self {
            Paper::Silk => 130,
            Paper::Uncoated => 120,
            Paper::Card => 350,
        }
    }

    /// The paper's name on a docket.
    pub fn name(self) -> &'static str {
        match self {
            Paper::Silk => "silk 150",
            Paper::Uncoated => "uncoated 100",
            Paper::Card => "card 300",
        }
    }
}

/// A press sheet: what the paper comes in and goes through a press as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Sheet {
    /// 450 × 320 mm, for the digital press.
    Sra3,
    /// 707 × 500 mm, for the offset press.
    B2,
}

impl Sheet {
    /// The sheet a clerk typed.
    pub fn parse(name: &str) -> Result<Sheet, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "sra3" => Ok(Sheet::Sra3),
            "b2" => Ok(Sheet::B2),
            other => Err(format!("no sheet size {other:?}: SRA3 or B2")),
        }
    }

    /// Long and short edge, in millimetres.
    pub fn mm(self) -> (u32, u32) {
        match self {
            Sheet::Sra3 => (450, 320),
            Sheet::B2 => (707, 500),
        }
    }

    /// The sheet's name.
    pub fn name(self) -> &'static str {
        match self {
            Sheet::Sra3 => "SRA3",
            Sheet::B2 => "B2",
        }
    }
}

/// The finished (trimmed) size of a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub enum Size {
    /// 420 × 297 mm.
    A3,
    /// 297 × 210 mm.
    A4,
    /// 210 × 148 mm.
    A5,
    /// 148 × 105 mm.
    A6,
}

impl Size {
    /// The size a clerk typed.
    pub fn parse(name: &str) -> Result<Size, String> {
        match name.trim().to_ascii_uppercase().as_str() {
            "A3" => Ok(Size::A3),
            "A4" => Ok(Size::A4),
            "A5" => Ok(Size::A5),
            "A6" => Ok(Size::A6),
            other => Err(format!("no size {other:?}: A3, A4, A5 or A6")),
        }
    }

    /// Long and short edge, in millimetres.
    pub fn mm(self) -> (u32, u32) {
        match self {
            Size::A3 => (420, 297),
            Size::A4 => (297, 210),
            Size::A5 => (210, 148),
            Size::A6 => (148, 105),
        }
    }

    /// How many stacks of this size sit side by side in a carton.
    pub fn stacks_per_box(self) -> u32 {
        match self {
            Size::A3 | Size::A4 => 1,
            Size::A5 => 2,
            Size::A6 => 4,
        }
    }
}

/// Black only, or four-colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Colour {
    /// Black.
    Mono,
    /// CMYK.
    Colour,
}

impl Colour {
    /// `mono` or `colour` (or `color`).
    pub fn parse(name: &str) -> Result<Colour, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "mono" | "black" => Ok(Colour::Mono),
            "colour" | "color" | "cmyk" => Ok(Colour::Colour),
            other => Err(format!("no colour {other:?}: mono or colour")),
        }
    }
}

/// What the bench does to a job after the press.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Finish {
    /// Flat sheets, nothing to do.
    Flat,
    /// Cut to size on the guillotine.
    Trim,
    /// Folded.
    Fold,
    /// Saddle-stitched.
    Bind,
}

impl Finish {
    /// `flat`, `trim`, `fold` or `bind`.
    pub fn parse(name: &str) -> Result<Finish, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "flat" | "none" => Ok(Finish::Flat),
            "trim" | "cut" => Ok(Finish::Trim),
            "fold" => Ok(Finish::Fold),
            "bind" | "stitch" => Ok(Finish::Bind),
            other => Err(format!("no finishing {other:?}: flat, trim, fold or bind")),
        }
    }

    /// The word on a docket.
    pub fn done(self) -> &'static str {
        match self {
            Finish::Flat => "flat",
            Finish::Trim => "trimmed",
            Finish::Fold => "folded",
            Finish::Bind => "stitched",
        }
    }
}

/// Where a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum Stage {
    /// Quoted; a proof was not sent yet (or was sent back).
    Quoted,
    /// A proof is with the customer.
    Proof,
    /// The customer approved the proof.
    Approved,
    /// In a press's queue.
    Queued,
    /// Off the press.
    Printed,
    /// Finished on the bench, waiting to go.
    Finished,
    /// Gone: with the courier or collected.
    Dispatched,
}

/// A customer's job.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(crate = "ranvier::serde")]
pub struct Job {
    /// Its docket number (the row's key).
    #[serde(skip)]
    pub id: u32,
    /// Who ordered it.
    pub customer: String,
    /// The paper.
    pub paper: Paper,
    /// The finished size.
    pub size: Size,
    /// Mono or colour.
    pub colour: Colour,
    /// Copies.
    pub quantity: u32,
    /// What the bench does.
    pub finish: Finish,
    /// Sent by courier, else collected.
    pub courier: bool,
    /// The day it is due (1: Monday).
    pub due: u32,
    /// Where it is.
    pub stage: Stage,
    /// Proofs sent back so far.
    pub proofs: u32,
    /// The quote, in pence.
    pub quote: u32,
    /// Charges on top of the quote, in pence.
    pub extras: u32,
    /// The press it is booked on.
    pub press: Option<String>,
    /// The press sheets it takes (with overs), once booked.
    pub sheets: u32,
}

impl Job {
    /// What the customer pays, in pence.
    pub fn price(&self) -> u32 {
        self.quote + self.extras
    }

    /// `J3 Cy`.
    pub fn docket(&self) -> String {
        format!("J{} {}", self.id, self.customer)
    }

    /// `500 A5 silk 150, colour, trimmed`.
    pub fn describe(&self) -> String {
        let colour = match self.colour {
            Colour::Mono => "mono",
            Colour::Colour => "colour",
        };
        format!(
            "{} {:?} {}, {colour}, {}",
            self.quantity,
            self.size,
            self.paper.name(),
            self.finish.done()
        )
    }

    /// Whether it is booked on the press named `press`.
    pub fn booked_on(&self, press: &str) -> bool {
        self.press.as_deref() == Some(press)
    }

    /// Whether it is still in the shop.
    pub fn is_open(&self) -> bool {
        self.stage != Stage::Dispatched
    }
}

/// Digital or offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(crate = "ranvier::serde", rename_all = "lowercase")]
pub enum PressKind {
    /// Toner, no plates: cheap to set up, dear per sheet.
    Digital,
    /// Plates and ink: dear to set up, cheap per sheet.
    Offset,
}

/// A press and its queue.
#[derive(Clone, Debug, PartialEq)]
pub struct Press {
    /// Its name on the floor.
    pub name: String,
    /// Digital or offset.
    pub kind: PressKind,
    /// The sheet it takes.
    pub sheet: Sheet,
    /// Minutes to set up for a job (plates, wash-up, colour matching).
    pub setup_minutes: u32,
    /// Sheets an hour once it runs.
    pub sheets_per_hour: u32,
    /// Jobs waiting, first to print first.
    pub queue: Vec<u32>,
}

/// Paper on the shelf, by paper and sheet size.
#[derive(Clone, Debug, PartialEq)]
pub struct Stock {
    /// The paper.
    pub paper: Paper,
    /// The sheet size.
    pub sheet: Sheet,
    /// Sheets on the shelf.
    pub sheets: u32,
    /// Reorder when fewer than this are free.
    pub reorder_at: u32,
}

/// The whole shop.
#[derive(Clone, Debug, PartialEq)]
pub struct Shop {
    /// Every job, in docket order.
    pub jobs: Vec<Job>,
    /// The presses.
    pub presses: Vec<Press>,
    /// The paper stock.
    pub stock: Vec<Stock>,
    /// The next docket number.
    pub next_id: u32,
    /// Minutes since Monday 00:00.
    pub clock: u32,
    /// Invoiced for jobs dispatched, in pence.
    pub invoiced: u32,
}

impl Shop {
    /// The job with docket `id`.
    pub fn job(&self, id: u32) -> Option<&Job> {
        self.jobs.iter().find(|job| job.id == id)
    }

    /// The job with docket `id`, to change.
    pub fn job_mut(&mut self, id: u32) -> Option<&mut Job> {
        self.jobs.iter_mut().find(|job| job.id == id)
    }

    /// The shelf of `paper` in `sheet`.
    pub fn shelf_mut(&mut self, paper: Paper, sheet: Sheet) -> Option<&mut Stock> {
        self.stock
            .iter_mut()
            .find(|s| s.paper == paper && s.sheet == sheet)
    }
}

fn press(name: &str, kind: PressKind, sheet: Sheet, setup: u32, per_hour: u32) -> Press {
    Press {
        name: name.to_owned(),
        kind,
        sheet,
        setup_minutes: setup,
        sheets_per_hour: per_hour,
        queue: Vec::new(),
    }
}

fn shelf(paper: Paper, sheet: Sheet, sheets: u32, reorder_at: u32) -> Stock {
    Stock {
        paper,
        sheet,
        sheets,
        reorder_at,
    }
}

/// The shop on Monday morning: two presses, the paper on the shelves, no jobs yet.
impl Default for Shop {
    fn default() -> Self {
        Shop {
            jobs: Vec::new(),
            presses: vec![
                press("Indigo", PressKind::Digital, Sheet::Sra3, 10, 2_400),
                press("Speedmaster", PressKind::Offset, Sheet::B2, 45, 9_000),
            ],
            stock: vec![
                shelf(Paper::Silk, Sheet::Sra3, 1_500, 300),
                shelf(Paper::Uncoated, Sheet::Sra3, 1_000, 300),
                shelf(Paper::Card, Sheet::Sra3, 400, 250),
                shelf(Paper::Silk, Sheet::B2, 4_000, 1_000),
                shelf(Paper::Uncoated, Sheet::B2, 2_000, 1_000),
            ],
            next_id: 1,
            clock: OPENS_AT,
            invoiced: 0,
        }
    }
}

/// What the counter, the press room and the bench send.
#[derive(Debug, Messages)]
#[message(rename_all = "camelCase")]
pub enum Msg {
    /// A customer orders a job: it is quoted at once.
    Order {
        /// Who orders.
        customer: String,
        /// `silk`, `uncoated` or `card`.
        paper: String,
        /// `A3`, `A4`, `A5` or `A6`.
        size: String,
        /// `mono` or `colour`.
        colour: String,
        /// Copies.
        #[message(range(min = 1, max = 100000))]
        quantity: u32,
        /// `flat`, `trim`, `fold` or `bind`.
        finish: String,
        /// Sent by courier (else collected).
        courier: bool,
        /// The day it is due, 1 (Monday) to 5 (Friday).
        #[message(range(min = 1, max = 5))]
        due: u32,
    },
    /// A proof goes to the customer.
    SendProof {
        /// The docket.
        job: u32,
    },
    /// The customer approves the proof: the job is booked on a press.
    Approve {
        /// The docket.
        job: u32,
    },
    /// The customer sends the proof back; a round past the free ones is charged.
    Reject {
        /// The docket.
        job: u32,
    },
    /// Books an approved job on a press (sent by `approve`).
    Schedule {
        /// The docket.
        job: u32,
    },
    /// The press prints the first job in its queue.
    Run {
        /// The press's name.
        press: String,
    },
    /// The bench finishes a printed job.
    Finish {
        /// The docket.
        job: u32,
    },
    /// A finished job goes (with the courier, or collected) and is invoiced.
    Dispatch {
        /// The docket.
        job: u32,
    },
    /// Paper arrives.
    Restock {
        /// `silk`, `uncoated` or `card`.
        paper: String,
        /// `SRA3` or `B2`.
        sheet: String,
        /// Sheets.
        #[message(range(min = 1))]
        sheets: u32,
    },
}

/// Copies of this file's code with one mistake each, selected by `graph::Slip`.
pub mod slipped {
    use super::*;

    /// The shop on Monday morning: two presses, the paper on the shelves, no jobs yet.
    pub fn opening() -> Shop {
        Shop {
            jobs: Vec::new(),
            presses: vec![
                press("Indigo", PressKind::Digital, Sheet::Sra3, 10, 2_400),
                // BUG(offset_setup)
                press("Speedmaster", PressKind::Offset, Sheet::B2, 10, 9_000),
            ],
            stock: vec![
                shelf(Paper::Silk, Sheet::Sra3, 1_500, 300),
                shelf(Paper::Uncoated, Sheet::Sra3, 1_000, 300),
                shelf(Paper::Card, Sheet::Sra3, 400, 250),
                shelf(Paper::Silk, Sheet::B2, 4_000, 1_000),
                shelf(Paper::Uncoated, Sheet::B2, 2_000, 1_000),
            ],
            next_id: 1,
            clock: OPENS_AT,
            invoiced: 0,
        }
    }
}
